/**
 * `issue attachment <issue> <file>` and `issue attachment list`: a file is attached by uploading it
 * to the project's storage and recording it on the issue: the
 * project's root folder (the parent of "Project Files", found through data management), a storage
 * object reserved there, the bytes sent with OSS's signed S3 flow (transfer/upload.ts), then the
 * attachment record. The file is checked before any request.
 */
import path from "node:path";
import { dmFolderId, dmHubId, dmProjectId } from "../../aps/dm_ids.ts";
import { type FolderId, type HubId, parseBucketKey, parseObjectKey } from "../../aps/ids.ts";
import { DiazoError, isDiazoError } from "../../core/errors.ts";
import { listHubs, listTopFolders } from "../dm/api.ts";
import type { Http } from "../../http/http.ts";
import { createStorage } from "../dm/write_api.ts";
import { addAttachments, type IssueAttachment, listAttachments } from "./api.ts";
import { statFile, uploadFile } from "../../transfer/upload.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { issueId, type IssueProject } from "./verbs.ts";
import { userHttp } from "../acc/records.ts";

/** Bucket of data management's storage objects. */
const STORAGE_BUCKET = "wip.dm.prod";

/** The project's root folder (the parent of its top folders), through the first ACC hub that has the project. */
async function rootFolder(http: Http, project: string): Promise<FolderId> {
  const dmProject = dmProjectId(project);
  const hubs = (await listHubs(http)).items.filter((h) => h.id.startsWith("b."));
  for (const hub of hubs) {
    let folders;
    try {
      folders = await listTopFolders(http, dmHubId(hub.id) as HubId, dmProject);
    } catch (e) {
      if (isDiazoError(e) && (e.status === 404 || e.status === 403)) continue;
      throw e;
    }
    for (const f of folders.items) {
      const parent = (f.relationships?.parent as { data?: { id?: unknown } } | undefined)?.data?.id;
      if (typeof parent === "string") return dmFolderId(parent);
    }
  }
  throw new DiazoError("project_not_found", {});
}

/** `issue attachment`: uploads `file` to the project's storage and attaches it to the issue. */
export async function runIssueAttach(
  opts: IssueProject & { issue: string; file: string; onUploading?: (bytes: number) => void },
  deps: OpsDeps,
): Promise<IssueAttachment> {
  const info = await statFile(path.resolve(deps.cwd, opts.file), opts.file);
  const http = await userHttp(deps);
  const issue = await issueId(http, opts.project, opts.issue);
  const displayName = path.basename(opts.file);
  const root = await rootFolder(http, opts.project);
  const storageUrn = await createStorage(http, dmProjectId(opts.project), displayName, { folder: root });
  const objectKey = storageUrn.slice(storageUrn.lastIndexOf("/") + 1);
  opts.onUploading?.(info.size);
  const settings = await deps.settings();
  await uploadFile(http, {
    bucketKey: parseBucketKey(STORAGE_BUCKET),
    objectKey: parseObjectKey(objectKey),
    file: path.resolve(deps.cwd, opts.file),
    info,
    concurrency: settings.concurrency,
    stateDir: deps.stateDir,
    debug: (line) => deps.debug(line),
  });
  const attachmentId = objectKey.replace(/\.[^.]*$/, "");
  const [attached] = await addAttachments(http, opts.project, issue, [
    { attachmentId, displayName, fileName: objectKey, storageUrn },
  ]);
  return attached;
}

/** `issue attachment list`: an issue's attachments. */
export async function runIssueAttachmentList(
  opts: IssueProject & { issue: string },
  deps: OpsDeps,
): Promise<IssueAttachment[]> {
  const http = await userHttp(deps);
  return await listAttachments(http, opts.project, await issueId(http, opts.project, opts.issue));
}
