/**
 * A version's other download formats (openapi/datamanagement/datamanagement.yaml): the formats it can
 * be downloaded as, a download job that converts it to one, and the job's status. A finished job
 * answers 303 to its download, which the client follows: the poll then reads the download itself,
 * whose storage object holds the file. The POST is never retried (each would start one more job).
 */
import { segment as enc } from "../../http/path.ts";
import type { DmProjectId, VersionId } from "../../aps/ids.ts";
import type { Http } from "../../http/http.ts";
import { DATA_CREATE, DATA_READ } from "../../aps/scope_constants.ts";
import { dmFailure, type DmResource, type DmTarget, versionTarget } from "./api.ts";

/** A download job as the platform reports it: `queued`, `processing` or `failed` while it has not finished. */
export interface DownloadJob {
  id: string;
  status: string;
}

/** One poll of a job: its status while it works, the download (`type: downloads`) once it has finished. */
export type DownloadPoll = { job: DownloadJob } | { download: DmResource };

async function request<T>(http: Http, spec: Parameters<Http["request"]>[0], target: DmTarget): Promise<T> {
  try {
    return (await http.request<T>({ resource: "generic", key: target.what, ...spec })).data;
  } catch (e) {
    throw dmFailure(e, target);
  }
}

/** The file types (e.g. `pdf`, `dwg`) a version can be downloaded as. */
export async function getDownloadFormats(
  http: Http,
  project: DmProjectId,
  version: VersionId,
): Promise<string[]> {
  const doc = await request<{ data?: { attributes?: { formats?: { fileType?: unknown }[] } } }>(http, {
    path: `/data/v1/projects/${enc(project)}/versions/${enc(version)}/downloadFormats`,
    scope: DATA_READ,
  }, versionTarget(project, version));
  const formats = doc.data?.attributes?.formats ?? [];
  return formats.map((f) => f.fileType).filter((t): t is string => typeof t === "string" && t !== "");
}

/** Starts a job that converts `version` to `fileType`. */
export async function createDownload(
  http: Http,
  project: DmProjectId,
  version: VersionId,
  fileType: string,
): Promise<DownloadJob> {
  const doc = await request<{ data?: unknown }>(http, {
    method: "POST",
    path: `/data/v1/projects/${enc(project)}/downloads`,
    headers: { "content-type": "application/vnd.api+json" },
    json: {
      jsonapi: { version: "1.0" },
      data: {
        type: "downloads",
        attributes: { format: { fileType } },
        relationships: { source: { data: { type: "versions", id: version } } },
      },
    },
    scope: DATA_CREATE,
  }, versionTarget(project, version));
  // The file answers a list of one job; an answer of the job alone is read the same.
  const job = (Array.isArray(doc.data) ? doc.data[0] : doc.data) as Partial<DmResource> | undefined;
  return { id: String(job?.id ?? ""), status: String(job?.attributes?.status ?? "queued") };
}

/** One poll of job `jobId`. */
export async function getDownloadJob(http: Http, project: DmProjectId, jobId: string): Promise<DownloadPoll> {
  const doc = await request<{ data?: DmResource }>(http, {
    path: `/data/v1/projects/${enc(project)}/jobs/${enc(jobId)}`,
    scope: DATA_READ,
  }, {
    what: `download job ${jobId} in project ${project}`,
    hint: "Start the download again with `diazo item download <project> <item> --format <type>`.",
  });
  const data = doc.data;
  const status = data?.attributes?.status;
  if (typeof status === "string") return { job: { id: jobId, status } };
  return { download: data as DmResource };
}
