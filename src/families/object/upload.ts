/**
 * `object upload` and the object_upload tool: one file (multipart, parallel, resumable, SHA-1
 * checked) or a batch of files and directories under one concurrency limit. Progress goes to a
 * callback, lines to `deps`, results are returned.
 */
import path from "node:path";
import type { BucketKey, ObjectKey } from "../../aps/ids.ts";
import { parseObjectKey } from "../../aps/ids.ts";
import { usageError } from "../../core/errors.ts";
import { humanBytes } from "../../core/output_human.ts";
import { partSizeBytes, statFile, uploadFile, type UploadResult } from "../../transfer/upload.ts";
import { type BatchOutcome, expandInputs, missingOutcome, uploadBatch } from "../../transfer/upload_batch.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { withObjectHelpers } from "./verbs.ts";
import { noProgress, type StartProgress } from "../../transfer/progress.ts";

export type { BatchOutcome, UploadResult };

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
