/**
 * OSS v2 objects in the caller's own buckets: list (paged by `startAt`), details, delete, copy,
 * direct-to-S3 upload (signed part URLs, then completion), signed download URLs, and the creation
 * of OSS signed resources.
 */

import { nowMs } from "../clock.ts";
import type { RequestContext } from "../context.ts";
import { materializeSeeded } from "../dm/storage.ts";
import { ossError } from "../errors.ts";
import { empty, json, readJson } from "../respond.ts";
import type { Route } from "../router.ts";
import { ownBucket } from "./buckets.ts";
import { copyObject, deleteObject, findObject, listObjects } from "./object_store.ts";
import {
  createSignedResource,
  downloadPath,
  revokeSignedResources,
  signStorageUrl,
  storageUrlExpiryMs,
  uploadPartPath,
} from "./signing.ts";
import type { Bucket, SignedAccess, StoredObject, UploadSession } from "./store.ts";
import {
  abortUpload,
  completeUpload,
  findUpload,
  MAX_PART_NUMBER,
  openUpload,
  uploadExpired,
} from "./uploads.ts";

/** Most URLs one signeds3upload call hands out. */
export const MAX_URLS_PER_CALL = 25;

const WITH_FIELDS = ["createdDate", "lastAccessedDate", "lastModifiedDate", "userDefinedMetadata"] as const;
const ACCESS_VALUES: readonly SignedAccess[] = ["read", "write", "readwrite"];
const OBJECT_NOT_FOUND = "Object not found";

/** The `objectDetails` shape of an object. */
export function objectDetails(baseUrl: string, o: StoredObject) {
  return {
    bucketKey: o.bucketKey,
    objectId: o.objectId,
    objectKey: o.objectKey,
    sha1: o.sha1,
    size: o.reportedSize ?? o.size,
    contentType: o.contentType,
    location: `${baseUrl}/oss/v2/buckets/${o.bucketKey}/objects/${encodeURIComponent(o.objectKey)}`,
  };
}

/** True for a JSON object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An integer query parameter within bounds, or its default when absent; throws OSS's 400 otherwise. */
export function intParam(
  ctx: RequestContext,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const text = ctx.url.searchParams.get(name);
  if (text === null) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) {
    throw ossError(400, `Valid field '${name}' must be an integer between ${min} and ${max}`);
  }
  return n;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The caller's bucket and the object named in the path; throws OSS's refusal otherwise. */
function ownObject(ctx: RequestContext): { bucket: Bucket; obj: StoredObject } {
  const bucket = ownBucket(ctx);
  const obj = findObject(ctx.sandbox.oss, bucket.bucketKey, ctx.params.objectKey);
  if (!obj) throw ossError(404, OBJECT_NOT_FOUND);
  return { bucket, obj };
}

/** True when `If-Modified-Since` says the client's copy is current. */
function notModifiedSince(req: Request, obj: StoredObject): boolean {
  const since = Date.parse(req.headers.get("if-modified-since") ?? "");
  return !Number.isNaN(since) && Math.floor(obj.lastModifiedDate / 1000) * 1000 <= since;
}

function list(_req: Request, ctx: RequestContext): Response {
  const bucket = ownBucket(ctx);
  const limit = intParam(ctx, "limit", 1, 100, 10);
  const q = ctx.url.searchParams;
  const beginsWith = q.get("beginsWith") || undefined;
  const page = listObjects(ctx.sandbox.oss, bucket.bucketKey, {
    startAt: q.get("startAt") ?? undefined,
    beginsWith,
    limit,
  });
  const body: { items: ReturnType<typeof objectDetails>[]; next?: string } = {
    items: page.items.map((o) => objectDetails(ctx.baseUrl, o)),
  };
  if (page.more) {
    const next = new URLSearchParams({
      startAt: page.items[page.items.length - 1].objectKey,
      limit: String(limit),
    });
    if (beginsWith) next.set("beginsWith", beginsWith);
    body.next = `${ctx.baseUrl}/oss/v2/buckets/${bucket.bucketKey}/objects?${next}`;
  }
  return json(200, body);
}

