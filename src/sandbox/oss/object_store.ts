/**
 * The sandbox's object store: OSS objects as ordered data files under the data dir (one file when
 * stored whole, the part files of a multipart upload otherwise), never wholly in memory.
 */

import { objectIdOf } from "../../aps/urn.ts";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileRange, objectsDir, removeQuietly, streamToFile } from "./object_files.ts";
import { nowMs } from "../clock.ts";
import type { OssStore, StoredObject } from "./store.ts";

/** Content type of objects stored without one. */
export const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/** The object, or undefined. */
export function findObject(
  oss: OssStore,
  bucketKey: string,
  objectKey: string,
): StoredObject | undefined {
  return oss.objects.get(bucketKey)?.byKey.get(objectKey);
}

/** Makes `obj` the object at its key, removing the data of the one it replaces. */
async function setObject(oss: OssStore, obj: StoredObject): Promise<StoredObject> {
  let bucket = oss.objects.get(obj.bucketKey);
  if (!bucket) oss.objects.set(obj.bucketKey, bucket = { byKey: new Map() });
  const old = bucket.byKey.get(obj.objectKey);
  bucket.byKey.set(obj.objectKey, obj);
  oss.changed?.(obj.bucketKey, obj.objectKey);
  if (old) {
    obj.createdDate = old.createdDate;
    await removeQuietly(join(objectsDir(oss), old.storeId));
  } else if (bucket.sortedKeys) {
    // Kept in order rather than dropped: re-sorting 100,000 keys after each upload is the garbage
    // that grew a busy sandbox's heap.
    bucket.sortedKeys.splice(firstIndexAtLeast(bucket.sortedKeys, obj.objectKey, false), 0, obj.objectKey);
  }
  return obj;
}

function newObject(
  oss: OssStore,
  fields: Pick<
    StoredObject,
    "bucketKey" | "objectKey" | "sha1" | "contentType" | "storeId" | "files" | "fileSizes"
  >,
): StoredObject {
  const now = nowMs(oss.clock);
  return {
    ...fields,
    objectId: objectIdOf(fields.bucketKey, fields.objectKey),
    size: fields.fileSizes.reduce((a, b) => a + b, 0),
    createdDate: now,
    lastModifiedDate: now,
    lastAccessedDate: now,
  };
}

async function newStoreDir(oss: OssStore): Promise<{ storeId: string; dir: string }> {
  const storeId = crypto.randomUUID();
  const dir = join(objectsDir(oss), storeId);
  await Deno.mkdir(dir, { recursive: true });
  return { storeId, dir };
}

/** Stores bytes as an object (replacing any), streaming to disk and computing SHA-1. */
export async function putObject(
  oss: OssStore,
  bucketKey: string,
  objectKey: string,
  body: ReadableStream<Uint8Array> | Uint8Array,
  contentType?: string,
): Promise<StoredObject> {
  const { storeId, dir } = await newStoreDir(oss);
  const file = join(dir, "1");
  const hash = createHash("sha1");
  let size: number;
  try {
    size = await streamToFile(file, body, (chunk) => hash.update(chunk));
  } catch (e) {
    await removeQuietly(dir);
    throw e;
  }
  const sha1 = hash.digest("hex");
  return await setObject(
    oss,
    newObject(oss, {
      bucketKey,
      objectKey,
      sha1,
      contentType: contentType || DEFAULT_CONTENT_TYPE,
      storeId,
      files: [file],
      fileSizes: [size],
    }),
  );
}

/**
 * Makes an object of existing files, moved (not copied) into the store in the order given, whose
 * SHA-1 the caller computed; replaces any object at the key.
 */
export async function adoptFiles(
  oss: OssStore,
  init:
    & Pick<StoredObject, "bucketKey" | "objectKey" | "sha1" | "contentDisposition" | "userDefinedMetadata">
    & {
      contentType?: string;
      files: { path: string; size: number }[];
    },
): Promise<StoredObject> {
  const { storeId, dir } = await newStoreDir(oss);
  const files: string[] = [];
  for (const [i, part] of init.files.entries()) {
    const to = join(dir, String(i + 1));
    await Deno.rename(part.path, to);
    files.push(to);
  }
  const { bucketKey, objectKey, sha1, contentDisposition, userDefinedMetadata } = init;
  const contentType = init.contentType || DEFAULT_CONTENT_TYPE;
  const fileSizes = init.files.map((f) => f.size);
  const obj = newObject(oss, { bucketKey, objectKey, sha1, contentType, storeId, files, fileSizes });
  return await setObject(oss, { ...obj, contentDisposition, userDefinedMetadata });
}

