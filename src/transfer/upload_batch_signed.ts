/**
 * Small files of a batch through the platform's batch operations: per group of up
 * to 25 files, one `batchsigneds3upload`, one PUT per file and one `batchcompleteupload`, instead of
 * two platform round trips per file. Each stored object is checked against its file's SHA-1 as the
 * single-file flow checks it. A file the batch could not carry (a refused item, a failed PUT, a
 * refused completion) is handed back so the caller sends it through the single-file flow, with its
 * retries and resume record.
 */
import { createHash } from "node:crypto";
import { isDiazoError } from "../core/errors.ts";
import { encodeUrn } from "../aps/urn.ts";
import type { BucketKey, ObjectKey } from "../aps/ids.ts";
import type { Limiter } from "../core/concurrency.ts";
import type { Http } from "../http/http.ts";
import { batchCompleteUpload, batchUploadUrls, isBatchError } from "./oss_objects.ts";
import { putPart, type UploadResult } from "./upload.ts";
import { checkStored } from "./upload_finish.ts";

/** A file of a group (what upload_batch.ts `BatchEntry` holds; that module imports this one). */
export interface GroupEntry {
  path: string;
  objectKey: ObjectKey;
  size: number;
}

/**
 * Files this small are PUT TINY_FANOUT times as many at once as larger ones: their cost is the round
 * trip, not the bytes, and the memory they hold stays under 1 MiB × fan-out × concurrency.
 */
export const TINY_FILE = 1024 * 1024;
/** How many tiny-file PUTs run per unit of `--concurrency`. */
export const TINY_FANOUT = 4;

/** What happened to one file of a group: uploaded, failed for good, or left to the single-file flow. */
export type GroupResult =
  | { kind: "ok"; result: UploadResult }
  | { kind: "failed"; error: unknown }
  | { kind: "fallback"; reason: string };

/** How a group is sent. */
export interface GroupOptions {
  bucketKey: BucketKey;
  /** Bounds the PUTs across groups (and the single-file uploads of the same batch). */
  limiter: Limiter;
  /** Bounds the PUTs of tiny files (at most `TINY_FILE` bytes each) across groups. */
  tinyLimiter: Limiter;
  /** The size the objects take as their one part (what the single-file flow would report). */
  partSize: number;
  onBytes?: (n: number) => void;
  debug?: (line: string) => void;
  signal?: AbortSignal;
}

/** A file of the group whose bytes are stored, awaiting completion. */
interface Sent {
  entry: GroupEntry;
  uploadKey: string;
  eTag: string;
  sha1: string;
}

/** Uploads up to 25 single-part files with two platform requests; one result per entry, in order. */
export async function uploadGroup(
  http: Http,
  group: readonly GroupEntry[],
  o: GroupOptions,
): Promise<GroupResult[]> {
  const results = new Map<GroupEntry, GroupResult>();
  const fallback = (entry: GroupEntry, reason: string) => {
    o.debug?.(`batch: ${entry.objectKey}: ${reason}; sending it on its own`);
    results.set(entry, { kind: "fallback", reason });
  };
  const signed = await batchUploadUrls(
    http,
    o.bucketKey,
    group.map((e) => ({ objectKey: e.objectKey, parts: 1 })),
    { signal: o.signal },
  ).catch((e) => {
    if (isDiazoError(e) && e.code === "interrupted") throw e;
    return e instanceof Error ? e : new Error(String(e));
  });
  if (signed instanceof Error) {
    for (const entry of group) fallback(entry, `batch signing failed (${signed.message})`);
    return group.map((e) => results.get(e)!);
  }

  const sent = (await Promise.all(group.map(async (entry): Promise<Sent | undefined> => {
    const item = signed[entry.objectKey];
    if (isBatchError(item) || !item.urls?.[0]) {
      fallback(entry, `no upload URL (${isBatchError(item) ? item?.reason ?? "missing" : "empty"})`);
      return undefined;
    }
    try {
      const limiter = entry.size <= TINY_FILE ? o.tinyLimiter : o.limiter;
      return await limiter.run(() => putFile(http, entry, item.uploadKey, item.urls[0], o));
    } catch (e) {
      if (isDiazoError(e) && e.code === "interrupted") throw e;
      fallback(entry, `storing its bytes failed (${e instanceof Error ? e.message : e})`);
      return undefined;
    }
  }))).filter((s): s is Sent => s !== undefined);

  if (sent.length > 0) await complete(http, sent, o, results, fallback);
  return group.map((e) => results.get(e)!);
}

/** Reads the file whole (it is one part), PUTs it to its signed URL and hashes it on the way. */
async function putFile(
  http: Http,
  entry: GroupEntry,
  uploadKey: string,
  url: string,
  o: GroupOptions,
): Promise<Sent> {
  const bytes = await Deno.readFile(entry.path);
  if (bytes.length !== entry.size) throw new Error("the file changed size while being uploaded");
  const sha1 = createHash("sha1").update(bytes).digest("hex");
  const eTag = await putPart(http, url, bytes, o.signal, entry.objectKey);
  o.onBytes?.(bytes.length);
  return { entry, uploadKey, eTag, sha1 };
}

/** Completes the stored files in one request and checks each object's SHA-1 against its file. */
async function complete(
  http: Http,
  sent: readonly Sent[],
  o: GroupOptions,
  results: Map<GroupEntry, GroupResult>,
  fallback: (entry: GroupEntry, reason: string) => void,
): Promise<void> {
  let done;
  try {
    done = await batchCompleteUpload(
      http,
      o.bucketKey,
      sent.map((s) => ({
        objectKey: s.entry.objectKey,
        uploadKey: s.uploadKey,
        size: s.entry.size,
        eTags: [s.eTag],
      })),
      o.signal,
    );
  } catch (e) {
    if (isDiazoError(e) && e.code === "interrupted") throw e;
    for (const s of sent) fallback(s.entry, `batch completion failed (${(e as Error).message})`);
    return;
  }
  await Promise.all(sent.map(async (s) => {
    const item = done[s.entry.objectKey];
    if (isBatchError(item)) return fallback(s.entry, `completion refused (${item?.reason ?? "missing"})`);
    try {
      const stored = await checkStored(http, { bucketKey: o.bucketKey, ...s.entry, sha1: s.sha1 }, item);
      results.set(s.entry, {
        kind: "ok",
        result: {
          ...stored,
          bucketKey: stored.bucketKey ?? o.bucketKey,
          objectKey: stored.objectKey ?? s.entry.objectKey,
          size: stored.size ?? s.entry.size,
          sha1: s.sha1,
          urn: encodeUrn(stored.objectId),
          parts: 1,
          partsSkipped: 0,
          partSize: o.partSize,
        },
      });
    } catch (e) {
      results.set(s.entry, { kind: "failed", error: e });
    }
  }));
}