function details(req: Request, ctx: RequestContext): Response {
  const { obj } = ownObject(ctx);
  const wanted = ctx.url.searchParams.getAll("with").flatMap((v) => v.split(",")).map((v) => v.trim())
    .filter(Boolean);
  const unknown = wanted.find((w) => !(WITH_FIELDS as readonly string[]).includes(w));
  if (unknown !== undefined) {
    throw ossError(400, `Valid field 'with' must be one of ${WITH_FIELDS.join(", ")}; got '${unknown}'`);
  }
  if (notModifiedSince(req, obj)) return empty(304);
  const body: Record<string, unknown> = objectDetails(ctx.baseUrl, obj);
  for (const field of wanted as (typeof WITH_FIELDS)[number][]) {
    if (obj[field] !== undefined) body[field] = obj[field];
  }
  return json(200, body);
}

async function remove(_req: Request, ctx: RequestContext): Promise<Response> {
  const bucket = ownBucket(ctx);
  if (!await deleteObject(ctx.sandbox.oss, bucket.bucketKey, ctx.params.objectKey)) {
    throw ossError(404, OBJECT_NOT_FOUND);
  }
  revokeSignedResources(ctx.sandbox.oss, bucket.bucketKey, ctx.params.objectKey);
  return empty(200);
}

async function copyTo(_req: Request, ctx: RequestContext): Promise<Response> {
  const found = ownObject(ctx);
  const copy = await copyObject(ctx.sandbox.oss, found.obj, ctx.params.newObjectKey);
  return json(200, objectDetails(ctx.baseUrl, copy));
}

/**
 * The upload session `uploadKey` when this object's upload may go on with it; throws OSS's refusal
 * otherwise (an expired session is aborted on the way).
 */
async function openSession(
  ctx: RequestContext,
  objectKey: string,
  uploadKey: string,
): Promise<UploadSession> {
  const session = findUpload(ctx.sandbox.oss, uploadKey);
  if (!session || session.state === "aborted") throw ossError(404, `Upload '${uploadKey}' not found`);
  if (session.bucketKey !== ctx.params.bucketKey || session.objectKey !== objectKey) {
    throw ossError(400, "The uploadKey belongs to the upload of another object");
  }
  if (session.state !== "open") throw ossError(409, `Upload '${uploadKey}' has already been completed`);
  if (uploadExpired(ctx.sandbox.oss, session)) {
    await abortUpload(ctx.sandbox.oss, session);
    throw ossError(400, `Upload '${uploadKey}' has expired`);
  }
  return session;
}

/** What one signed upload request asks for: a range of parts, of a new or a going upload. */
export interface UploadUrlRequest {
  objectKey: string;
  firstPart: number;
  parts: number;
  uploadKey?: string;
  minutes: number;
}

/** Signed part URLs for one object (`signeds3upload_response`); throws OSS's refusal. */
export async function uploadUrls(ctx: RequestContext, bucket: Bucket, r: UploadUrlRequest) {
  if (r.firstPart + r.parts - 1 > MAX_PART_NUMBER) {
    throw ossError(400, `An upload has at most ${MAX_PART_NUMBER} parts`);
  }
  const session = r.uploadKey === undefined
    ? openUpload(ctx.sandbox.oss, bucket.bucketKey, r.objectKey)
    : await openSession(ctx, r.objectKey, r.uploadKey);
  const expiresMs = nowMs(ctx.sandbox.clock) + r.minutes * 60_000;
  const urls = Array.from(
    { length: r.parts },
    (_, i) =>
      signStorageUrl(
        ctx.sandbox.oss,
        ctx.baseUrl,
        "PUT",
        uploadPartPath(session.uploadKey, r.firstPart + i),
        expiresMs,
      ),
  );
  return {
    uploadKey: session.uploadKey,
    uploadExpiration: iso(session.expiresMs),
    urlExpiration: iso(storageUrlExpiryMs(expiresMs)),
    urls,
  };
}

