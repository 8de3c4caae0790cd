/**
 * A version's other download formats (openapi/datamanagement/datamanagement.yaml): the formats it
 * can be downloaded as (`downloadFormats`), a download job (`POST .../downloads`, 202) that works for
 * the sandbox's job time (`job_seconds` of the control API, on the sandbox clock), its status (200
 * while it works, then 303 to the download), and the download, whose file is an object of the
 * storage bucket that the OSS routes serve.
 */
import type { RequestContext } from "../context.ts";
import { nowMs } from "../clock.ts";
import type { Route } from "../router.ts";
import { putObject } from "../oss/object_store.ts";
import { dmBadInput, dmNotFound, document, jsonApi, type Resource } from "./jsonapi.ts";
import { objectAt, payload, related, text } from "./payload.ts";
import { versionIn, visibleProject } from "./routes.ts";
import { grantStorage } from "./storage.ts";
import { DM_STORAGE_BUCKET, type DmDownload, type DmProject, type DmVersion, type DmWorld } from "./world.ts";

/** The formats the sandbox converts a version to, by the version's file type (its own choice). */
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  rvt: ["dwf", "dwg", "ifc", "nwc", "pdf"],
  dwg: ["dwf", "pdf"],
  ifc: ["nwc"],
};

/** What any other file can be downloaded as (the file says a version offers at least one format). */
const DEFAULT_FORMATS: readonly string[] = ["pdf"];

/** The formats `version` can be downloaded as. */
export function downloadFormatsOf(version: DmVersion): readonly string[] {
  return FORMATS[version.fileType] ?? DEFAULT_FORMATS;
}

/** The download jobs of a world (a world saved before there were any has none). */
function jobsOf(world: DmWorld): Map<string, DmDownload> {
  return world.downloads ??= new Map();
}

const enc = encodeURIComponent;

function projectHref(ctx: RequestContext, project: DmProject): string {
  return `${ctx.baseUrl}/data/v1/projects/${enc(project.id)}`;
}

function listFormats(_req: Request, ctx: RequestContext): Response {
  const world = ctx.sandbox.dm.world;
  const version = versionIn(ctx, world, visibleProject(ctx, world));
  const data = {
    type: "downloadFormats",
    id: version.id,
    attributes: { formats: downloadFormatsOf(version).map((fileType) => ({ fileType })) },
  };
  return jsonApi(200, document(ctx.url, ctx.baseUrl, data));
}

/** The bytes of a version converted to `fileType`: a few lines that say what they stand for. */
function convertedBytes(version: DmVersion, fileType: string): Uint8Array {
  const what = `${version.name} (version ${version.versionNumber}) as ${fileType}, made by the diazo sandbox`;
  const text = fileType === "pdf" ? `%PDF-1.4\n% ${what}\n%%EOF\n` : `${what}\n`;
  return new TextEncoder().encode(text);
}

/** A job as the file's `Job` (and `CreatedDownload` item): its status and its own link. */
function jobResource(ctx: RequestContext, project: DmProject, job: DmDownload, status: string): Resource {
  const href = `${projectHref(ctx, project)}/jobs/${enc(job.id)}`;
  return { type: "jobs", id: job.id, attributes: { status }, links: { self: { href } } };
}

async function createDownload(req: Request, ctx: RequestContext): Promise<Response> {
  const { data } = await payload(req, "downloads");
  const attributes = objectAt(data.attributes, "data.attributes");
  const fileType = text(
    objectAt(attributes.format, "data.attributes.format").fileType,
    "data.attributes.format.fileType",
  );
  const source = related(data, "source", ["versions"]);
  const world = ctx.sandbox.dm.writable();
  const project = visibleProject(ctx, world);
  const version = versionIn({ ...ctx, params: { ...ctx.params, versionId: source.id } }, world, project);
  const formats = downloadFormatsOf(version);
  if (!formats.includes(fileType)) {
    throw dmBadInput(
      `The version ${version.id} cannot be downloaded as '${fileType}'; its formats are ${
        formats.join(", ")
      }.`,
    );
  }
  const id = crypto.randomUUID();
  const objectKey = `${id}.${fileType}`;
  grantStorage(ctx);
  await putObject(ctx.sandbox.oss, DM_STORAGE_BUCKET, objectKey, convertedBytes(version, fileType));
  const job: DmDownload = {
    id,
    projectId: project.id,
    versionId: version.id,
    fileType,
    createdMs: nowMs(ctx.sandbox.clock),
    durationMs: Math.round(ctx.sandbox.settings.jobSeconds * 1000),
    storageId: `urn:adsk.objects:os.object:${DM_STORAGE_BUCKET}/${objectKey}`,
  };
  jobsOf(world).set(id, job);
  const resource = jobResource(ctx, project, job, "queued");
  return jsonApi(202, {
    jsonapi: { version: "1.0" },
    links: resource.links,
    data: [resource],
  });
}

