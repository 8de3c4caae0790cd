/**
 * `object download` of several objects — named keys, every key under `--prefix`, or both — into one
 * directory, through the batch signing operation (transfer/download_batch.ts) with the single
 * download's checks. Each object's outcome is a row; failures are rows too, never a stop.
 */
import path from "node:path";
import type { BucketKey, ObjectKey } from "../../aps/ids.ts";
import { DiazoError, isDiazoError, usageError } from "../../core/errors.ts";
import { humanBytes } from "../../core/output_human.ts";
import { downloadTarget } from "../../transfer/download_target.ts";
import { type BatchDownloadEntry, downloadBatch } from "../../transfer/download_batch.ts";
import { objectsRequest } from "../../transfer/oss_objects.ts";
import type { ObjectDetails } from "../../transfer/oss_objects.ts";
import { fetchPage } from "../../http/pagination.ts";
import type { OpsDeps } from "../../session/deps.ts";

/** What a download of several objects takes. */
export interface DownloadManyOpts {
  bucketKey: BucketKey;
  objectKeys: readonly ObjectKey[];
  /** Every object whose key starts with this, besides the named ones. */
  prefix?: string;
  /** The directory to write into (created when missing); default the working directory. */
  out?: string;
  force?: boolean;
  resume?: boolean;
  signal?: AbortSignal;
}

/** The outcome of one object of the download. */
export type DownloadOutcome =
  | { status: "ok"; objectKey: string; file: string; size: number; sha1: string; resumedBytes?: number }
  | { status: "failed"; objectKey: string; file: string; error: string; exitCode: number };

/** What downloading several objects did; `summary` is the line that says so. */
export interface DownloadedMany {
  outcomes: DownloadOutcome[];
  failed: number;
  summary: string;
}

/** The keys to download: the named ones, then those under `prefix` (every page), each once. */
async function keysToDownload(opts: DownloadManyOpts, deps: OpsDeps): Promise<ObjectKey[]> {
  const keys = [...opts.objectKeys];
  if (opts.prefix !== undefined) {
    const page = await fetchPage<ObjectDetails>(
      await deps.http(),
      objectsRequest(opts.bucketKey, opts.prefix),
      "oss",
      { limit: Infinity },
    );
    if (page.items.length === 0 && keys.length === 0) {
      throw new DiazoError("not_found", {
        params: { what: `objects under '${opts.prefix}' in ${opts.bucketKey}` },
      });
    }
    keys.push(...page.items.map((o) => o.objectKey as ObjectKey));
  }
  return [...new Set(keys)];
}

/** The directory the objects go into: `out` (not a file) or the working directory. */
async function targetDir(deps: OpsDeps, out?: string): Promise<string> {
  if (out === "-") {
    throw usageError("--out - takes one object", "Name a directory with --out, or download one key.");
  }
  const dir = path.resolve(deps.cwd, out ?? ".");
  const info = await Deno.stat(dir).catch(() => undefined);
  if (info && !info.isDirectory) {
    throw usageError(`${out} is a file`, "Several objects go into a directory: name one with --out.");
  }
  await Deno.mkdir(dir, { recursive: true });
  return dir + path.sep;
}

/** Downloads several objects of a bucket into one directory, batch-signed, SHA-1 checked. */
export async function runObjectDownloadMany(opts: DownloadManyOpts, deps: OpsDeps): Promise<DownloadedMany> {
  const dir = await targetDir(deps, opts.out);
  const keys = await keysToDownload(opts, deps);
  const started = performance.now();
  const entries: BatchDownloadEntry[] = [];
  const outcomes = new Map<string, DownloadOutcome>();
  const failure = (objectKey: string, file: string, e: unknown): DownloadOutcome => ({
    status: "failed",
    objectKey,
    file,
    error: e instanceof Error ? e.message : String(e),
    exitCode: isDiazoError(e) ? e.exitCode : 1,
  });
  for (const objectKey of keys) {
    // A key that would land outside the directory is that object's failure, not the batch's.
    try {
      entries.push({ objectKey, target: await downloadTarget(deps.cwd, objectKey, dir) });
    } catch (e) {
      outcomes.set(objectKey, failure(objectKey, "", e));
    }
  }
  const settings = await deps.settings();
  const results = await downloadBatch(await deps.http(), entries, {
    bucketKey: opts.bucketKey,
    concurrency: settings.concurrency,
    overwrite: opts.force,
    resume: opts.resume,
    signal: opts.signal,
    debug: (line) => deps.debug(line),
  });
  entries.forEach((entry, i) => {
    const r = results[i];
    outcomes.set(
      entry.objectKey,
      "ok" in r
        ? { status: "ok", objectKey: entry.objectKey, ...r.ok }
        : failure(entry.objectKey, entry.target, r.error),
    );
  });
  const rows = keys.map((k) => outcomes.get(k)!);
  const failed = rows.filter((o) => o.status === "failed").length;
  const bytes = rows.reduce((s, o) => s + (o.status === "ok" ? o.size : 0), 0);
  const seconds = Math.max((performance.now() - started) / 1000, 0.001);
  const summary = `Downloaded ${rows.length - failed} of ${rows.length} objects (${
    humanBytes(bytes)
  }, SHA-1 verified) to ${dir} in ${seconds.toFixed(1)} s${failed ? `; ${failed} failed` : ""}`;
  return { outcomes: rows, failed, summary };
}
