/**
 * Signed access without a token: the emulated storage URLs (`/__s3/...`, an HMAC-SHA256 with the
 * sandbox's secret over method, path, expiry and the signed query) and OSS signed resources.
 */

import { createHmac, timingSafeEqual } from "node:crypto";
import { base64UrlDecode, base64UrlEncode } from "../auth/jwt.ts";
import { nowMs } from "../clock.ts";
import { ossError } from "../errors.ts";
import type { OssStore, SignedResource, StoredObject } from "./store.ts";

/** Query parameter carrying a storage URL's expiry, in seconds since the epoch. */
export const EXPIRES_PARAM = "X-Amz-Expires";
/** Query parameter carrying a storage URL's signature (hex). */
export const SIGNATURE_PARAM = "X-Amz-Signature";

/** Query parameters a storage URL may carry that its signature covers besides the expiry. */
const SIGNED_EXTRAS = ["response-content-type", "response-content-disposition"] as const;

function signature(
  oss: OssStore,
  method: string,
  path: string,
  expires: string,
  query: URLSearchParams,
) {
  const extras = SIGNED_EXTRAS.map((k) => `${k}=${query.get(k) ?? ""}`).join("&");
  return createHmac("sha256", oss.storageUrlSecret)
    .update(`${method}\n${path}\n${expires}\n${extras}`)
    .digest("hex");
}

/**
 * An absolute storage URL allowing `method` on `path` until `expiresMs` (rounded down to whole
 * seconds); `extras` are signed response overrides (`response-content-type`, ...).
 */
export function signStorageUrl(
  oss: OssStore,
  baseUrl: string,
  method: string,
  path: string,
  expiresMs: number,
  extras: Partial<Record<(typeof SIGNED_EXTRAS)[number], string>> = {},
): string {
  const query = new URLSearchParams();
  for (const k of SIGNED_EXTRAS) if (extras[k] !== undefined) query.set(k, extras[k]);
  const expires = String(Math.floor(expiresMs / 1000));
  query.set(EXPIRES_PARAM, expires);
  query.set(SIGNATURE_PARAM, signature(oss, method, path, expires, query));
  return `${baseUrl}${path}?${query}`;
}

/** The expiry of a storage URL signed with `signStorageUrl`, in milliseconds since the epoch. */
export function storageUrlExpiryMs(expiresMs: number): number {
  return Math.floor(expiresMs / 1000) * 1000;
}

/** Path of the storage URL that takes part `partNumber` of an upload. */
export function uploadPartPath(uploadKey: string, partNumber: number): string {
  return `/__s3/upload/${uploadKey}/${partNumber}`;
}

/** Path of the storage URL that serves one version of an object (an opaque id naming it). */
export function downloadPath(obj: Pick<StoredObject, "bucketKey" | "objectKey" | "storeId">): string {
  return `/__s3/download/${base64UrlEncode(JSON.stringify([obj.bucketKey, obj.objectKey, obj.storeId]))}`;
}

/** The object version named by the id of a download path, or undefined when it names none. */
export function downloadTarget(
  id: string,
): { bucketKey: string; objectKey: string; storeId: string } | undefined {
  try {
    const bytes = base64UrlDecode(id);
    const v = bytes && JSON.parse(new TextDecoder().decode(bytes));
    if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === "string")) return undefined;
    return { bucketKey: v[0], objectKey: v[1], storeId: v[2] };
  } catch {
    return undefined;
  }
}

/** How a storage URL checks out. */
export type StorageUrlCheck = "valid" | "expired" | "bad-signature";

/** Checks the signature of a storage request, then its expiry against the sandbox clock. */
export function checkStorageUrl(oss: OssStore, method: string, url: URL): StorageUrlCheck {
  const expires = url.searchParams.get(EXPIRES_PARAM);
  const given = url.searchParams.get(SIGNATURE_PARAM);
  if (!expires || !/^\d{1,15}$/.test(expires) || !given || !/^[0-9a-f]{64}$/.test(given)) {
    return "bad-signature";
  }
  const expected = signature(oss, method, url.pathname, expires, url.searchParams);
  const text = new TextEncoder();
  if (!timingSafeEqual(text.encode(expected), text.encode(given))) return "bad-signature";
  return nowMs(oss.clock) > Number(expires) * 1000 ? "expired" : "valid";
}

/** Creates and records a signed resource. */
export function createSignedResource(
  oss: OssStore,
  init: Omit<SignedResource, "id" | "spent">,
): SignedResource {
  const resource = { ...init, id: crypto.randomUUID(), spent: false };
  oss.signedResources.set(resource.id, resource);
  return resource;
}

/** The signed resource `id` when it is usable for `need`; throws OSS's refusal otherwise. */
export function usableSignedResource(oss: OssStore, id: string, need: "read" | "write"): SignedResource {
  const resource = oss.signedResources.get(id);
  if (!resource) throw ossError(404, "Signed resource not found");
  if (nowMs(oss.clock) > resource.expiresMs) throw ossError(403, "The signed URL has expired");
  if (resource.spent) throw ossError(403, "The single-use signed URL has already been used");
  if (!resource.access.includes(need)) throw ossError(403, `The signed URL does not grant ${need} access`);
  return resource;
}

/** Forgets the signed resources of one object, or of a whole bucket when `objectKey` is absent. */
export function revokeSignedResources(oss: OssStore, bucketKey: string, objectKey?: string): void {
  for (const [id, r] of oss.signedResources) {
    if (r.bucketKey === bucketKey && (objectKey === undefined || r.objectKey === objectKey)) {
      oss.signedResources.delete(id);
    }
  }
}