/** Copies an object to another key of its bucket; the data files are shared by hard links. */
export async function copyObject(
  oss: OssStore,
  source: StoredObject,
  newKey: string,
): Promise<StoredObject> {
  if (newKey === source.objectKey) return source;
  const { storeId, dir } = await newStoreDir(oss);
  const files: string[] = [];
  for (const [i, from] of source.files.entries()) {
    const to = join(dir, String(i + 1));
    await Deno.link(from, to).catch(() => Deno.copyFile(from, to));
    files.push(to);
  }
  const { bucketKey, sha1, contentType, fileSizes, contentDisposition, userDefinedMetadata } = source;
  const copy = newObject(oss, { bucketKey, objectKey: newKey, sha1, contentType, storeId, files, fileSizes });
  return await setObject(oss, { ...copy, contentDisposition, userDefinedMetadata });
}

/** Deletes an object and its data; false when there is none. */
export async function deleteObject(
  oss: OssStore,
  bucketKey: string,
  objectKey: string,
): Promise<boolean> {
  const bucket = oss.objects.get(bucketKey);
  const obj = bucket?.byKey.get(objectKey);
  if (!bucket || !obj) return false;
  bucket.byKey.delete(objectKey);
  const at = bucket.sortedKeys ? firstIndexAtLeast(bucket.sortedKeys, objectKey, false) : -1;
  if (at >= 0 && bucket.sortedKeys![at] === objectKey) bucket.sortedKeys!.splice(at, 1);
  oss.changed?.(bucketKey, objectKey);
  await removeQuietly(join(objectsDir(oss), obj.storeId));
  return true;
}

/** Deletes every object of a bucket, data included. */
export async function deleteBucketObjects(oss: OssStore, bucketKey: string): Promise<void> {
  const bucket = oss.objects.get(bucketKey);
  oss.objects.delete(bucketKey);
  for (const key of bucket?.byKey.keys() ?? []) oss.changed?.(bucketKey, key);
  await Promise.all(
    [...bucket?.byKey.values() ?? []].map((o) => removeQuietly(join(objectsDir(oss), o.storeId))),
  );
}

function firstIndexAtLeast(keys: string[], key: string, exclusive: boolean): number {
  let lo = 0, hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key || (exclusive && keys[mid] === key)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * One page of a bucket's objects in key order: those after `startAt` (exclusive) whose key begins
 * with `beginsWith`; `more` tells whether further ones follow.
 */
export function listObjects(
  oss: OssStore,
  bucketKey: string,
  page: { startAt?: string; beginsWith?: string; limit: number },
): { items: StoredObject[]; more: boolean } {
  const bucket = oss.objects.get(bucketKey);
  if (!bucket) return { items: [], more: false };
  const keys = bucket.sortedKeys ??= [...bucket.byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const prefix = page.beginsWith ?? "";
  let i = firstIndexAtLeast(keys, prefix, false);
  if (page.startAt !== undefined) i = Math.max(i, firstIndexAtLeast(keys, page.startAt, true));
  const items: StoredObject[] = [];
  for (; i < keys.length && keys[i].startsWith(prefix); i++) {
    if (items.length === page.limit) return { items, more: true };
    items.push(bucket.byKey.get(keys[i])!);
  }
  return { items, more: false };
}

/** Streams an object's bytes (optionally an inclusive byte range) from disk. */
export function readObject(
  oss: OssStore,
  obj: StoredObject,
  range?: { start: number; end: number },
): ReadableStream<Uint8Array> {
  obj.lastAccessedDate = nowMs(oss.clock);
  const start = Math.max(0, range?.start ?? 0);
  const end = Math.min(obj.size - 1, range?.end ?? obj.size - 1);
  const pieces: { path: string; from: number; to: number }[] = [];
  let offset = 0;
  for (const [i, path] of obj.files.entries()) {
    const first = offset, last = offset + obj.fileSizes[i] - 1;
    offset += obj.fileSizes[i];
    if (last >= start && first <= end) {
      pieces.push({ path, from: Math.max(start, first) - first, to: Math.min(end, last) - first });
    }
  }
  async function* chunks(): AsyncGenerator<Uint8Array> {
    // Every file is opened before the first byte goes out, so that replacing or deleting the
    // object meanwhile cannot cut a read short.
    const files: Deno.FsFile[] = [];
    try {
      for (const p of pieces) files.push(await Deno.open(p.path));
      for (const [i, p] of pieces.entries()) yield* fileRange(files[i], p.from, p.to);
    } finally {
      for (const f of files) f.close();
    }
  }
  return ReadableStream.from(chunks());
}
