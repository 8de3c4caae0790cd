/**
 * Streams a remote file to disk: into a temp file beside the target, hashed on the way, checked
 * against the expected size and SHA-1, then renamed into place — never a half-written target.
 */
import path from "node:path";
import { DiazoError, usageError } from "../core/errors.ts";
import type { Http } from "./http.ts";
import type { BucketKey, ObjectKey } from "../aps/ids.ts";
import { safeJoin } from "../core/paths.ts";
import { getDownloadUrl } from "./oss_objects.ts";
import { startTailHash } from "./tail_hash.ts";

/** How often a download that broke off mid-stream is started again. */
const STREAM_ROUNDS = 3;

/** A finished download. */
export interface Downloaded {
  file: string;
  size: number;
  sha1: string;
}

/** What to fetch and what the bytes must match. */
export interface FetchToFileOptions {
  /** Absolute URL (signed: no bearer is sent) or ranges of one file in order. */
  urls: string[];
  target: string;
  expectedSize?: number;
  expectedSha1?: string;
  /** Extra request headers (e.g. signed cookies). */
  headers?: Record<string, string>;
  /** Name used in messages. */
  label: string;
  overwrite?: boolean;
  onProgress?: (done: number, total: number | undefined) => void;
  signal?: AbortSignal;
  debug?: (line: string) => void;
}

/** Downloads `urls` (concatenated) into `target` atomically, checking size and SHA-1. */
export async function fetchToFile(http: Http, o: FetchToFileOptions): Promise<Downloaded> {
  if (!o.overwrite) {
    const exists = await Deno.lstat(o.target).then(() => true, () => false);
    if (exists) {
      throw usageError(`${o.target} already exists`, "Pass --force to overwrite it, or choose another -o.");
    }
  }
  const dir = path.dirname(o.target);
  await Deno.mkdir(dir, { recursive: true });
  for (let round = 1;; round++) {
    const tmp = path.join(dir, `.${path.basename(o.target)}.${crypto.randomUUID().slice(0, 8)}.part`);
    try {
      const got = await streamOnce(http, o, tmp);
      if (o.expectedSize !== undefined && got.size !== o.expectedSize) {
        throw new DiazoError("integrity_mismatch", {
          params: {
            key: o.label,
            local: `${got.sha1} (${got.size} bytes)`,
            remote: `? (${o.expectedSize} bytes)`,
          },
        });
      }
      if (o.expectedSha1 && o.expectedSha1.toLowerCase() !== got.sha1) {
        throw new DiazoError("integrity_mismatch", {
          params: { key: o.label, local: got.sha1, remote: o.expectedSha1 },
        });
      }
      await Deno.rename(tmp, o.target);
      return { file: o.target, size: got.size, sha1: got.sha1 };
    } catch (e) {
      await Deno.remove(tmp).catch(() => {});
      if (!isBrokenStream(e)) throw e;
      const why = e.brokenStream instanceof Error ? e.brokenStream.message : String(e.brokenStream);
      if (round >= STREAM_ROUNDS) {
        throw new DiazoError("network", { params: { host: new URL(o.urls[0]).host }, cause: e.brokenStream });
      }
      o.debug?.(`download of ${o.label} broke off (${why}); starting again`);
    }
  }
}

/** A stream that failed after its headers arrived: worth one more try from the start. */
interface BrokenStream {
  brokenStream: unknown;
}

function isBrokenStream(e: unknown): e is BrokenStream {
  return typeof e === "object" && e !== null && "brokenStream" in e;
}

async function streamOnce(
  http: Http,
  o: FetchToFileOptions,
  tmp: string,
): Promise<{ size: number; sha1: string }> {
  const file = await Deno.open(tmp, { write: true, createNew: true });
  let closed = false;
  // The file is hashed as it grows, behind the writer, so that hashing overlaps the transfer.
  const tail = startTailHash(tmp);
  // Progress comes from the file's size: the bytes then flow from socket to file without
  // passing through JavaScript, which is about twice as fast as reading them chunk by chunk.
  const progress = o.onProgress
    ? setInterval(() => {
      Deno.stat(tmp).then((i) => o.onProgress?.(i.size, o.expectedSize), () => {});
    }, 200)
    : undefined;
  try {
    for (const [i, url] of o.urls.entries()) {
      const res = await http.request<ReadableStream<Uint8Array>>({
        path: url,
        auth: "none",
        headers: o.headers,
        responseType: "stream",
        signal: o.signal,
      });
      const last = i === o.urls.length - 1;
      try {
        await res.data.pipeTo(file.writable, { preventClose: !last, signal: o.signal });
        if (last) closed = true;
      } catch (e) {
        if (o.signal?.aborted) throw new DiazoError("interrupted", { cause: e });
        throw { brokenStream: e } satisfies BrokenStream;
      }
    }
  } catch (e) {
    tail.abandon();
    throw e;
  } finally {
    clearInterval(progress);
    if (!closed) {
      try {
        file.close();
      } catch { /* closed by a failed pipe */ }
    }
  }
  const digest = await tail.finish();
  o.onProgress?.(digest.size, o.expectedSize);
  return digest;
}

/** Downloads an object through its signed S3 URL(s) into `target`, checking size and SHA-1. */
export async function downloadObject(
  http: Http,
  o: Omit<FetchToFileOptions, "urls" | "label" | "expectedSize" | "expectedSha1"> & {
    bucketKey: BucketKey;
    objectKey: ObjectKey;
  },
): Promise<Downloaded> {
  const signed = await getDownloadUrl(http, o.bucketKey, o.objectKey, { signal: o.signal });
  const urls = signed.url ? [signed.url] : orderedRanges(signed.urls ?? {});
  if (urls.length === 0) {
    throw usageError(
      `the platform gave no download URL for ${o.objectKey}`,
      "Retry; `--debug` shows its answer.",
    );
  }
  return await fetchToFile(http, {
    ...o,
    urls,
    label: `${o.bucketKey}/${o.objectKey}`,
    expectedSize: signed.size,
    expectedSha1: signed.sha1,
  });
}

/** The URLs of a `chunked` answer (keyed "start-end") in byte order. */
export function orderedRanges(urls: Record<string, string>): string[] {
  return Object.entries(urls)
    .map(([range, url]) => ({ start: Number(range.split("-")[0]), url }))
    .sort((a, b) => a.start - b.start)
    .map((r) => r.url);
}

/**
 * Where `object download` writes `objectKey`: `out` itself when it names a file, else under `out`
 * (an existing directory or a path ending in a separator) or the working directory — never outside.
 */
export async function downloadTarget(cwd: string, objectKey: string, out?: string): Promise<string> {
  if (out === undefined) return safeJoin(cwd, objectKey);
  const abs = path.resolve(cwd, out);
  const isDir = /[\\/]$/.test(out) || (await Deno.stat(abs).then((i) => i.isDirectory, () => false));
  return isDir ? safeJoin(abs, objectKey) : abs;
}
