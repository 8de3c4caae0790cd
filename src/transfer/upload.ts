/**
 * Uploads a file through the platform's signed S3 flow: URLs in batches of 25,
 * parts in parallel with bounded memory, expired URLs refreshed, transient failures retried,
 * progress kept in a resume record, and the SHA-1 computed while reading checked at the end.
 */
import { createHash } from "node:crypto";
import { DiazoError, usageError } from "../core/errors.ts";
import { encodeUrn } from "../aps/urn.ts";
import type { BucketKey, ObjectKey, Urn } from "../aps/ids.ts";
import { createLimiter, type Limiter } from "../core/concurrency.ts";
import type { Http } from "../http/http.ts";
import { getUploadUrls, MAX_URLS_PER_REQUEST, type ObjectDetails } from "./oss_objects.ts";
import { finishUpload } from "./upload_finish.ts";
import {
  deleteRecord,
  readRecord,
  type UploadIdentity,
  type UploadRecord,
  writeRecord,
} from "./upload_state.ts";

const MiB = 1024 * 1024;
/** The platform's smallest part (all but the last). */
export const MIN_PART_SIZE = 5 * MiB;
/** Default part size: large enough for few requests, small enough to keep memory flat. */
export const DEFAULT_PART_SIZE = 8 * MiB;
/** Largest part diazo sends. */
export const MAX_PART_SIZE = 512 * MiB;
/** S3's limit of parts per upload. */
export const MAX_PARTS = 10_000;
/** How often a part is tried again after the HTTP client's own retries gave up on a transient error. */
const PART_ROUNDS = 4;
/** How often the URLs of a part may be renewed after storage said they expired. */
const URL_RENEWALS = 3;

/** What to upload and how. */
export interface UploadOptions {
  bucketKey: BucketKey;
  objectKey: ObjectKey;
  file: string;
  /** The file's stat when the caller already took it to check the file (so it is stat'ed once). */
  info?: Deno.FileInfo;
  partSize?: number;
  concurrency: number;
  /** Continue an earlier interrupted upload of the same file when a record exists. */
  resume?: boolean;
  /** Where resume records live. */
  stateDir: string;
  /** Bounds part PUTs across several uploads (a batch); default a limiter of `concurrency`. */
  limiter?: Limiter;
  /** Part buffers shared across several uploads (a batch), bounding memory; default a pool of its own. */
  pool?: BufferPool;
  /** Bytes stored so far (including parts skipped on resume) out of the file size. */
  onProgress?: (done: number, total: number) => void;
  debug?: (line: string) => void;
  signal?: AbortSignal;
}

/** What an upload produced. */
export interface UploadResult extends ObjectDetails {
  sha1: string;
  /** Model Derivative URN (URL-safe base64 of the objectId). */
  urn: Urn;
  parts: number;
  /** Parts found stored by an earlier run and not sent again. */
  partsSkipped: number;
  partSize: number;
}

/** Checks a part size in MiB from the command line and returns bytes. */
export function partSizeBytes(mib: number): number {
  const bytes = Math.round(mib * MiB);
  if (!(bytes >= MIN_PART_SIZE) || bytes > MAX_PART_SIZE) {
    throw usageError(
      `--part-size ${mib} is outside ${MIN_PART_SIZE / MiB}-${MAX_PART_SIZE / MiB} MiB`,
      `The platform needs parts of at least ${
        MIN_PART_SIZE / MiB
      } MiB (except the last); e.g. --part-size 16.`,
    );
  }
  return bytes;
}

/** The part size to use for a file: the requested one, grown when the file would need too many parts. */
export function choosePartSize(size: number, requested = DEFAULT_PART_SIZE): number {
  const needed = Math.ceil(size / MAX_PARTS);
  return needed <= requested ? requested : Math.ceil(needed / MiB) * MiB;
}

/** Number of parts of a file (an empty file is one empty part). */
export function partCount(size: number, partSize: number): number {
  return Math.max(1, Math.ceil(size / partSize));
}

/** Size of the file at `file`, or the catalog's "File not found"; messages name it `shown` (as the user gave it). */
export async function statFile(file: string, shown = file): Promise<Deno.FileInfo> {
  try {
    const info = await Deno.stat(file);
    if (!info.isFile) {
      throw usageError(
        `${shown} is ${info.isDirectory ? "a directory" : "not a regular file"}`,
        info.isDirectory ? "Upload a directory with --batch." : "Pass a regular file.",
      );
    }
    return info;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new DiazoError("file_not_found", { params: { file: shown } });
    }
    throw e;
  }
}

