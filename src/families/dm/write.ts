/**
 * The data management writes: `folder create|rename`, `item upload|bind|download|rename`, `version
 * describe|rename` (and their `dm ...` spellings). A file goes up through the platform's
 * upload-a-file flow (storage -> signed S3 upload of the `object upload` machinery -> item, or a
 * new version when the folder holds an item of that name); it comes down through the `object
 * download` machinery (atomic, resumable, SHA-1 checked). Ids arrive checked.
 */
import path from "node:path";
import type { BucketKey, DmProjectId, FolderId, ItemId, ObjectKey, VersionId } from "../../aps/ids.ts";
import { parseBucketKey, parseObjectKey } from "../../aps/ids.ts";
import { dmNameProblem } from "../../aps/dm_names.ts";
import { objectIdOf } from "../../aps/urn.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import { hexOf } from "../../core/bytes.ts";
import {
  type DmResource,
  getItemWithTip,
  getVersion,
  listFolderContents,
  listVersionDownloads,
} from "./api.ts";
import {
  createFolder,
  createItem,
  createStorage,
  createVersion,
  type DmWritten,
  renameFolder,
  renameItem,
  renameVersion,
} from "./write_api.ts";
import { downloadTarget } from "../../transfer/download_target.ts";
import type { Http } from "../../http/http.ts";
import { partSizeBytes, statFile, uploadFile } from "../../transfer/upload.ts";
import { readTextIfExists } from "../../platform/fs.ts";
import { writeFileAtomic } from "../../platform/fs_write.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { dmHttp, type LoginChoice } from "./verbs.ts";
import { downloadShown } from "../object/download.ts";
import { noProgress, type StartProgress } from "../../transfer/progress.ts";

/** `folder create`: a folder named `name` in `parent`. */
export async function runFolderCreate(
  opts: LoginChoice & { project: DmProjectId; parent: FolderId; name: string },
  deps: OpsDeps,
): Promise<DmResource> {
  return await createFolder(await dmHttp(deps, opts), opts.project, opts.parent, checkedName(opts.name));
}

/** `folder rename`: a folder's new name. */
export async function runFolderRename(
  opts: LoginChoice & { project: DmProjectId; folder: FolderId; name: string },
  deps: OpsDeps,
): Promise<DmResource> {
  return await renameFolder(await dmHttp(deps, opts), opts.project, opts.folder, checkedName(opts.name));
}

/** `item rename`: an item's new display name, with its tip version. */
export async function runItemRename(
  opts: LoginChoice & { project: DmProjectId; item: ItemId; name: string },
  deps: OpsDeps,
): Promise<DmWritten> {
  return await renameItem(await dmHttp(deps, opts), opts.project, opts.item, checkedName(opts.name));
}

/** `item version rename`: the file name a version syncs to. */
export async function runVersionRename(
  opts: LoginChoice & { project: DmProjectId; version: VersionId; name: string },
  deps: OpsDeps,
): Promise<DmResource> {
  return await renameVersion(await dmHttp(deps, opts), opts.project, opts.version, checkedName(opts.name));
}

/** `item version describe`: one version and the download jobs (derivative formats) the platform offers for it. */
export async function runVersionDescribe(
  opts: LoginChoice & { project: DmProjectId; version: VersionId },
  deps: OpsDeps,
): Promise<{ version: DmResource; downloads: DmResource[] }> {
  const http = await dmHttp(deps, opts);
  const version = await getVersion(http, opts.project, opts.version);
  const downloads = await listVersionDownloads(http, opts.project, opts.version);
  return { version, downloads: downloads.items };
}

/** A name as the platform takes it (aps/dm_names.ts); a usage error before any request otherwise. */
export function checkedName(name: string): string {
  const problem = dmNameProblem(name);
  if (problem !== undefined) {
    throw usageError(`invalid name '${name}': it ${problem}`, "Choose another name, e.g. with --name.");
  }
  return name;
}

/** What an upload or a bind made: the item, the version created, and whether it was a new version of an existing item. */
export interface DmFiled {
  item: DmResource;
  version: DmResource;
  newVersion: boolean;
  /** The line that says so. */
  summary: string;
}

