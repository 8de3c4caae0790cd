/**
 * Storage reached without a token: the emulated S3 behind signed URLs (`/__s3/...`: part uploads
 * and downloads, checked by signature and expiry, failing in S3's XML) and OSS signed resources
 * (`/oss/v2/signedresources/:id`).
 */

import type { RequestContext } from "../context.ts";
import { ossError, s3Error, type SandboxError } from "../errors.ts";
import { empty, json } from "../respond.ts";
import type { Route } from "../router.ts";
import { findObject, putObject, readObject } from "./object_store.ts";
import { objectDetails } from "./objects.ts";
import { checkStorageUrl, downloadTarget, usableSignedResource } from "./signing.ts";
import type { OssStore, StoredObject } from "./store.ts";
import { abortUpload, findUpload, MAX_PART_NUMBER, storePart, uploadExpired } from "./uploads.ts";

const NO_SUCH_UPLOAD =
  "The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.";

/** Throws S3's refusal when a storage request's signature or expiry fails. */
function checkStorageRequest(req: Request, ctx: RequestContext): void {
  switch (checkStorageUrl(ctx.sandbox.oss, req.method, ctx.url)) {
    case "bad-signature":
      throw s3Error(
        403,
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided.",
      );
    case "expired":
      throw s3Error(403, "AccessDenied", "Request has expired");
  }
}

/**
 * The byte range a `Range` header asks of `size` bytes: undefined for the whole object (no header,
 * or one that is malformed and so ignored), "unsatisfiable" when none of the range exists.
 */
export function requestedRange(header: string | null, size: number) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0
      ? "unsatisfiable"
      : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== "" && Number(m[2]) < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end: m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

/** Streams an object (or the requested range of it) with its length, type and validators. */
function objectResponse(
  oss: OssStore,
  req: Request,
  obj: StoredObject,
  opts: {
    contentType?: string;
    contentDisposition?: string;
    unsatisfiable: (headers: HeadersInit) => SandboxError;
  },
): Response {
  const range = requestedRange(req.headers.get("range"), obj.size);
  if (range === "unsatisfiable") throw opts.unsatisfiable({ "content-range": `bytes */${obj.size}` });
  const headers = new Headers({
    "content-type": opts.contentType ?? obj.contentType,
    "accept-ranges": "bytes",
    etag: `"${obj.sha1}"`,
    "last-modified": new Date(obj.lastModifiedDate).toUTCString(),
  });
  const disposition = opts.contentDisposition ?? obj.contentDisposition;
  if (disposition !== undefined) headers.set("content-disposition", disposition);
  if (!range) {
    headers.set("content-length", String(obj.size));
    return new Response(readObject(oss, obj), { status: 200, headers });
  }
  headers.set("content-length", String(range.end - range.start + 1));
  headers.set("content-range", `bytes ${range.start}-${range.end}/${obj.size}`);
  return new Response(readObject(oss, obj, range), { status: 206, headers });
}

async function putPart(req: Request, ctx: RequestContext): Promise<Response> {
  checkStorageRequest(req, ctx);
  const { uploadKey, partNumber } = ctx.params;
  const n = Number(partNumber);
  if (!/^\d+$/.test(partNumber) || n < 1 || n > MAX_PART_NUMBER) {
    throw s3Error(
      400,
      "InvalidArgument",
      `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive`,
    );
  }
  const session = findUpload(ctx.sandbox.oss, uploadKey);
  if (session && uploadExpired(ctx.sandbox.oss, session)) await abortUpload(ctx.sandbox.oss, session);
  if (!session || session.state !== "open") throw s3Error(404, "NoSuchUpload", NO_SUCH_UPLOAD);
  const part = await storePart(ctx.sandbox.oss, session, n, req.body);
  if (!part) throw s3Error(404, "NoSuchUpload", NO_SUCH_UPLOAD);
  return empty(200, { etag: part.eTag });
}

function download(req: Request, ctx: RequestContext): Response {
  checkStorageRequest(req, ctx);
  const target = downloadTarget(ctx.params.id);
  const obj = target && findObject(ctx.sandbox.oss, target.bucketKey, target.objectKey);
  if (!obj || obj.storeId !== target?.storeId) {
    throw s3Error(404, "NoSuchKey", "The specified key does not exist.");
  }
  const q = ctx.url.searchParams;
  return objectResponse(ctx.sandbox.oss, req, obj, {
    contentType: q.get("response-content-type") ?? undefined,
    contentDisposition: q.get("response-content-disposition") ?? undefined,
    unsatisfiable: (headers) =>
      s3Error(416, "InvalidRange", "The requested range is not satisfiable", headers),
  });
}

function getSignedResource(req: Request, ctx: RequestContext): Response {
  const resource = usableSignedResource(ctx.sandbox.oss, ctx.params.id, "read");
  const obj = findObject(ctx.sandbox.oss, resource.bucketKey, resource.objectKey);
  if (!obj) throw ossError(404, "Object not found");
  const ifNoneMatch = req.headers.get("if-none-match");
  if (ifNoneMatch !== null && ifNoneMatch.replaceAll('"', "") === obj.sha1) return empty(304);
  const q = ctx.url.searchParams;
  const res = objectResponse(ctx.sandbox.oss, req, obj, {
    contentType: q.get("response-content-type") ?? undefined,
    contentDisposition: q.get("response-content-disposition") ?? undefined,
    unsatisfiable: (headers) => ossError(416, "The requested range is not satisfiable", headers),
  });
  if (res.ok && resource.singleUse) resource.spent = true;
  return res;
}

async function putSignedResource(req: Request, ctx: RequestContext): Promise<Response> {
  const resource = usableSignedResource(ctx.sandbox.oss, ctx.params.id, "write");
  const ifMatch = req.headers.get("if-match");
  if (ifMatch !== null) {
    const current = findObject(ctx.sandbox.oss, resource.bucketKey, resource.objectKey);
    if (current?.sha1 !== ifMatch.replaceAll('"', "")) {
      throw ossError(412, "If-Match does not match the sha1 of the object");
    }
  }
  if (resource.singleUse) resource.spent = true; // before the body streams: no second request slips in
  const obj = await putObject(
    ctx.sandbox.oss,
    resource.bucketKey,
    resource.objectKey,
    req.body ?? new Uint8Array(),
    req.headers.get("content-type") ?? undefined,
  );
  obj.contentDisposition = req.headers.get("content-disposition") ?? undefined;
  return json(200, objectDetails(ctx.baseUrl, obj));
}

function deleteSignedResource(_req: Request, ctx: RequestContext): Response {
  if (!ctx.sandbox.oss.signedResources.delete(ctx.params.id)) {
    throw ossError(404, "Signed resource not found");
  }
  return empty(200);
}

const SIGNED_RESOURCE = "/oss/v2/signedresources/:id";

/** Routes reached by signed URLs alone (no token). */
export const storageRoutes: readonly Route[] = [
  { method: "PUT", pattern: "/__s3/upload/:uploadKey/:partNumber", scopes: [], handler: putPart },
  { method: "GET", pattern: "/__s3/download/:id", scopes: [], handler: download },
  { method: "GET", pattern: SIGNED_RESOURCE, scopes: [], handler: getSignedResource },
  { method: "PUT", pattern: SIGNED_RESOURCE, scopes: [], handler: putSignedResource },
  { method: "DELETE", pattern: SIGNED_RESOURCE, scopes: [], handler: deleteSignedResource },
];
