/**
 * `object download` of one object: to a file (atomic, resumable) or standard output, SHA-1 checked.
 * Apart from families/object/verbs.ts so that a download loads no upload code (nor node:crypto for a small
 * object).
 */
import type { BucketKey, ObjectKey } from "../../aps/ids.ts";
import { usageError } from "../../core/errors.ts";
import { humanBytes } from "../../core/output_human.ts";
import { type Downloaded, downloadObject, downloadObjectTo } from "../../transfer/download.ts";
import { downloadTarget } from "../../transfer/download_target.ts";
import type { Http } from "../../http/http.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { noProgress, type Progress, type StartProgress } from "../../transfer/progress.ts";

/** What a download wrote. */
export interface ObjectDownloaded {
  bucketKey: string;
  objectKey: string;
  /** The file written, or "-" for standard output. */
  file: string;
  size: number;
  sha1: string;
  /** Bytes a part file of an earlier run supplied. */
  resumedBytes?: number;
}

/** What `object download` takes; `out` "-" streams to `stdout` (which the front end must then give). */
export interface DownloadOpts {
  bucketKey: BucketKey;
  objectKey: ObjectKey;
  out?: string;
  force?: boolean;
  /** Keep the part file when interrupted or failing, to go on from it next time. */
  resume?: boolean;
  /** Standard output for `--out -`: each write is done with the bytes when it returns. */
  stdout?: { write(bytes: Uint8Array): void };
  signal?: AbortSignal;
}

/**
 * Downloads an object into `out` (a file, or a directory to write into; default the working
 * directory; "-" standard output), streamed and SHA-1 checked, never outside the target directory.
 * A part file left by an earlier run for the same object is continued with a Range request.
 */
export async function runObjectDownload(
  opts: DownloadOpts,
  deps: OpsDeps,
  progress: StartProgress = noProgress,
): Promise<ObjectDownloaded & { summary: string }> {
  const { bucketKey, objectKey } = opts;
  const verified = (where: string, size: number, resumed?: number) =>
    `Downloaded ${bucketKey}/${objectKey} to ${where} (${humanBytes(size)}${
      resumed ? `, ${humanBytes(resumed)} of it from an earlier run` : ""
    }, SHA-1 verified)`;
  if (opts.out === "-") {
    if (!opts.stdout) {
      throw usageError("--out - needs standard output", "Name a file or directory with --out.");
    }
    const got = await downloadObjectTo(await deps.http(), opts.stdout, opts);
    return { bucketKey, objectKey, file: "-", ...got, summary: verified("standard output", got.size) };
  }
  const target = await downloadTarget(deps.cwd, objectKey, opts.out);
  const got = await downloadShown(await deps.http(), deps, { ...opts, target }, progress(objectKey, 0));
  return { bucketKey, objectKey, ...got, summary: verified(got.file, got.size, got.resumedBytes) };
}

/** Downloads an object into `target` (atomic, resumable, SHA-1 checked) while `bar` shows its progress. */
export async function downloadShown(
  http: Http,
  deps: OpsDeps,
  o: Pick<DownloadOpts, "bucketKey" | "objectKey" | "force" | "resume" | "signal"> & { target: string },
  bar: Promise<Progress>,
): Promise<Downloaded> {
  const shown = await bar;
  try {
    return await downloadObject(http, {
      bucketKey: o.bucketKey,
      objectKey: o.objectKey,
      target: o.target,
      overwrite: o.force,
      resume: o.resume,
      signal: o.signal,
      onProgress: (done, total) => shown.update(done, total),
      debug: (line) => deps.debug(line),
    });
  } finally {
    shown.stop();
  }
}
