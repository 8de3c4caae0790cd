/**
 * The object verbs (`diazo object ...` and the object_* tools): upload (one file, multipart,
 * resumable, or a batch), download, list, info, delete, signed URL and URN. Keys arrive checked
 * (aps/ids.ts); progress goes to a callback, lines to `deps`, results are returned.
 */
import path from "node:path";
import type { BucketKey, ObjectKey } from "../aps/ids.ts";
import { parseObjectKey } from "../aps/ids.ts";
import { encodeUrn, objectIdOf } from "../aps/urn.ts";
import { usageError } from "../core/errors.ts";
import { humanBytes, isoOfEpochMs } from "../core/output_human.ts";
import {
  createSignedUrl,
  deleteObject,
  getObject,
  type ObjectDetails,
  objectsRequest,
  SIGNED_ACCESS,
} from "../services/oss_objects.ts";
import { fetchPage } from "../services/pagination.ts";
import { partSizeBytes, statFile, uploadFile, type UploadResult } from "../services/upload.ts";
import { type BatchOutcome, expandInputs, missingOutcome, uploadBatch } from "../services/upload_batch.ts";
import type { OpsDeps } from "./deps.ts";
import { type ListOptions, type ListPage, mapPage } from "./list.ts";
import { noProgress, type StartProgress } from "./progress.ts";

export { SIGNED_ACCESS };
export type { BatchOutcome, UploadResult };

/** Adds the base64 URN and readable dates beside the platform's fields. */
export function withObjectHelpers<T extends Partial<ObjectDetails>>(o: T): T & { urn?: string } {
  const dates: Record<string, string> = {};
  for (const k of ["createdDate", "lastModifiedDate", "lastAccessedDate"] as const) {
    const iso = isoOfEpochMs(o[k]);
    if (iso !== undefined) dates[k.replace("Date", "At")] = iso;
  }
  return { ...o, ...(o.objectId ? { urn: encodeUrn(o.objectId) } : {}), ...dates };
}

/** An object as the verbs answer it: the platform's fields, its URN and readable dates beside them. */
export type ObjectRow = ReturnType<typeof withObjectHelpers<ObjectDetails>>;

/** What `object upload` takes; relative `files` are read from `deps.cwd` and named as given. */
export interface UploadOpts {
  bucketKey: BucketKey;
  files: readonly string[];
  /** The key of a single file (default: prefix + its file name). */
  key?: ObjectKey;
  prefix?: string;
  batch?: boolean;
  resume?: boolean;
  /** Part size in MiB (5-512). */
  partSizeMiB?: number;
  /** Stops the upload (a cancelled tool call); its parts are kept for a resume, as after Ctrl-C. */
  signal?: AbortSignal;
}

/** What uploading one file did; `summary` is the line that says so. */
export interface UploadedOne {
  batch: false;
  result: ReturnType<typeof withObjectHelpers<UploadResult>>;
  summary: string;
}

/** What uploading a batch did: every file's outcome; `summary` is the line that says so. */
export interface UploadedBatch {
  batch: true;
  outcomes: BatchOutcome[];
  failed: number;
  summary: string;
}

/** Uploads one file, or with `batch` (or several files) many files and directories. */
export function runObjectUpload(
  opts: UploadOpts,
  deps: OpsDeps,
  progress: StartProgress = noProgress,
): Promise<UploadedOne | UploadedBatch> {
  if (opts.key !== undefined && (opts.files.length > 1 || opts.batch)) {
    throw usageError("--key names one object", "Use --prefix to put a batch under a common key prefix.");
  }
  return !opts.batch && opts.files.length === 1
    ? runObjectUploadFile({ ...opts, file: opts.files[0] }, deps, progress)
    : runObjectUploadBatch(opts, deps, progress);
}

/** The HTTP client and the settings every file of an upload shares. */
async function uploadSetup(opts: Omit<UploadOpts, "files">, deps: OpsDeps) {
  const partSize = opts.partSizeMiB === undefined ? undefined : partSizeBytes(opts.partSizeMiB);
  const settings = await deps.settings();
  const http = await deps.http();
  const started = performance.now();
  return {
    http,
    common: {
      bucketKey: opts.bucketKey,
      concurrency: settings.concurrency,
      partSize,
      resume: opts.resume,
      stateDir: deps.stateDir,
      signal: opts.signal,
      debug: (line: string) => deps.debug(line),
    },
    seconds: () => Math.max((performance.now() - started) / 1000, 0.001),
  };
}

/** Uploads one file as one object (multipart, parallel, resumable, SHA-1 checked). */
export async function runObjectUploadFile(
  opts: Omit<UploadOpts, "files" | "batch"> & { file: string },
  deps: OpsDeps,
  progress: StartProgress = noProgress,
): Promise<UploadedOne> {
  const { http, common, seconds } = await uploadSetup(opts, deps);
  const file = opts.file;
  // Read from deps.cwd (the CLI's may differ from the process's in process); named as given.
  const info = await statFile(path.resolve(deps.cwd, file), file);
  const objectKey = opts.key ?? parseObjectKey((opts.prefix ?? "") + file.split(/[\\/]/).pop());
  const bar = await progress(objectKey, info.size);
  try {
    const result = await uploadFile(http, {
      ...common,
      file: path.resolve(deps.cwd, file),
      info,
      objectKey,
      onProgress: (done) => bar.update(done),
    });
    const resumed = result.partsSkipped ? `, ${result.partsSkipped} resumed` : "";
    const speed = (result.size / 1048576 / seconds()).toFixed(1);
    const summary = `Uploaded ${file} to ${opts.bucketKey}/${result.objectKey} (${
      humanBytes(result.size)
    }, ${result.parts} part(s)${resumed}, ${speed} MiB/s)`;
    return { batch: false, result: withObjectHelpers(result), summary };
  } finally {
    bar.stop();
  }
}

