/**
 * Streams a remote file to disk: into a part file beside the target, hashed on the way, checked
 * against the expected size and SHA-1, then renamed into place — never a half-written target.
 * The part file has a fixed name and a small description beside it (size and SHA-1 it is for), so
 * that a later run can go on from where a killed one stopped with an HTTP Range request; it is
 * removed on failure and on Ctrl-C unless the caller asked to resume.
 */
import path from "node:path";
import { DiazoError, usageError } from "../core/errors.ts";
import type { Http } from "../http/http.ts";
import type { BucketKey, ObjectKey } from "../aps/ids.ts";
import { hexOf } from "../core/bytes.ts";
import { type DownloadUrl, getDownloadUrl } from "./oss_objects.ts";
import { drainInto, sha1Of } from "./download_drain.ts";
import type { Hash } from "node:crypto";
import type { BodyReader } from "../http/stream_body.ts";

/** How often a download that broke off mid-stream is continued (or started again). */
const STREAM_ROUNDS = 3;

/** A finished download. */
export interface Downloaded {
  file: string;
  size: number;
  sha1: string;
  /** Bytes taken from a part file of an earlier run instead of being fetched again. */
  resumedBytes?: number;
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
  /** Keep the part file when interrupted or failing, for a later run to go on from. */
  resume?: boolean;
  onProgress?: (done: number, total: number | undefined) => void;
  signal?: AbortSignal;
  debug?: (line: string) => void;
}

/** What a part file is for: a later run goes on from it only when the remote object is the same. */
interface PartMeta {
  size?: number;
  sha1?: string;
}

/** The part file of `target` and its description. */
function partFiles(target: string): { part: string; meta: string } {
  const part = path.join(path.dirname(target), `.${path.basename(target)}.diazo.part`);
  return { part, meta: `${part}.json` };
}

/**
 * Bytes of an earlier part file to go on from: its length when it was written for the same
 * remote object (size and SHA-1) and fits in it; else 0 and the stale file removed.
 */
async function resumableBytes(o: FetchToFileOptions, part: string, meta: string): Promise<number> {
  const info = await Deno.stat(part).catch(() => undefined);
  if (!info) return 0;
  const was = await Deno.readTextFile(meta).then((t) => JSON.parse(t) as PartMeta, () => undefined);
  const same = was !== undefined && o.urls.length === 1 && o.expectedSize !== undefined &&
    was.size === o.expectedSize && (was.sha1 ?? "") === (o.expectedSha1 ?? "") && info.size <= o.expectedSize;
  if (same) return info.size;
  o.debug?.(`download of ${o.label}: the part file ${part} is for another object; starting over`);
  await removePart(part, meta);
  return 0;
}

function removePart(part: string, meta: string): Promise<unknown> {
  return Promise.all([Deno.remove(part).catch(() => {}), Deno.remove(meta).catch(() => {})]);
}

/** Downloads `urls` (concatenated) into `target` atomically, checking size and SHA-1. */
export async function fetchToFile(http: Http, o: FetchToFileOptions): Promise<Downloaded> {
  if (!o.overwrite) {
    const exists = await Deno.lstat(o.target).then(() => true, () => false);
    if (exists) {
      throw usageError(
        `${o.target} already exists`,
        "Pass --force to overwrite it, or another destination with --out.",
      );
    }
  }
  await Deno.mkdir(path.dirname(o.target), { recursive: true });
  const { part, meta } = partFiles(o.target);
  const resumed = await resumableBytes(o, part, meta);
  if (resumed > 0) o.debug?.(`download of ${o.label}: going on from ${resumed} bytes of ${part}`);
  await Deno.writeTextFile(
    meta,
    JSON.stringify({ size: o.expectedSize, sha1: o.expectedSha1 } satisfies PartMeta),
  );
  let keep = false;
  try {
    for (let round = 1;; round++) {
      try {
        const got = await streamOnce(http, o, part, round === 1 ? resumed : undefined);
        if (o.urls.length === 1 && o.expectedSize !== undefined && got.size < o.expectedSize) {
          // A body that ended early without an error (a connection closed before its Content-Length)
          // is a cut stream too: go on from the part file rather than fail the integrity check.
          throw { brokenStream: new Error(`the body ended after ${got.size} of ${o.expectedSize} bytes`) };
        }
        checkIntegrity(o, got);
        await Deno.rename(part, o.target);
        await Deno.remove(meta).catch(() => {});
        return { file: o.target, ...got, ...(resumed > 0 ? { resumedBytes: resumed } : {}) };
      } catch (e) {
        if (!isBrokenStream(e)) {
          // Bytes that failed the check are never worth keeping; an interruption or error are, when asked.
          keep = Boolean(o.resume) && !(e instanceof DiazoError && e.code === "integrity_mismatch");
          // Ctrl-C's hint says what became of the part file, so that "run it again" is true.
          if (e instanceof DiazoError && e.code === "interrupted") {
            throw new DiazoError(keep ? "interrupted_part_kept" : "interrupted_part_removed", { cause: e });
          }
          throw e;
        }
        const why = e.brokenStream instanceof Error ? e.brokenStream.message : String(e.brokenStream);
        if (round >= STREAM_ROUNDS) {
          keep = Boolean(o.resume);
          throw new DiazoError("network", {
            params: { host: new URL(o.urls[0]).host },
            cause: e.brokenStream,
          });
        }
        o.debug?.(`download of ${o.label} broke off (${why}); going on`);
      }
    }
  } finally {
    if (!keep) await removePart(part, meta);
  }
}

