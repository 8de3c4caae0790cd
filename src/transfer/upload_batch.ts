/** Many files (or directories) uploaded with one concurrency limit; one failure never stops the rest. */
import path from "node:path";
import { DiazoError, isDiazoError } from "../core/errors.ts";
import { type ObjectKey, parseObjectKey } from "../aps/ids.ts";
import { createLimiter, mapSettled } from "../core/concurrency.ts";
import type { Http } from "../http/http.ts";
import { MAX_BATCH_ITEMS } from "./oss_objects.ts";
import { TINY_FANOUT, uploadGroup } from "./upload_batch_signed.ts";
import {
  createBufferPool,
  DEFAULT_PART_SIZE,
  uploadFile,
  type UploadOptions,
  type UploadResult,
} from "./upload.ts";

/** One file to upload and the key it gets. */
export interface BatchEntry {
  /** The file as the user named it (relative names stay relative in the outcomes). */
  file: string;
  /** Where it is read from. */
  path: string;
  objectKey: ObjectKey;
  size: number;
}

/** The outcome of one file of a batch. */
export type BatchOutcome =
  | ({ file: string; status: "ok" } & UploadResult)
  | { file: string; objectKey: string; status: "failed"; error: string; exitCode: number };

/** Joins a key prefix and a relative path with `/`, whatever the OS separator: a file's object key. */
export function batchKey(prefix: string, relative: string): ObjectKey {
  return parseObjectKey(prefix + relative.split(path.sep).join("/"));
}

/**
 * The files named by `inputs` (relative to `cwd`): files as themselves (key = prefix + file name),
 * directories walked recursively (key = prefix + path inside the directory). Missing inputs are
 * returned as such.
 */
export async function expandInputs(
  inputs: readonly string[],
  prefix = "",
  cwd = "",
): Promise<{ entries: BatchEntry[]; missing: string[] }> {
  const entries: BatchEntry[] = [];
  const missing: string[] = [];
  for (const input of inputs) {
    const at = path.resolve(cwd, input);
    const info = await Deno.stat(at).catch(() => undefined);
    if (!info) missing.push(input);
    else if (info.isDirectory) {
      for (const rel of (await walk(at)).sort()) {
        const file = path.join(at, rel);
        entries.push({
          file: path.join(input, rel),
          path: file,
          objectKey: batchKey(prefix, rel),
          size: (await Deno.stat(file)).size,
        });
      }
    } else {
      entries.push({
        file: input,
        path: at,
        objectKey: batchKey(prefix, path.basename(input)),
        size: info.size,
      });
    }
  }
  return { entries, missing };
}

async function walk(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(path.join(dir, rel))) {
    const child = rel ? path.join(rel, e.name) : e.name;
    if (e.isDirectory) out.push(...await walk(dir, child));
    else if (e.isFile) out.push(child);
  }
  return out;
}

/** Groups of batch operations in flight at once: signing and completing one while another's PUTs run. */
const GROUPS_IN_FLIGHT = 4;

/**
 * Uploads every entry: files small enough for one part in groups of 25 through the batch operations
 * (a file the batch could not carry falls back to the single-file flow), larger files one by one
 * through the multipart flow; PUTs and buffers under one shared limit.
 */
export async function uploadBatch(
  http: Http,
  entries: readonly BatchEntry[],
  opts: Omit<UploadOptions, "file" | "objectKey" | "onProgress" | "limiter" | "pool"> & {
    onFileDone?: (outcome: BatchOutcome) => void;
    onBytes?: (n: number) => void;
  },
): Promise<BatchOutcome[]> {
  const limiter = createLimiter(opts.concurrency);
  const tinyLimiter = createLimiter(opts.concurrency * TINY_FANOUT);
  const partSize = opts.partSize ?? DEFAULT_PART_SIZE;
  const pool = createBufferPool(opts.concurrency + 1, partSize);
  const done = (outcome: BatchOutcome): BatchOutcome => {
    opts.onFileDone?.(outcome);
    return outcome;
  };
  const single = (entry: BatchEntry): Promise<BatchOutcome> => {
    let reported = 0;
    return uploadFile(http, {
      ...opts,
      file: entry.path,
      objectKey: entry.objectKey,
      limiter,
      pool,
      onProgress: (n) => {
        opts.onBytes?.(n - reported);
        reported = n;
      },
    }).then((result) => done({ file: entry.file, status: "ok", ...result }), (e) => done(failure(entry, e)));
  };
  const small = entries.filter((e) => e.size <= partSize);
  const large = entries.filter((e) => e.size > partSize);
  const groups = Array.from(
    { length: Math.ceil(small.length / MAX_BATCH_ITEMS) },
    (_, i) => small.slice(i * MAX_BATCH_ITEMS, (i + 1) * MAX_BATCH_ITEMS),
  );
  const byEntry = new Map<BatchEntry, BatchOutcome>();
  const [grouped, alone] = await Promise.all([
    mapSettled(groups, GROUPS_IN_FLIGHT, async (group) => {
      const results = await uploadGroup(http, group, { ...opts, limiter, tinyLimiter, partSize });
      await Promise.all(group.map(async (entry, i) => {
        const r = results[i];
        byEntry.set(
          entry,
          r.kind === "ok"
            ? done({ file: entry.file, status: "ok", ...r.result })
            : r.kind === "failed"
            ? done(failure(entry, r.error))
            : await single(entry),
        );
      }));
    }),
    mapSettled(large, opts.concurrency, async (entry) => byEntry.set(entry, await single(entry))),
  ]);
  for (const s of [...grouped, ...alone]) if (s.status === "rejected") throw s.reason;
  return entries.map((e) => byEntry.get(e)!);
}

/** A file's failed outcome; an interruption is no file's failure and stops the batch. */
function failure(entry: BatchEntry, e: unknown): BatchOutcome {
  if (isDiazoError(e) && e.code === "interrupted") throw e;
  return {
    file: entry.file,
    objectKey: entry.objectKey,
    status: "failed",
    error: e instanceof Error ? e.message : String(e),
    exitCode: isDiazoError(e) ? e.exitCode : 1,
  };
}

/** The outcome for an input that does not exist. */
export function missingOutcome(file: string): BatchOutcome {
  const e = new DiazoError("file_not_found", { params: { file } });
  return { file, objectKey: "", status: "failed", error: e.message, exitCode: e.exitCode };
}