/** Uploads files and whole directories under one concurrency limit; one failure never stops the rest. */
export async function runObjectUploadBatch(
  opts: UploadOpts,
  deps: OpsDeps,
  progress: StartProgress = noProgress,
): Promise<UploadedBatch> {
  const { http, common, seconds } = await uploadSetup(opts, deps);
  const { entries, missing } = await expandInputs(opts.files, opts.prefix ?? "", deps.cwd);
  if (!opts.batch && entries.length !== opts.files.length - missing.length) {
    throw usageError("a directory was given", "Upload directories with --batch.");
  }
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  const bar = await progress(`${entries.length} files`, total);
  let sent = 0;
  let outcomes: BatchOutcome[];
  try {
    outcomes = await uploadBatch(http, entries, {
      ...common,
      onBytes: (n) => bar.update(sent += n),
    });
  } finally {
    bar.stop();
  }
  outcomes.push(...missing.map(missingOutcome));
  const failed = outcomes.filter((o) => o.status === "failed").length;
  const bytes = outcomes.reduce((s, o) => s + (o.status === "ok" ? o.size : 0), 0);
  const summary = `Uploaded ${outcomes.length - failed} of ${outcomes.length} files (${
    humanBytes(bytes)
  }) in ${seconds().toFixed(1)} s${failed ? `; ${failed} failed` : ""}`;
  const shown = outcomes.map((x) => x.status === "ok" ? withObjectHelpers(x) : x);
  return { batch: true, outcomes: shown, failed, summary };
}

/** A bucket's objects (optionally under `prefix`); without `limit`, every page. */
export async function runObjectList(
  opts: ListOptions & { bucketKey: BucketKey; prefix?: string },
  deps: OpsDeps,
): Promise<ListPage<ObjectRow>> {
  const page = await fetchPage<ObjectDetails>(
    await deps.http(),
    objectsRequest(opts.bucketKey, opts.prefix),
    "oss",
    { limit: opts.limit ?? Infinity, cursor: opts.cursor },
  );
  return mapPage(page, withObjectHelpers);
}

/** An object's details (size, SHA-1, dates) and its URN. */
export async function runObjectInfo(
  opts: { bucketKey: BucketKey; objectKey: ObjectKey },
  deps: OpsDeps,
): Promise<ObjectRow> {
  return withObjectHelpers(await getObject(await deps.http(), opts.bucketKey, opts.objectKey));
}

/** What deleting an object did. */
export interface ObjectDeleted {
  bucketKey: string;
  objectKey: string;
  deleted: true;
}

/** Deletes an object; with `confirm`, only after a yes (undefined when the answer was no). */
export async function runObjectDelete(
  opts: { bucketKey: BucketKey; objectKey: ObjectKey; confirm?: (question: string) => Promise<boolean> },
  deps: OpsDeps,
): Promise<ObjectDeleted | undefined> {
  const { bucketKey, objectKey } = opts;
  const http = await deps.http();
  if (opts.confirm && !(await opts.confirm(`Delete ${bucketKey}/${objectKey}?`))) return undefined;
  await deleteObject(http, bucketKey, objectKey);
  return { bucketKey, objectKey, deleted: true };
}

/** A shareable signed URL and when it expires. */
export interface SignedUrlAnswer {
  signedUrl: string;
  expiration?: number;
  expiresAt?: string;
  singleUse?: boolean;
}

/** Creates a URL that reads (or writes) the object without credentials for 1-60 minutes. */
export async function runObjectSignedUrl(
  opts: {
    bucketKey: BucketKey;
    objectKey: ObjectKey;
    minutes: number;
    access: (typeof SIGNED_ACCESS)[number];
    singleUse?: boolean;
  },
  deps: OpsDeps,
): Promise<SignedUrlAnswer> {
  if (opts.minutes > 60) {
    throw usageError(`--minutes ${opts.minutes} is above 60`, "Signed URLs live 1 to 60 minutes.");
  }
  const res = await createSignedUrl(await deps.http(), opts.bucketKey, opts.objectKey, {
    minutes: opts.minutes,
    access: opts.access,
    singleUse: opts.singleUse,
  });
  const expiresAt = isoOfEpochMs(res.expiration);
  return { ...res, ...(expiresAt ? { expiresAt } : {}) };
}

/** An object's raw id and Model Derivative URN. */
export interface ObjectUrn {
  bucketKey: string;
  objectKey: string;
  objectId: string;
  urn: string;
}

/** An object's id and base64 URN, computed locally (no request; the object need not exist). */
export function runObjectUrn(opts: { bucketKey: BucketKey; objectKey: ObjectKey }): ObjectUrn {
  const objectId = objectIdOf(opts.bucketKey, opts.objectKey);
  return { bucketKey: opts.bucketKey, objectKey: opts.objectKey, objectId, urn: encodeUrn(objectId) };
}
