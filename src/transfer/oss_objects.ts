/** Object storage (OSS v2): objects, signed S3 transfers and signed URLs (oss.yaml). */
import { usageError } from "../core/errors.ts";
import type { BucketKey, ObjectKey } from "../aps/ids.ts";
import type { Http, RequestSpec } from "../http/http.ts";
import { apiPath } from "../http/path.ts";
import { DATA_CREATE, DATA_READ, DATA_WRITE } from "../aps/scope_constants.ts";

/** An object as listed and as returned on completion (`objectDetails`). */
export interface ObjectDetails {
  bucketKey: string;
  objectKey: string;
  objectId: string;
  sha1?: string;
  size: number;
  contentType?: string;
  location?: string;
  createdDate?: number;
  lastModifiedDate?: number;
  lastAccessedDate?: number;
}

/** Signed S3 upload URLs for a range of parts (`signeds3upload_response`). */
export interface UploadUrls {
  uploadKey: string;
  urls: string[];
  uploadExpiration?: string;
  urlExpiration?: string;
}

/** Where to download an object from (`signeds3download_response`). */
export interface DownloadUrl {
  status: "complete" | "chunked" | "fallback";
  url?: string;
  urls?: Record<string, string>;
  size: number;
  sha1?: string;
  params?: Record<string, string>;
}

/** A shareable signed URL. */
export interface SignedUrl {
  signedUrl: string;
  expiration: number;
  singleUse?: boolean;
}

/** Most URLs the platform hands out per signeds3upload call. */
export const MAX_URLS_PER_REQUEST = 25;

function objectPath(bucketKey: BucketKey, objectKey: ObjectKey, tail = ""): string {
  return apiPath`/oss/v2/buckets/${bucketKey}/objects/${objectKey}` + tail;
}

/** The first page request of a bucket's object list (pagination scheme "oss"). */
export function objectsRequest(bucketKey: BucketKey, prefix?: string): RequestSpec {
  return {
    path: apiPath`/oss/v2/buckets/${bucketKey}/objects`,
    query: { limit: 100, beginsWith: prefix || undefined },
    resource: "bucket",
    key: bucketKey,
    scope: DATA_READ,
  };
}

/** The optional field object details ask for: oss.yaml types `with` as one value, as the official SDK sends it. */
const DETAIL_FIELD = "createdDate";

/** An object's details, with its dates. */
export async function getObject(
  http: Http,
  bucketKey: BucketKey,
  objectKey: ObjectKey,
): Promise<ObjectDetails> {
  const res = await http.request<ObjectDetails>({
    path: objectPath(bucketKey, objectKey, "/details"),
    query: { with: DETAIL_FIELD },
    resource: "object",
    key: objectKey,
    scope: DATA_READ,
  });
  return res.data;
}

/** Deletes an object. */
export async function deleteObject(http: Http, bucketKey: BucketKey, objectKey: ObjectKey): Promise<void> {
  await http.request({
    method: "DELETE",
    path: objectPath(bucketKey, objectKey),
    resource: "object",
    key: objectKey,
    scope: DATA_WRITE,
    responseType: "none",
  });
}

/** Signed URLs for `parts` parts starting at `firstPart` (1-based), continuing `uploadKey` when given. */
export async function getUploadUrls(
  http: Http,
  bucketKey: BucketKey,
  objectKey: ObjectKey,
  opts: { parts: number; firstPart: number; uploadKey?: string; minutes?: number; signal?: AbortSignal },
): Promise<UploadUrls> {
  const res = await http.request<UploadUrls>({
    path: objectPath(bucketKey, objectKey, "/signeds3upload"),
    query: {
      parts: opts.parts,
      firstPart: opts.firstPart,
      uploadKey: opts.uploadKey,
      minutesExpiration: opts.minutes ?? 60,
    },
    resource: "bucket",
    key: bucketKey,
    scope: DATA_CREATE,
    signal: opts.signal,
  });
  if (!res.data || !Array.isArray(res.data.urls) || res.data.urls.length < opts.parts) {
    throw usageError(
      `the platform returned ${res.data?.urls?.length ?? 0} upload URLs for ${opts.parts} parts`,
      "Retry the upload; `--debug` shows the platform's answer.",
    );
  }
  return res.data;
}

/** Completes a signed S3 upload; the platform checks `size` and the parts' eTags. */
export async function completeUpload(
  http: Http,
  bucketKey: BucketKey,
  objectKey: ObjectKey,
  body: { uploadKey: string; size: number; eTags: string[] },
  signal?: AbortSignal,
): Promise<ObjectDetails> {
  const res = await http.request<ObjectDetails>({
    method: "POST",
    path: objectPath(bucketKey, objectKey, "/signeds3upload"),
    json: body,
    // An object, not the bucket: a 409 here is about this upload, never "Bucket already exists".
    resource: "object",
    key: objectKey,
    scope: DATA_CREATE,
    // Completing the same upload twice is harmless: the second answer is a 409 the caller checks.
    retry: "always",
    signal,
  });
  return res.data;
}