/** The item of `folder` named `name`, if there is one (all pages looked through). */
async function itemNamed(
  http: Http,
  project: DmProjectId,
  folder: FolderId,
  name: string,
): Promise<ItemId | undefined> {
  const page = await listFolderContents(http, project, folder, { type: "items" });
  return page.items.find((r) => r.attributes.displayName === name)?.id as ItemId | undefined;
}

/** Makes the stored object `storageId` the first version of a new item or a new version of `existing`. */
async function file(
  http: Http,
  o: { project: DmProjectId; folder: FolderId; name: string; storageId: string; existing?: ItemId },
): Promise<Omit<DmFiled, "summary">> {
  if (o.existing === undefined) {
    try {
      const made = await createItem(http, o.project, o.folder, o.name, o.storageId);
      return {
        item: made.data,
        version: made.included.find((r) => r.type === "versions")!,
        newVersion: false,
      };
    } catch (e) {
      // Someone filed an item of that name since the folder was read (409): this becomes its next version.
      const raced = e instanceof DiazoError && e.code === "conflict"
        ? await itemNamed(http, o.project, o.folder, o.name)
        : undefined;
      if (raced === undefined) throw e;
      return await file(http, { ...o, existing: raced });
    }
  }
  const made = await createVersion(http, o.project, o.existing, o.name, o.storageId);
  return { item: made.included.find((r) => r.type === "items")!, version: made.data, newVersion: true };
}

function filedSummary(f: Omit<DmFiled, "summary">, what: string): string {
  const n = f.version.attributes.versionNumber;
  return `${what} as ${
    f.newVersion ? `version ${n} of` : "the new item"
  } ${f.item.attributes.displayName} (${f.item.id})`;
}

/** `item bind`: an existing OSS object becomes a new item in `folder`, or a new version of the item of the same name. */
export async function runItemBind(
  opts: LoginChoice & {
    project: DmProjectId;
    folder: FolderId;
    bucketKey: BucketKey;
    objectKey: ObjectKey;
    name?: string;
  },
  deps: OpsDeps,
): Promise<DmFiled> {
  const name = checkedName(opts.name ?? opts.objectKey.split("/").pop()!);
  const http = await dmHttp(deps, opts);
  const existing = await itemNamed(http, opts.project, opts.folder, name);
  const storageId = objectIdOf(opts.bucketKey, opts.objectKey);
  const filed = await file(http, { ...opts, name, storageId, existing });
  return { ...filed, summary: filedSummary(filed, `Bound ${opts.bucketKey}/${opts.objectKey}`) };
}

/** What `item upload` takes; a relative `file` is read from `deps.cwd`. */
export interface ItemUploadOpts extends LoginChoice {
  project: DmProjectId;
  folder: FolderId;
  file: string;
  /** The item's name (default: the file's name). */
  name?: string;
  resume?: boolean;
  partSizeMiB?: number;
}

/** The storage location an interrupted upload of the same file to the same folder was given. */
interface StorageRecord {
  key: string;
  storageId: string;
}

async function storageRecordPath(deps: OpsDeps, key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return path.join(deps.stateDir, "dm-uploads", `${hexOf(digest).slice(0, 32)}.json`);
}

async function rememberedStorage(deps: OpsDeps, key: string): Promise<string | undefined> {
  const text = await readTextIfExists(await storageRecordPath(deps, key));
  try {
    const r = text === undefined ? undefined : JSON.parse(text) as StorageRecord;
    return r?.key === key && typeof r.storageId === "string" ? r.storageId : undefined;
  } catch {
    return undefined;
  }
}

/** Splits a storage id `urn:adsk.objects:os.object:<bucket>/<key>` into its bucket and key. */
export function storageObject(storageId: string): { bucketKey: BucketKey; objectKey: ObjectKey } {
  const m = /^urn:adsk\.objects:os\.object:([^/]+)\/(.+)$/.exec(storageId);
  if (!m) {
    throw usageError(
      `the platform answered a storage id diazo cannot read: ${storageId}`,
      "Retry the upload.",
    );
  }
  return { bucketKey: parseBucketKey(m[1]), objectKey: parseObjectKey(m[2]) };
}