/** Uploads one file as one object. */
export async function uploadFile(http: Http, opts: UploadOptions): Promise<UploadResult> {
  // long: one upload's state (resume record, part queue, signed URLs, hash) is shared by its retries and renewals
  const info = opts.info ?? await statFile(opts.file);
  const size = info.size;
  const identity: UploadIdentity = {
    baseUrl: http.baseUrl,
    bucketKey: opts.bucketKey,
    objectKey: opts.objectKey,
    size,
    mtimeMs: info.mtime?.getTime() ?? 0,
  };
  let record = opts.resume ? await readRecord(opts.stateDir, identity) : undefined;
  if (opts.resume && !record) opts.debug?.("resume: no record of an earlier upload; starting a new one");
  const partSize = record?.partSize ?? choosePartSize(size, opts.partSize);
  const total = partCount(size, partSize);
  if (total > MAX_PARTS) {
    throw usageError(`the file needs ${total} parts (at most ${MAX_PARTS})`, "Use a larger --part-size.");
  }

  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  const urls = createUrlSource(http, opts, signal);
  if (record) {
    try {
      await urls.prime(record.uploadKey, firstMissing(record, total));
    } catch (e) {
      if (!(e instanceof DiazoError) || (e.status !== 400 && e.status !== 404)) throw e;
      opts.debug?.(`resume: the platform no longer knows upload ${record.uploadKey}; starting over`);
      record = undefined;
    }
  }
  const rec: UploadRecord = record ?? {
    ...identity,
    file: opts.file,
    partSize,
    uploadKey: "",
    parts: {},
    updatedAt: new Date().toISOString(),
  };
  const skipped = Object.keys(rec.parts).length;
  if (skipped > 0) opts.debug?.(`resume: ${skipped} of ${total} parts already stored`);
  const saver = createSaver(opts.stateDir, rec);

  let done = 0;
  const progress = (n: number) => {
    done += n;
    opts.onProgress?.(done, size);
  };
  const limiter = opts.limiter ?? createLimiter(opts.concurrency);
  const hash = createHash("sha1");
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  const file = await Deno.open(opts.file, { read: true });
  try {
    // One slot more than the uploads in flight, so the next part is read while others upload.
    const pool = opts.pool && opts.pool.size >= Math.min(partSize, size)
      ? opts.pool
      : createBufferPool(Math.min(opts.concurrency, total) + 1, Math.min(partSize, Math.max(size, 1)));
    for (let part = 1; part <= total && failure === undefined; part++) {
      const length = Math.min(partSize, size - (part - 1) * partSize);
      const buf = await pool.take();
      if (failure !== undefined) break;
      const bytes = buf.subarray(0, length);
      await readFully(file, bytes);
      hash.update(bytes); // parts are read in order, so the whole file's SHA-1 comes for free
      if (rec.parts[part]) {
        pool.give(buf);
        progress(length);
        continue;
      }
      const task = limiter.run(() => sendPart(http, urls, part, bytes, signal, opts.debug))
        .then(async (eTag) => {
          rec.parts[part] = eTag;
          progress(length);
          await saver.save();
        })
        .catch((e) => {
          failure ??= e;
          stop.abort(e);
        })
        .finally(() => {
          pool.give(buf);
          inFlight.delete(task);
        });
      inFlight.add(task);
    }
    await Promise.all(inFlight);
  } finally {
    file.close();
  }
  await saver.flush();
  if (failure !== undefined) throw failure;

  const uploadKey = rec.uploadKey || urls.uploadKey();
  const eTags = Array.from({ length: total }, (_, i) => rec.parts[i + 1]);
  const sha1 = hash.digest("hex");
  const completed = await finishUpload(http, {
    bucketKey: opts.bucketKey,
    objectKey: opts.objectKey,
    uploadKey,
    size,
    eTags,
    sha1,
    signal: opts.signal,
    debug: opts.debug,
  }).catch(async (e) => {
    // Completed either way: the record of its parts can no longer help a resume.
    if (e instanceof DiazoError && (e.code === "integrity_mismatch" || e.code === "conflict")) {
      await deleteRecord(opts.stateDir, identity);
    }
    throw e;
  });
  await deleteRecord(opts.stateDir, identity);
  return {
    ...completed,
    bucketKey: completed.bucketKey ?? opts.bucketKey,
    objectKey: completed.objectKey ?? opts.objectKey,
    size: completed.size ?? size,
    sha1,
    urn: encodeUrn(completed.objectId),
    parts: total,
    partsSkipped: skipped,
    partSize,
  };

  function firstMissing(r: UploadRecord, n: number): number {
    for (let p = 1; p <= n; p++) if (!r.parts[p]) return p;
    return n + 1;
  }

  /** Keeps the record's uploadKey in step with the URL source. */
  function createSaver(stateDir: string, r: UploadRecord) {
    let chain = Promise.resolve();
    return {
      save(): Promise<void> {
        r.uploadKey ||= urls.uploadKey();
        r.updatedAt = new Date().toISOString();
        const snapshot: UploadRecord = { ...r, parts: { ...r.parts } };
        chain = chain.then(() => writeRecord(stateDir, snapshot)).catch((e) => {
          opts.debug?.(`resume: cannot save the record: ${(e as Error).message}`);
        });
        return chain;
      },
      flush: () => chain,
    };
  }

  /** Asks for URLs in batches of up to 25 parts, reusing one uploadKey; renews expired ones. */
  function createUrlSource(h: Http, o: UploadOptions, sig: AbortSignal) {
    let key = "";
    let generation = 0;
    const cache = new Map<number, { url: string; generation: number }>();
    const pending = new Map<number, Promise<void>>();
    const fetchBatch = (first: number): Promise<void> => {
      const existing = pending.get(first);
      if (existing) return existing;
      const parts = Math.min(MAX_URLS_PER_REQUEST, total - first + 1);
      const p = getUploadUrls(h, o.bucketKey, o.objectKey, {
        parts,
        firstPart: first,
        uploadKey: key || undefined,
        signal: sig,
      }).then((res) => {
        key ||= res.uploadKey;
        const gen = ++generation;
        res.urls.slice(0, parts).forEach((url, i) => cache.set(first + i, { url, generation: gen }));
      }).finally(() => pending.delete(first));
      pending.set(first, p);
      return p;
    };
    return {
      uploadKey: () => key,
      async prime(uploadKey: string, first: number) {
        key = uploadKey;
        try {
          if (first <= total) await fetchBatch(first);
        } catch (e) {
          key = "";
          throw e;
        }
      },
      async get(part: number): Promise<{ url: string; generation: number }> {
        for (let i = 0; i < 3; i++) {
          const hit = cache.get(part);
          if (hit) return hit;
          // Someone may already be fetching the batch that holds this part.
          const waiting = [...pending.entries()].find(([first]) =>
            first <= part && part < first + MAX_URLS_PER_REQUEST
          );
          await (waiting ? waiting[1] : fetchBatch(part));
        }
        throw usageError(`no upload URL for part ${part}`, "Retry the upload.");
      },
      async renew(part: number, stale: number): Promise<void> {
        const hit = cache.get(part);
        if (hit && hit.generation !== stale) return; // renewed meanwhile by another part
        for (const [p, entry] of cache) if (entry.generation <= stale) cache.delete(p);
        await fetchBatch(part);
      },
    };
  }
}