function checkIntegrity(o: FetchToFileOptions, got: { size: number; sha1: string }): void {
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
}

/** A stream that failed after its headers arrived: worth going on with. */
interface BrokenStream {
  brokenStream: unknown;
}

function isBrokenStream(e: unknown): e is BrokenStream {
  return typeof e === "object" && e !== null && "brokenStream" in e;
}

/**
 * Objects up to this size are asked for whole and hashed in memory by WebCrypto: a run that only
 * fetches small files then never loads node:crypto (its incremental hash, for streams).
 */
export const SMALL_OBJECT = 1024 * 1024;

/** The SHA-1 of bytes in memory, in hex (by WebCrypto: node:crypto costs a run ~15 ms to load). */
async function sha1Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return hexOf(await crypto.subtle.digest("SHA-1", bytes));
}

/**
 * One small object's bytes into `part`, hashed in memory. It is asked for whole, so it goes by the
 * raw transport (no `fetch` to load) and is retried as one request when it breaks off.
 */
async function fetchSmall(
  http: Http,
  o: FetchToFileOptions,
  part: string,
): Promise<{ size: number; sha1: string }> {
  const { data: bytes } = await http.request<Uint8Array<ArrayBuffer>>({
    path: o.urls[0],
    auth: "none",
    headers: o.headers,
    responseType: "bytes",
    signal: o.signal,
  });
  await Deno.writeFile(part, bytes);
  o.onProgress?.(bytes.length, o.expectedSize);
  return { size: bytes.length, sha1: await sha1Hex(bytes) };
}

/**
 * One pass over the URLs into `part`. `from` is where to go on from (undefined: the part file's
 * length when there is one URL); a server that ignores the Range header gets the file rewritten.
 */
async function streamOnce(
  http: Http,
  o: FetchToFileOptions,
  part: string,
  from?: number,
): Promise<{ size: number; sha1: string }> {
  let offset = from ?? (o.urls.length === 1 ? (await Deno.stat(part).catch(() => undefined))?.size ?? 0 : 0);
  const complete = offset > 0 && offset === o.expectedSize;
  let first: BodyReader | undefined;
  if (offset > 0 && !complete) {
    const res = await http.request<BodyReader>({
      path: o.urls[0],
      auth: "none",
      headers: { ...o.headers, range: `bytes=${offset}-` },
      responseType: "stream",
      signal: o.signal,
    });
    first = res.data;
    if (
      res.status !== 206 || !(res.headers.get("content-range") ?? "").startsWith(`bytes ${offset}-`)
    ) {
      offset = 0;
    }
  }
  if (offset === 0 && o.urls.length === 1 && (o.expectedSize ?? Infinity) <= SMALL_OBJECT) {
    return await fetchSmall(http, o, part);
  }
  const file = await Deno.open(part, {
    write: true,
    create: true,
    append: offset > 0,
    truncate: offset === 0,
  });
  try {
    // The bytes kept from an earlier run are hashed first, the rest as they arrive. node:crypto
    // (~15 ms) loads once the first request is sent, while the server starts answering it.
    let hashing: Promise<Hash> | undefined;
    const hasher = () => hashing ??= sha1Of(offset > 0 ? part : undefined, offset);
    const written = { size: offset, lastShown: 0 };
    const urls = complete ? [] : o.urls;
    for (const [i, url] of urls.entries()) {
      const body = i === 0 && first ? first : (await http.request<BodyReader>({
        path: url,
        auth: "none",
        headers: o.headers,
        responseType: "stream",
        signal: o.signal,
      })).data;
      const hash = await hasher().catch(async (e) => {
        await body.cancel().catch(() => {});
        throw e;
      });
      try {
        await drainInto(body, file, hash, written, o);
      } catch (e) {
        if (o.signal?.aborted) throw new DiazoError("interrupted", { cause: e });
        throw { brokenStream: e } satisfies BrokenStream;
      }
    }
    o.onProgress?.(written.size, o.expectedSize);
    return { size: written.size, sha1: (await hasher()).digest("hex") };
  } finally {
    file.close();
  }
}

