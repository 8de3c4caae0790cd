/** Many files (or directories) uploaded with one concurrency limit; one failure never stops the rest. */
import path from "node:path";
import { DiazoError, isDiazoError } from "../core/errors.ts";
import { type ObjectKey, parseObjectKey } from "../aps/ids.ts";
import { createLimiter, mapSettled } from "./concurrency.ts";
import type { Http } from "./http.ts";
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

/** Uploads every entry: files in parallel, their parts and buffers under one shared limit. */
export async function uploadBatch(
  http: Http,
  entries: readonly BatchEntry[],
  opts: Omit<UploadOptions, "file" | "objectKey" | "onProgress" | "limiter" | "pool"> & {
    onFileDone?: (outcome: BatchOutcome) => void;
    onBytes?: (n: number) => void;
  },
): Promise<BatchOutcome[]> {
  const limiter = createLimiter(opts.concurrency);
  const pool = createBufferPool(opts.concurrency + 1, opts.partSize ?? DEFAULT_PART_SIZE);
  const settled = await mapSettled(entries, opts.concurrency, async (entry) => {
    let reported = 0;
    const result = await uploadFile(http, {
      ...opts,
      file: entry.path,
      objectKey: entry.objectKey,
      limiter,
      pool,
      onProgress: (done) => {
        opts.onBytes?.(done - reported);
        reported = done;
      },
    });
    const outcome: BatchOutcome = { file: entry.file, status: "ok", ...result };
    opts.onFileDone?.(outcome);
    return outcome;
  });
  return settled.map((s, i) => {
    if (s.status === "fulfilled") return s.value;
    const e = s.reason;
    if (isDiazoError(e) && e.code === "interrupted") throw e;
    const outcome: BatchOutcome = {
      file: entries[i].file,
      objectKey: entries[i].objectKey,
      status: "failed",
      error: e instanceof Error ? e.message : String(e),
      exitCode: isDiazoError(e) ? e.exitCode : 1,
    };
    opts.onFileDone?.(outcome);
    return outcome;
  });
}

/** The outcome for an input that does not exist. */
export function missingOutcome(file: string): BatchOutcome {
  const e = new DiazoError("file_not_found", { params: { file } });
  return { file, objectKey: "", status: "failed", error: e.message, exitCode: e.exitCode };
}