/** The job of the path's `jobId` (or `downloadId`: the same id) in the path's project; 404 otherwise. */
function jobIn(ctx: RequestContext, id: string): { project: DmProject; job: DmDownload } {
  const world = ctx.sandbox.dm.world;
  const project = visibleProject(ctx, world);
  const job = jobsOf(world).get(id);
  if (!job || job.projectId !== project.id) {
    throw dmNotFound(`The job ${id} does not exist in project ${project.id}.`);
  }
  return { project, job };
}

/** How far a job is: queued for its first quarter, then processing, finished once its time has passed. */
function jobStatus(ctx: RequestContext, job: DmDownload): "queued" | "processing" | "finished" {
  const elapsed = nowMs(ctx.sandbox.clock) - job.createdMs;
  if (elapsed >= job.durationMs) return "finished";
  return elapsed < job.durationMs / 4 ? "queued" : "processing";
}

function getJob(_req: Request, ctx: RequestContext): Response {
  const { project, job } = jobIn(ctx, ctx.params.jobId);
  const status = jobStatus(ctx, job);
  if (status === "finished") {
    const location = `${projectHref(ctx, project)}/downloads/${enc(job.id)}`;
    return new Response(null, { status: 303, headers: { location } });
  }
  return jsonApi(200, document(ctx.url, ctx.baseUrl, jobResource(ctx, project, job, status)));
}

/** A finished download as the file's `DownloadData`: its format, its source version and its stored file. */
export function downloadResource(ctx: RequestContext, project: DmProject, job: DmDownload): Resource {
  const data = projectHref(ctx, project);
  const objectKey = job.storageId.slice(job.storageId.lastIndexOf("/") + 1);
  return {
    type: "downloads",
    id: job.id,
    attributes: { format: { fileType: job.fileType } },
    relationships: {
      source: {
        links: { related: { href: `${data}/downloads/${enc(job.id)}/source` } },
        data: { type: "versions", id: job.versionId },
      },
      storage: {
        data: { type: "objects", id: job.storageId },
        meta: {
          link: { href: `${ctx.baseUrl}/oss/v2/buckets/${DM_STORAGE_BUCKET}/objects/${enc(objectKey)}` },
        },
      },
    },
    links: { self: { href: `${data}/downloads/${enc(job.id)}` } },
  };
}

/** The finished downloads of `version`, oldest first. */
export function finishedDownloads(ctx: RequestContext, project: DmProject, version: DmVersion): Resource[] {
  return [...jobsOf(ctx.sandbox.dm.world).values()]
    .filter((j) =>
      j.versionId === version.id && j.projectId === project.id && jobStatus(ctx, j) === "finished"
    )
    .map((j) => downloadResource(ctx, project, j));
}

function getDownload(_req: Request, ctx: RequestContext): Response {
  const { project, job } = jobIn(ctx, ctx.params.downloadId);
  if (jobStatus(ctx, job) !== "finished") {
    throw dmNotFound(`The download ${job.id} is not ready yet: its job is still working.`);
  }
  return jsonApi(200, document(ctx.url, ctx.baseUrl, downloadResource(ctx, project, job)));
}

const DATA = "/data/v1/projects/:projectId";

/** Routes of a version's download formats and download jobs, with the scopes of aps/operation_scopes.ts. */
export const dmDownloadRoutes: readonly Route[] = [
  {
    method: "GET",
    pattern: `${DATA}/versions/:versionId/downloadFormats`,
    scopes: ["data:read"],
    handler: listFormats,
  },
  { method: "POST", pattern: `${DATA}/downloads`, scopes: ["data:create"], handler: createDownload },
  { method: "GET", pattern: `${DATA}/jobs/:jobId`, scopes: ["data:read"], handler: getJob },
  { method: "GET", pattern: `${DATA}/downloads/:downloadId`, scopes: ["data:read"], handler: getDownload },
];