/** Where an object's bytes are and what they must be, from a signed S3 download answer (one or batched). */
export function sourceOf(
  label: string,
  objectKey: string,
  signed: DownloadUrl,
): Pick<FetchToFileOptions, "urls" | "label" | "expectedSize" | "expectedSha1"> {
  const urls = signed.url ? [signed.url] : orderedRanges(signed.urls ?? {});
  if (urls.length === 0) {
    throw usageError(
      `the platform gave no download URL for ${objectKey}`,
      "Retry; `--debug` shows its answer.",
    );
  }
  return { urls, label, expectedSize: signed.size, expectedSha1: signed.sha1 };
}

/** Where an object is and what its bytes must be, from its signed S3 download answer. */
async function signedSource(
  http: Http,
  o: { bucketKey: BucketKey; objectKey: ObjectKey; signal?: AbortSignal },
): Promise<Pick<FetchToFileOptions, "urls" | "label" | "expectedSize" | "expectedSha1">> {
  const signed = await getDownloadUrl(http, o.bucketKey, o.objectKey, { signal: o.signal });
  return sourceOf(`${o.bucketKey}/${o.objectKey}`, o.objectKey, signed);
}

/** Downloads an object through its signed S3 URL(s) into `target`, checking size and SHA-1. */
export async function downloadObject(
  http: Http,
  o: Omit<FetchToFileOptions, "urls" | "label" | "expectedSize" | "expectedSha1"> & {
    bucketKey: BucketKey;
    objectKey: ObjectKey;
  },
): Promise<Downloaded> {
  return await fetchToFile(http, { ...o, ...(await signedSource(http, o)) });
}

/**
 * Streams an object to `out` (standard output), hashing on the way; the size and SHA-1 are checked
 * at the end — bytes already written cannot be taken back, so a mismatch is an error after them.
 * `out.write` must be done with the bytes when it returns: the buffer is read into again.
 */
export async function downloadObjectTo(
  http: Http,
  out: { write(bytes: Uint8Array): void },
  o: { bucketKey: BucketKey; objectKey: ObjectKey; signal?: AbortSignal },
): Promise<{ size: number; sha1: string }> {
  const src = await signedSource(http, o);
  const sink = { writeSync: (bytes: Uint8Array) => (out.write(bytes), bytes.length) };
  let hashing: Promise<Hash> | undefined;
  const written = { size: 0, lastShown: 0 };
  for (const url of src.urls) {
    const res = await http.request<BodyReader>({
      path: url,
      auth: "none",
      responseType: "stream",
      signal: o.signal,
    });
    const hash = await (hashing ??= sha1Of(undefined, 0));
    try {
      await drainInto(res.data, sink, hash, written, {});
    } catch (e) {
      if (o.signal?.aborted) throw new DiazoError("interrupted", { cause: e });
      throw new DiazoError("network", { params: { host: new URL(url).host }, cause: e });
    }
  }
  const got = { size: written.size, sha1: (await (hashing ??= sha1Of(undefined, 0))).digest("hex") };
  checkIntegrity({ ...src, target: "-" }, got);
  return got;
}

/** The URLs of a `chunked` answer (keyed "start-end") in byte order. */
export function orderedRanges(urls: Record<string, string>): string[] {
  return Object.entries(urls)
    .map(([range, url]) => ({ start: Number(range.split("-")[0]), url }))
    .sort((a, b) => a.start - b.start)
    .map((r) => r.url);
}