async function signedS3Upload(_req: Request, ctx: RequestContext): Promise<Response> {
  const bucket = ownBucket(ctx);
  return json(
    200,
    await uploadUrls(ctx, bucket, {
      objectKey: ctx.params.objectKey,
      parts: intParam(ctx, "parts", 1, MAX_URLS_PER_CALL, 1),
      firstPart: intParam(ctx, "firstPart", 1, MAX_PART_NUMBER, 1),
      minutes: intParam(ctx, "minutesExpiration", 1, 60, 2),
      uploadKey: ctx.url.searchParams.get("uploadKey") ?? undefined,
    }),
  );
}

/** A user-defined metadata value (a JSON object under 100 bytes); throws 400 otherwise. */
export function checkedUserMetadata(text: string | null | undefined): string | undefined {
  if (text === null || text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!isRecord(value) || new TextEncoder().encode(text).length >= 100) {
    throw ossError(400, "x-ads-user-defined-metadata must be a JSON object of less than 100 bytes");
  }
  return text;
}

/** Headers an upload's completion records on the object. */
export interface CompletionMeta {
  contentType?: string;
  contentDisposition?: string;
  userDefinedMetadata?: string;
}

/** Completes one object's upload (`{uploadKey, size?, eTags?}`); its details, or OSS's refusal. */
export async function completeOne(
  ctx: RequestContext,
  bucket: Bucket,
  objectKey: string,
  body: Record<string, unknown>,
  meta: CompletionMeta,
) {
  if (typeof body.uploadKey !== "string" || body.uploadKey === "") {
    throw ossError(400, "The body must be a JSON object with 'uploadKey'");
  }
  const { size, eTags } = body;
  if (size !== undefined && !(Number.isSafeInteger(size) && (size as number) >= 0)) {
    throw ossError(400, "Valid field 'size' must be a non-negative integer");
  }
  if (eTags !== undefined && !(Array.isArray(eTags) && eTags.every((e) => typeof e === "string"))) {
    throw ossError(400, "Valid field 'eTags' must be a list of strings");
  }
  const session = await openSession(ctx, objectKey, body.uploadKey);
  const done = await completeUpload(ctx.sandbox.oss, session, {
    size: size as number | undefined,
    eTags: eTags as string[] | undefined,
  }, meta);
  return { ...objectDetails(ctx.baseUrl, done), policyKey: bucket.policyKey };
}

async function completeS3Upload(req: Request, ctx: RequestContext): Promise<Response> {
  const bucket = ownBucket(ctx);
  const body = await readJson(req);
  if (!isRecord(body)) throw ossError(400, "The body must be a JSON object with 'uploadKey'");
  const meta = {
    contentType: req.headers.get("x-ads-meta-content-type") ?? undefined,
    contentDisposition: req.headers.get("x-ads-meta-content-disposition") ?? undefined,
    userDefinedMetadata: checkedUserMetadata(req.headers.get("x-ads-user-defined-metadata")),
  };
  return json(200, await completeOne(ctx, bucket, ctx.params.objectKey, body, meta));
}

/** Response headers a signed download URL asks storage for. */
export interface DownloadOverrides {
  contentType?: string;
  contentDisposition?: string;
}

/** A signed download URL of one object (`download_results` with status complete). */
export function downloadAnswer(
  ctx: RequestContext,
  obj: StoredObject,
  minutes: number,
  o: DownloadOverrides,
) {
  const expiresMs = nowMs(ctx.sandbox.clock) + minutes * 60_000;
  const url = signStorageUrl(ctx.sandbox.oss, ctx.baseUrl, "GET", downloadPath(obj), expiresMs, {
    "response-content-type": o.contentType,
    "response-content-disposition": o.contentDisposition,
  });
  const params: Record<string, string> = { "content-type": o.contentType ?? obj.contentType };
  const disposition = o.contentDisposition ?? obj.contentDisposition;
  if (disposition !== undefined) params["content-disposition"] = disposition;
  return { status: "complete", url, params, size: obj.reportedSize ?? obj.size, sha1: obj.sha1 };
}