/** A signed S3 URL to download an object from. */
export async function getDownloadUrl(
  http: Http,
  bucketKey: BucketKey,
  objectKey: ObjectKey,
  opts: { minutes?: number; signal?: AbortSignal } = {},
): Promise<DownloadUrl> {
  const res = await http.request<DownloadUrl>({
    path: objectPath(bucketKey, objectKey, "/signeds3download"),
    query: { minutesExpiration: opts.minutes ?? 60 },
    resource: "object",
    key: objectKey,
    scope: DATA_READ,
    signal: opts.signal,
  });
  return res.data;
}

/** Access a shareable signed URL grants. */
export const SIGNED_ACCESS = ["read", "write", "readwrite"] as const;

/** The contract's spelling of each access (oss.yaml `access`: Read, Write, ReadWrite). */
const CONTRACT_ACCESS: Record<(typeof SIGNED_ACCESS)[number], string> = {
  read: "Read",
  write: "Write",
  readwrite: "ReadWrite",
};

/** Creates a shareable signed URL for an object. */
export async function createSignedUrl(
  http: Http,
  bucketKey: BucketKey,
  objectKey: ObjectKey,
  opts: { minutes: number; access: (typeof SIGNED_ACCESS)[number]; singleUse?: boolean },
): Promise<SignedUrl> {
  const res = await http.request<SignedUrl>({
    method: "POST",
    path: objectPath(bucketKey, objectKey, "/signed"),
    query: { access: CONTRACT_ACCESS[opts.access] },
    json: { minutesExpiration: opts.minutes, singleUse: opts.singleUse ?? false },
    resource: "object",
    key: objectKey,
    scope: DATA_WRITE,
  });
  return res.data;
}

/** One object's answer inside a batch: its result, or why the platform refused that object alone. */
export type BatchItem<T> = T | { status: "error"; reason?: string };

/** True when a batch item is the platform's refusal of that one object. */
export function isBatchError<T>(
  item: BatchItem<T> | undefined,
): item is { status: "error"; reason?: string } {
  return item === undefined || (item as { status?: string }).status === "error";
}

/** Most objects one batch request names (oss.yaml). */
export const MAX_BATCH_ITEMS = 25;

/** Posts a batch operation (`batchsigneds3upload`, `batchcompleteupload`, ...) and returns its per-key results. */
async function batchRequest<T>(
  http: Http,
  bucketKey: BucketKey,
  operation: string,
  requests: readonly Record<string, unknown>[],
  opts: { query?: Record<string, number>; retry?: "always"; signal?: AbortSignal; scope?: string },
): Promise<Record<string, BatchItem<T>>> {
  const res = await http.request<{ results?: Record<string, BatchItem<T>> }>({
    method: "POST",
    path: apiPath`/oss/v2/buckets/${bucketKey}/objects/` + operation,
    query: opts.query,
    json: { requests },
    resource: "bucket",
    key: bucketKey,
    scope: opts.scope ?? DATA_CREATE,
    retry: opts.retry,
    signal: opts.signal,
  });
  return res.data?.results ?? {};
}

/** Signed upload URLs for up to 25 objects of a bucket in one request (`batchsigneds3upload`). */
export function batchUploadUrls(
  http: Http,
  bucketKey: BucketKey,
  items: readonly { objectKey: ObjectKey; parts?: number }[],
  opts: { minutes?: number; signal?: AbortSignal } = {},
): Promise<Record<string, BatchItem<UploadUrls>>> {
  return batchRequest(http, bucketKey, "batchsigneds3upload", items, {
    query: { minutesExpiration: opts.minutes ?? 60 },
    signal: opts.signal,
  });
}

/** Completes up to 25 signed S3 uploads of a bucket in one request (`batchcompleteupload`). */
export function batchCompleteUpload(
  http: Http,
  bucketKey: BucketKey,
  items: readonly { objectKey: ObjectKey; uploadKey: string; size: number; eTags: string[] }[],
  signal?: AbortSignal,
): Promise<Record<string, BatchItem<ObjectDetails>>> {
  // Completing twice is harmless: a repeated item answers with an error that sends it to the single flow.
  return batchRequest(http, bucketKey, "batchcompleteupload", items, { retry: "always", signal });
}

/** Signed download URLs for up to 25 objects of a bucket in one request (`batchsigneds3download`). */
export function batchDownloadUrls(
  http: Http,
  bucketKey: BucketKey,
  objectKeys: readonly ObjectKey[],
  opts: { minutes?: number; signal?: AbortSignal } = {},
): Promise<Record<string, BatchItem<DownloadUrl>>> {
  // Signing changes nothing: a repeated request is as safe as the first.
  return batchRequest(
    http,
    bucketKey,
    "batchsigneds3download",
    objectKeys.map((objectKey) => ({ objectKey })),
    {
      query: { minutesExpiration: opts.minutes ?? 60 },
      retry: "always",
      signal: opts.signal,
      scope: DATA_READ,
    },
  );
}
