/**
 * The sandbox's object store: OSS objects as ordered data files under the data dir (one file when
 * stored whole, the part files of a multipart upload otherwise), never wholly in memory.
 */

import { objectIdOf } from "../aps/urn.ts";
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { SandboxContext } from "./context.ts";
import { fileRange, objectsDir, removeQuietly, streamToFile, uploadsDir } from "./object_files.ts";
import { nowMs } from "./state.ts";

/** An OSS object. */
export interface StoredObject {
  bucketKey: string;
  objectKey: string;
  objectId: string;
  size: number;
  /** SHA-1 of the bytes, hex. */
  sha1: string;
  contentType: string;
  createdDate: number;
  lastModifiedDate: number;
  lastAccessedDate: number;
  /** Names the directory under `<dataDir>/objects` holding the data. */
  storeId: string;
  /** The data: these files read in order. */
  files: string[];
  /** Byte size of each of `files`. */
  fileSizes: number[];
  contentDisposition?: string;
  /** The JSON text of `x-ads-user-defined-metadata`. */
  userDefinedMetadata?: string;
}

/** The objects of one bucket. */
export interface BucketObjects {
  byKey: Map<string, StoredObject>;
  /** The keys in order; dropped when a key comes or goes and rebuilt by the next listing. */
  sortedKeys?: string[];
}

/** Content type of objects stored without one. */
export const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/** The object, or undefined. */
export function findObject(
  sb: SandboxContext,
  bucketKey: string,
  objectKey: string,
): StoredObject | undefined {
  return sb.state.objects.get(bucketKey)?.byKey.get(objectKey);
}

/** Makes `obj` the object at its key, removing the data of the one it replaces. */
async function setObject(sb: SandboxContext, obj: StoredObject): Promise<StoredObject> {
  let bucket = sb.state.objects.get(obj.bucketKey);
  if (!bucket) sb.state.objects.set(obj.bucketKey, bucket = { byKey: new Map() });
  const old = bucket.byKey.get(obj.objectKey);
  bucket.byKey.set(obj.objectKey, obj);
  if (old) {
    obj.createdDate = old.createdDate;
    await removeQuietly(join(objectsDir(sb), old.storeId));
  } else {
    bucket.sortedKeys = undefined;
  }
  return obj;
}

function newObject(
  sb: SandboxContext,
  fields: Pick<
    StoredObject,
    "bucketKey" | "objectKey" | "sha1" | "contentType" | "storeId" | "files" | "fileSizes"
  >,
): StoredObject {
  const now = nowMs(sb.state);
  return {
    ...fields,
    objectId: objectIdOf(fields.bucketKey, fields.objectKey),
    size: fields.fileSizes.reduce((a, b) => a + b, 0),
    createdDate: now,
    lastModifiedDate: now,
    lastAccessedDate: now,
  };
}

async function newStoreDir(sb: SandboxContext): Promise<{ storeId: string; dir: string }> {
  const storeId = crypto.randomUUID();
  const dir = join(objectsDir(sb), storeId);
  await Deno.mkdir(dir, { recursive: true });
  return { storeId, dir };
}

/** Stores bytes as an object (replacing any), streaming to disk and computing SHA-1. */
export async function putObject(
  sb: SandboxContext,
  bucketKey: string,
  objectKey: string,
  body: ReadableStream<Uint8Array> | Uint8Array,
  contentType?: string,
): Promise<StoredObject> {
  const { storeId, dir } = await newStoreDir(sb);
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
    sb,
    newObject(sb, {
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
  sb: SandboxContext,
  init:
    & Pick<StoredObject, "bucketKey" | "objectKey" | "sha1" | "contentDisposition" | "userDefinedMetadata">
    & {
      contentType?: string;
      files: { path: string; size: number }[];
    },
): Promise<StoredObject> {
  const { storeId, dir } = await newStoreDir(sb);
  const files: string[] = [];
  for (const [i, part] of init.files.entries()) {
    const to = join(dir, String(i + 1));
    await Deno.rename(part.path, to);
    files.push(to);
  }
  const { bucketKey, objectKey, sha1, contentDisposition, userDefinedMetadata } = init;
  const contentType = init.contentType || DEFAULT_CONTENT_TYPE;
  const fileSizes = init.files.map((f) => f.size);
  const obj = newObject(sb, { bucketKey, objectKey, sha1, contentType, storeId, files, fileSizes });
  return await setObject(sb, { ...obj, contentDisposition, userDefinedMetadata });
}

/** Copies an object to another key of its bucket; the data files are shared by hard links. */
export async function copyObject(
  sb: SandboxContext,
  source: StoredObject,
  newKey: string,
): Promise<StoredObject> {
  if (newKey === source.objectKey) return source;
  const { storeId, dir } = await newStoreDir(sb);
  const files: string[] = [];
  for (const [i, from] of source.files.entries()) {
    const to = join(dir, String(i + 1));
    await Deno.link(from, to).catch(() => Deno.copyFile(from, to));
    files.push(to);
  }
  const { bucketKey, sha1, contentType, fileSizes, contentDisposition, userDefinedMetadata } = source;
  const copy = newObject(sb, { bucketKey, objectKey: newKey, sha1, contentType, storeId, files, fileSizes });
  return await setObject(sb, { ...copy, contentDisposition, userDefinedMetadata });
}

/** Deletes an object and its data; false when there is none. */
export async function deleteObject(
  sb: SandboxContext,
  bucketKey: string,
  objectKey: string,
): Promise<boolean> {
  const bucket = sb.state.objects.get(bucketKey);
  const obj = bucket?.byKey.get(objectKey);
  if (!bucket || !obj) return false;
  bucket.byKey.delete(objectKey);
  bucket.sortedKeys = undefined;
  await removeQuietly(join(objectsDir(sb), obj.storeId));
  return true;
}

/** Deletes every object of a bucket, data included. */
export async function deleteBucketObjects(sb: SandboxContext, bucketKey: string): Promise<void> {
  const bucket = sb.state.objects.get(bucketKey);
  sb.state.objects.delete(bucketKey);
  await Promise.all(
    [...bucket?.byKey.values() ?? []].map((o) => removeQuietly(join(objectsDir(sb), o.storeId))),
  );
}

/** Removes all object and upload data from disk (after a reset has emptied the state). */
export async function clearObjectData(sb: SandboxContext): Promise<void> {
  await Promise.all([removeQuietly(objectsDir(sb)), removeQuietly(uploadsDir(sb))]);
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
  sb: SandboxContext,
  bucketKey: string,
  page: { startAt?: string; beginsWith?: string; limit: number },
): { items: StoredObject[]; more: boolean } {
  const bucket = sb.state.objects.get(bucketKey);
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
  sb: SandboxContext,
  obj: StoredObject,
  range?: { start: number; end: number },
): ReadableStream<Uint8Array> {
  obj.lastAccessedDate = nowMs(sb.state);
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