async function signedS3Download(req: Request, ctx: RequestContext): Promise<Response> {
  await materializeSeeded(ctx, ctx.params.bucketKey, ctx.params.objectKey);
  const { obj } = ownObject(ctx);
  const minutes = intParam(ctx, "minutesExpiration", 1, 60, 2);
  const ifNoneMatch = req.headers.get("if-none-match");
  if ((ifNoneMatch !== null && ifNoneMatch.replaceAll('"', "") === obj.sha1) || notModifiedSince(req, obj)) {
    return empty(304);
  }
  const q = ctx.url.searchParams;
  return json(
    200,
    downloadAnswer(ctx, obj, minutes, {
      contentType: q.get("response-content-type") ?? undefined,
      contentDisposition: q.get("response-content-disposition") ?? undefined,
    }),
  );
}

async function createSigned(req: Request, ctx: RequestContext): Promise<Response> {
  const bucket = ownBucket(ctx);
  const access = (ctx.url.searchParams.get("access") ?? "read").toLowerCase() as SignedAccess;
  if (!ACCESS_VALUES.includes(access)) {
    throw ossError(400, `Valid field 'access' must be one of ${ACCESS_VALUES.join(", ")}`);
  }
  const body = (await readJson(req)) ?? {};
  if (!isRecord(body)) throw ossError(400, "The body must be a JSON object");
  const { minutesExpiration = 2, singleUse = false } = body;
  if (
    !Number.isInteger(minutesExpiration) || (minutesExpiration as number) < 1 ||
    (minutesExpiration as number) > 60
  ) {
    throw ossError(400, "Valid field 'minutesExpiration' must be an integer between 1 and 60");
  }
  if (typeof singleUse !== "boolean") throw ossError(400, "Valid field 'singleUse' must be a boolean");
  const objectKey = ctx.params.objectKey;
  // A URL that may write can create the object; one that only reads needs it to exist.
  if (access === "read" && !findObject(ctx.sandbox.oss, bucket.bucketKey, objectKey)) {
    throw ossError(404, OBJECT_NOT_FOUND);
  }
  const resource = createSignedResource(ctx.sandbox.oss, {
    bucketKey: bucket.bucketKey,
    objectKey,
    access,
    expiresMs: nowMs(ctx.sandbox.clock) + (minutesExpiration as number) * 60_000,
    singleUse,
  });
  return json(200, {
    signedUrl: `${ctx.baseUrl}/oss/v2/signedresources/${resource.id}?region=${bucket.region}`,
    expiration: resource.expiresMs,
    singleUse,
  });
}

const OBJECT = "/oss/v2/buckets/:bucketKey/objects/:objectKey";

/** Routes of OSS objects, with the scopes of each operation's `security` in the OpenAPI. */
export const objectRoutes: readonly Route[] = [
  { method: "GET", pattern: "/oss/v2/buckets/:bucketKey/objects", scopes: ["data:read"], handler: list },
  { method: "GET", pattern: `${OBJECT}/details`, scopes: ["data:read"], handler: details },
  { method: "DELETE", pattern: OBJECT, scopes: ["data:write"], handler: remove },
  {
    method: "PUT",
    pattern: `${OBJECT}/copyto/:newObjectKey`,
    scopes: ["data:write", "data:create"],
    handler: copyTo,
  },
  {
    method: "GET",
    pattern: `${OBJECT}/signeds3upload`,
    scopes: ["data:write", "data:create"],
    handler: signedS3Upload,
  },
  {
    method: "POST",
    pattern: `${OBJECT}/signeds3upload`,
    scopes: ["data:write", "data:create"],
    handler: completeS3Upload,
  },
  { method: "GET", pattern: `${OBJECT}/signeds3download`, scopes: ["data:read"], handler: signedS3Download },
  { method: "POST", pattern: `${OBJECT}/signed`, scopes: ["data:write"], handler: createSigned },
];
