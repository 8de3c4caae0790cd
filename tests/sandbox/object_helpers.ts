/**
 * Helpers of the sandbox's object tests: a bucket with a token, uploads through signed S3 URLs,
 * deterministic bytes, SHA-1 and a look at the files under the data directory.
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { type Answer, api, type SandboxAt, token } from "./helpers.ts";

/** Every scope the object operations need. */
export const OBJECT_SCOPES = "bucket:create bucket:read bucket:delete data:read data:write data:create";

/** 5 MiB: the smallest size of a part that is not the last. */
export const MIB5 = 5 * 1024 * 1024;

/** Creates bucket `bucketKey` and returns a token holding every object scope. */
export async function bucketWithToken(sb: SandboxAt, bucketKey: string): Promise<string> {
  const t = await token(sb, OBJECT_SCOPES);
  const a = await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey, policyKey: "transient" });
  if (a.status !== 200) throw new Error(`bucket create failed: ${a.status}`);
  return t;
}

/** The API path of an object, its key URL-encoded. */
export function objectPath(bucketKey: string, objectKey: string): string {
  return `/oss/v2/buckets/${bucketKey}/objects/${encodeURIComponent(objectKey)}`;
}

/** `n` bytes of a deterministic pattern that differs with `seed`. */
export function patternBytes(n: number, seed = 1): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  let x = seed * 2654435761 >>> 0;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** SHA-1 (hex) of the concatenation of `chunks`. */
export function sha1Hex(...chunks: Uint8Array[]): string {
  const h = createHash("sha1");
  for (const c of chunks) h.update(c);
  return h.digest("hex");
}

/** PUTs bytes to a signed storage URL; answers status, ETag and body text. */
export async function putToUrl(
  url: string,
  body: Uint8Array<ArrayBuffer>,
): Promise<{ status: number; etag: string | null; text: string; contentType: string | null }> {
  const res = await fetch(url, { method: "PUT", body });
  return {
    status: res.status,
    etag: res.headers.get("etag"),
    text: await res.text(),
    contentType: res.headers.get("content-type"),
  };
}

/** Asks for signed part URLs (query as given) and fails unless they come. */
export async function signedUploadUrls(
  sb: SandboxAt,
  t: string,
  bucketKey: string,
  objectKey: string,
  query = "",
): Promise<{ uploadKey: string; urls: string[]; urlExpiration: string; uploadExpiration: string }> {
  const a = await api(sb, "GET", `${objectPath(bucketKey, objectKey)}/signeds3upload${query}`, t);
  if (a.status !== 200) throw new Error(`signeds3upload failed: ${a.status} ${JSON.stringify(a.json)}`);
  return a.json;
}

/** Completes an upload. */
export function completeUpload(
  sb: SandboxAt,
  t: string,
  bucketKey: string,
  objectKey: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return api(sb, "POST", `${objectPath(bucketKey, objectKey)}/signeds3upload`, t, body, headers);
}

/** Uploads `data` as one part and completes; returns the object details. */
export async function uploadObject(
  sb: SandboxAt,
  t: string,
  bucketKey: string,
  objectKey: string,
  data: Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = {},
  // deno-lint-ignore no-explicit-any
): Promise<any> {
  const { uploadKey, urls } = await signedUploadUrls(sb, t, bucketKey, objectKey);
  const put = await putToUrl(urls[0], data);
  if (put.status !== 200) throw new Error(`part upload failed: ${put.status} ${put.text}`);
  const done = await completeUpload(sb, t, bucketKey, objectKey, { uploadKey }, headers);
  if (done.status !== 200) throw new Error(`complete failed: ${done.status} ${JSON.stringify(done.json)}`);
  return done.json;
}

/** Every file under `dir` (relative paths), or none when it does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory) out.push(...(await filesUnder(join(dir, e.name))).map((f) => join(e.name, f)));
      else out.push(e.name);
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out.sort();
}

/** Downloads an object through a signed URL; its bytes, or undefined when the object is not there. */
export async function downloadObject(
  sb: SandboxAt,
  t: string,
  bucketKey: string,
  objectKey: string,
): Promise<Uint8Array | undefined> {
  const a = await api(sb, "GET", `${objectPath(bucketKey, objectKey)}/signeds3download`, t);
  if (a.status === 404) return undefined;
  if (a.status !== 200) throw new Error(`signeds3download failed: ${a.status} ${JSON.stringify(a.json)}`);
  const res = await fetch(a.json.url);
  if (res.status !== 200) throw new Error(`download failed: ${res.status}`);
  return await res.bytes();
}
