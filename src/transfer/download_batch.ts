/**
 * Many objects of a bucket downloaded at once: per group of up to 25 keys one
 * `batchsigneds3download` instead of one signing request per object, then each object's bytes
 * through the single-object path (`fetchToFile`: atomic write, the same size and SHA-1 check,
 * broken-stream continuation, `--resume` part files, no overwrite without `--force`). A key the
 * batch refuses is signed on its own, as the single-object download does it; one failure never
 * stops the rest.
 */
import { isInterruption } from "../core/errors.ts";
import type { BucketKey, ObjectKey } from "../aps/ids.ts";
import { createLimiter } from "../core/concurrency.ts";
import { type Downloaded, downloadObject, fetchToFile, sourceOf } from "./download.ts";
import type { Http } from "../http/http.ts";
import { batchDownloadUrls, type DownloadUrl, isBatchError, MAX_BATCH_ITEMS } from "./oss_objects.ts";

/** One object to download and where to. */
export interface BatchDownloadEntry {
  objectKey: ObjectKey;
  /** The file to write (already confined to the target directory by the caller). */
  target: string;
}

/** What happened to one object: written, or failed (with the error the single download would raise). */
export type BatchDownloadResult =
  | { objectKey: ObjectKey; ok: Downloaded }
  | { objectKey: ObjectKey; error: unknown };

/** How a batch is downloaded. */
export interface BatchDownloadOptions {
  bucketKey: BucketKey;
  /** Objects downloading at once. */
  concurrency: number;
  overwrite?: boolean;
  resume?: boolean;
  signal?: AbortSignal;
  debug?: (line: string) => void;
  /** Called as each object ends, in the order they end. */
  onDone?: (r: BatchDownloadResult) => void;
}

/** Signed sources of one group, by key; a refused key (or a failed request) maps to undefined. */
async function signGroup(
  http: Http,
  group: readonly BatchDownloadEntry[],
  o: BatchDownloadOptions,
): Promise<Map<string, DownloadUrl | undefined>> {
  const keys = group.map((e) => e.objectKey);
  const out = new Map<string, DownloadUrl | undefined>();
  try {
    const results = await batchDownloadUrls(http, o.bucketKey, keys, { signal: o.signal });
    for (const key of keys) {
      const item = results[key];
      if (isBatchError(item)) {
        o.debug?.(`batch: ${key}: no download URL (${item?.reason ?? "missing"}); signing it alone`);
      }
      out.set(key, isBatchError(item) ? undefined : item);
    }
  } catch (e) {
    if (isInterruption(e)) throw e;
    o.debug?.(`batch: signing ${keys.length} downloads failed (${(e as Error).message}); signing each alone`);
    for (const key of keys) out.set(key, undefined);
  }
  return out;
}

/**
 * Downloads `entries`: groups of MAX_BATCH_ITEMS signed in one request each (the next group signed
 * while the previous one's bytes flow), at most `concurrency` objects at once. One result per
 * entry, in order.
 */
export async function downloadBatch(
  http: Http,
  entries: readonly BatchDownloadEntry[],
  o: BatchDownloadOptions,
): Promise<BatchDownloadResult[]> {
  const limiter = createLimiter(o.concurrency);
  const common = { overwrite: o.overwrite, resume: o.resume, signal: o.signal, debug: o.debug };
  const one = async (
    entry: BatchDownloadEntry,
    signed: DownloadUrl | undefined,
  ): Promise<BatchDownloadResult> => {
    const { objectKey, target } = entry;
    try {
      const ok = signed
        ? await fetchToFile(http, {
          ...common,
          target,
          ...sourceOf(`${o.bucketKey}/${objectKey}`, objectKey, signed),
        })
        : await downloadObject(http, { ...common, target, bucketKey: o.bucketKey, objectKey });
      return { objectKey, ok };
    } catch (error) {
      if (isInterruption(error)) throw error;
      return { objectKey, error };
    }
  };
  const pending: Promise<BatchDownloadResult>[] = [];
  for (let at = 0; at < entries.length; at += MAX_BATCH_ITEMS) {
    const group = entries.slice(at, at + MAX_BATCH_ITEMS);
    const signed = await signGroup(http, group, o);
    for (const entry of group) {
      pending.push(limiter.run(async () => {
        const r = await one(entry, signed.get(entry.objectKey));
        o.onDone?.(r);
        return r;
      }));
    }
  }
  return await Promise.all(pending);
}