/**
 * `item upload`: storage -> multipart upload (parallel, resumable with `resume`: the storage
 * location and the parts stored are remembered) -> a new item, or a new version of the item of
 * the same name in the folder.
 */
export async function runItemUpload(
  opts: ItemUploadOpts,
  deps: OpsDeps,
  progress: StartProgress = noProgress,
): Promise<DmFiled> {
  const partSize = opts.partSizeMiB === undefined ? undefined : partSizeBytes(opts.partSizeMiB);
  const abs = path.resolve(deps.cwd, opts.file);
  const info = await statFile(abs, opts.file);
  const name = checkedName(opts.name ?? path.basename(abs));
  const http = await dmHttp(deps, opts);
  const existing = await itemNamed(http, opts.project, opts.folder, name);
  const key = [http.baseUrl, opts.project, opts.folder, name, abs, info.size, info.mtime?.getTime() ?? 0]
    .join("\n");
  const recordFile = await storageRecordPath(deps, key);
  let storageId = opts.resume ? await rememberedStorage(deps, key) : undefined;
  if (storageId === undefined) {
    const target = existing === undefined ? { folder: opts.folder } : { item: existing };
    storageId = await createStorage(http, opts.project, name, target);
    await writeFileAtomic(recordFile, JSON.stringify({ key, storageId } satisfies StorageRecord), 0o600);
  }
  const bar = await progress(name, info.size);
  try {
    const settings = await deps.settings();
    await uploadFile(http, {
      ...storageObject(storageId),
      file: abs,
      info,
      partSize,
      concurrency: settings.concurrency,
      resume: opts.resume,
      stateDir: deps.stateDir,
      onProgress: (done) => bar.update(done),
      debug: (line) => deps.debug(line),
    });
  } finally {
    bar.stop();
  }
  const filed = await file(http, { ...opts, name, storageId, existing });
  await Deno.remove(recordFile).catch(() => {});
  return { ...filed, summary: filedSummary(filed, `Uploaded ${opts.file} (${info.size} bytes)`) };
}

/** What `item download` wrote. */
export interface ItemDownloaded {
  item: string;
  version: string;
  versionNumber: unknown;
  file: string;
  size: number;
  sha1: string;
  resumedBytes?: number;
  summary: string;
}

/**
 * `item download`: the tip of an item or a given version, through its storage object, into `out`
 * (a file or a directory; default the working directory under the version's file name).
 */
export async function runItemDownload(
  opts: LoginChoice & {
    project: DmProjectId;
    target: { item: ItemId } | { version: VersionId };
    out?: string;
    force?: boolean;
    resume?: boolean;
    signal?: AbortSignal;
  },
  deps: OpsDeps,
  progress: StartProgress = noProgress,
): Promise<ItemDownloaded> {
  const http = await dmHttp(deps, opts);
  const version = "item" in opts.target
    ? (await getItemWithTip(http, opts.project, opts.target.item)).tip
    : await getVersion(http, opts.project, opts.target.version);
  const storage = (version?.relationships?.storage as { data?: { id?: string } } | undefined)?.data?.id;
  if (!version || !storage) {
    throw usageError(
      "this version has no stored file to download",
      "Pick another version with `diazo item versions`.",
    );
  }
  const name = String(version.attributes.name ?? version.attributes.displayName ?? "download");
  const target = await downloadTarget(deps.cwd, name, opts.out);
  const got = await downloadShown(
    http,
    deps,
    { ...opts, ...storageObject(storage), target },
    progress(name, 0),
  ).catch((e) => {
    if (!(e instanceof DiazoError) || e.code !== "object_not_found") throw e;
    throw new DiazoError("dm_not_found", {
      status: e.status,
      body: e.body,
      cause: e,
      params: {
        what: `the stored file of version ${version.id}`,
        hint:
          "Storage holds no bytes for this version; list the item's versions with `diazo item versions <project> <item>` and pick another.",
      },
    });
  });
  const itemId = (version.relationships?.item as { data?: { id?: string } } | undefined)?.data?.id ?? "";
  const n = version.attributes.versionNumber;
  return {
    item: itemId,
    version: version.id,
    versionNumber: n,
    ...got,
    summary: `Downloaded version ${n} of ${name} to ${got.file} (${got.size} bytes, SHA-1 verified)`,
  };
}
