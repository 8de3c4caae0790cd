/**
 * What OSS keeps: buckets, objects (their data on disk under the data dir, never wholly in
 * memory), direct-to-S3 upload sessions, signed resources and the secret of the storage URLs.
 */

import { createHash, type Hash } from "node:crypto";
import type { Clock } from "../clock.ts";
import type { ServiceStore } from "../store.ts";
import { objectsDir, removeQuietly, uploadsDir } from "./object_files.ts";

/** One access grant on a bucket. */
export interface BucketPermission {
  authId: string;
  access: "full" | "read";
}

/** An OSS bucket. */
export interface Bucket {
  bucketKey: string;
  bucketOwner: string;
  /** Milliseconds since the epoch on the sandbox clock. */
  createdDate: number;
  policyKey: string;
  region: string;
  permissions: BucketPermission[];
}

/** An OSS object. */
export interface StoredObject {
  bucketKey: string;
  objectKey: string;
  objectId: string;
  size: number;
  /** A size the control API makes the object report instead of `size` (to test limits without the bytes). */
  reportedSize?: number;
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
  /** The keys in order, made by the first listing and kept in order as keys come and go. */
  sortedKeys?: string[];
}

/** One uploaded part of an upload session. */
export interface UploadedPart {
  file: string;
  size: number;
  /** Quoted, as S3 sends it. */
  eTag: string;
}

/** A direct-to-S3 upload session. */
export interface UploadSession {
  uploadKey: string;
  bucketKey: string;
  objectKey: string;
  /** Where the parts are written. */
  dir: string;
  /** Deadline to complete, milliseconds since the epoch on the sandbox clock. */
  expiresMs: number;
  state: "open" | "completing" | "completed" | "aborted";
  parts: Map<number, UploadedPart>;
  /** The SHA-1 over the parts hashed so far: exactly `hashed`, parts 1..hashed.length in order. */
  digest: { hash: Hash; hashed: UploadedPart[] };
  /** The background hashing, one pass after another. */
  hashing: Promise<void>;
  /** The part being hashed as it streams in (the next one in order), which the background leaves alone. */
  inline?: number;
}

/** What an OSS signed resource grants. */
export type SignedAccess = "read" | "write" | "readwrite";

/** An OSS signed resource: a shareable URL to one object. */
export interface SignedResource {
  id: string;
  bucketKey: string;
  objectKey: string;
  access: SignedAccess;
  /** Milliseconds since the epoch on the sandbox clock. */
  expiresMs: number;
  singleUse: boolean;
  /** A single-use resource that has served its one request. */
  spent: boolean;
}

/** Everything OSS knows. */
export interface OssStore extends ServiceStore {
  buckets: Map<string, Bucket>;
  /** Objects by bucket key (their data is on disk under the data dir). */
  objects: Map<string, BucketObjects>;
  /** Direct-to-S3 upload sessions by upload key. */
  uploads: Map<string, UploadSession>;
  /** Signed resources by id. */
  signedResources: Map<string, SignedResource>;
  /** Signs the emulated storage URLs; a reset draws a new one, voiding every URL handed out. */
  storageUrlSecret: Uint8Array;
  /** Where object and upload data live. */
  dataDir: string;
  clock: Clock;
  /** Told of every object put, changed or removed (the data dir's object journal listens). */
  changed?: (bucketKey: string, objectKey: string) => void;
}

function objectCounts(store: OssStore) {
  const byBucket: Record<string, number> = {};
  let count = 0, bytes = 0;
  for (const [bucketKey, objects] of [...store.objects].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    byBucket[bucketKey] = objects.byKey.size;
    count += objects.byKey.size;
    for (const o of objects.byKey.values()) bytes += o.size;
  }
  const openUploads = [...store.uploads.values()].filter((u) => u.state === "open").length;
  return {
    count,
    bytes,
    by_bucket: byBucket,
    open_uploads: openUploads,
    signed_resources: store.signedResources.size,
  };
}

/** An empty OSS keeping its data under `dataDir`. */
export function createOssStore(dataDir: string, clock: Clock): OssStore {
  const store: OssStore = {
    buckets: new Map(),
    objects: new Map(),
    uploads: new Map(),
    signedResources: new Map(),
    storageUrlSecret: crypto.getRandomValues(new Uint8Array(32)),
    dataDir,
    clock,
    kept: ["buckets", "objects", "uploads", "signedResources", "storageUrlSecret"],
    // A copy of a session shares its hash with the session it was copied from: it starts over.
    revive() {
      for (const s of store.uploads.values()) {
        s.digest = { hash: createHash("sha1"), hashed: [] };
        s.hashing = Promise.resolve();
        s.inline = undefined;
      }
    },
    async reset() {
      store.buckets.clear();
      store.objects.clear();
      store.uploads.clear();
      store.signedResources.clear();
      store.storageUrlSecret = crypto.getRandomValues(new Uint8Array(32));
      await Promise.all([removeQuietly(objectsDir(store)), removeQuietly(uploadsDir(store))]);
    },
    snapshot: () => ({
      buckets: [...store.buckets.values()].sort((
        a,
        b,
      ) => (a.bucketKey < b.bucketKey ? -1 : a.bucketKey > b.bucketKey ? 1 : 0)),
      objects: objectCounts(store),
    }),
  };
  return store;
}