type UrlSource = {
  get(part: number): Promise<{ url: string; generation: number }>;
  renew(part: number, stale: number): Promise<void>;
};

async function sendPart(
  http: Http,
  urls: UrlSource,
  part: number,
  bytes: Uint8Array,
  signal: AbortSignal,
  debug?: (line: string) => void,
): Promise<string> {
  let renewals = 0;
  let rounds = 0;
  while (true) {
    const { url, generation } = await urls.get(part);
    try {
      return await putPart(http, url, bytes, signal, `part ${part}`);
    } catch (e) {
      if (!(e instanceof DiazoError)) throw e;
      if (e.status === 403 && renewals < URL_RENEWALS) {
        renewals++;
        debug?.(`part ${part}: storage answered 403 (URL expired); asking for fresh URLs`);
        await urls.renew(part, generation);
        continue;
      }
      if (e.exitCode === 5 && e.code !== "interrupted" && rounds < PART_ROUNDS) {
        rounds++;
        debug?.(`part ${part}: ${e.message}; trying the part again (${rounds}/${PART_ROUNDS})`);
        await new Promise((r) => setTimeout(r, 200 * rounds));
        continue;
      }
      throw e;
    }
  }
}

/** PUTs one part's bytes to its signed storage URL and returns the eTag storage gave it. */
export async function putPart(
  http: Http,
  url: string,
  bytes: Uint8Array,
  signal: AbortSignal | undefined,
  what: string,
): Promise<string> {
  const res = await http.request({
    method: "PUT",
    path: url,
    body: bytes,
    auth: "none",
    transport: "raw",
    responseType: "none",
    signal,
  });
  const eTag = res.headers.get("etag");
  if (!eTag) throw usageError(`storage returned no ETag for ${what}`, "Retry the upload.");
  return eTag;
}

async function readFully(file: Deno.FsFile, into: Uint8Array): Promise<void> {
  let off = 0;
  while (off < into.length) {
    const n = await file.read(into.subarray(off));
    if (n === null) throw usageError("the file shrank while it was being uploaded", "Upload it again.");
    off += n;
  }
}

/** Reusable part buffers; `take` waits while all of them are out. */
export interface BufferPool {
  readonly size: number;
  take(): Promise<Uint8Array>;
  give(b: Uint8Array): void;
}

/** A pool of at most `count` buffers of `size` bytes, allocated on first use. */
export function createBufferPool(count: number, size: number): BufferPool {
  const free: Uint8Array[] = [];
  const waiting: ((b: Uint8Array) => void)[] = [];
  let made = 0;
  return {
    size,
    take() {
      const b = free.pop();
      if (b) return Promise.resolve(b);
      if (made < count) {
        made++;
        return Promise.resolve(new Uint8Array(size));
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    give(b) {
      const w = waiting.shift();
      if (w) w(b);
      else free.push(b);
    },
  };
}
