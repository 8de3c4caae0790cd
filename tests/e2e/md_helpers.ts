/**
 * Set-up for the Model Derivative e2e tests, straight through the sandbox's HTTP API (not the CLI):
 * a token, a bucket, an uploaded design, and the sandbox's job speed.
 */
import assert from "node:assert/strict";
import { encodeUrn, objectIdOf } from "../../src/aps/urn.ts";
import { openSandboxHome, SANDBOX_ID, SANDBOX_SECRET } from "./harness.ts";

/** A 2-legged token of the well-known app. */
export async function sandboxToken(
  url: string,
  scopes = "bucket:create bucket:read data:read data:write data:create",
) {
  const res = await fetch(`${url}/authentication/v2/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${SANDBOX_ID}:${SANDBOX_SECRET}`)}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "client_credentials", scope: scopes }),
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.access_token as string;
}

async function ok(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  assert.ok(res.ok, `${what}: HTTP ${res.status} ${text}`);
  return text === "" ? undefined : JSON.parse(text);
}

/** Creates a bucket (an existing one is fine). */
export async function createBucket(url: string, token: string, bucketKey: string): Promise<void> {
  const res = await fetch(`${url}/oss/v2/buckets`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ bucketKey, policyKey: "transient" }),
  });
  if (res.status === 409) return void await res.body?.cancel();
  await ok(res, "create bucket");
}

/** Uploads bytes through signeds3upload (one part) and returns the object's ids. */
export async function uploadObject(
  url: string,
  token: string,
  bucketKey: string,
  objectKey: string,
  bytes: Uint8Array | string,
): Promise<{ objectId: string; urn: string }> {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  const base = `${url}/oss/v2/buckets/${encodeURIComponent(bucketKey)}/objects/${
    encodeURIComponent(objectKey)
  }`;
  const auth = { authorization: `Bearer ${token}` };
  const signed = await ok(await fetch(`${base}/signeds3upload`, { headers: auth }), "signeds3upload GET") as {
    uploadKey: string;
    urls: string[];
  };
  await ok(await fetch(signed.urls[0], { method: "PUT", body: data as BodyInit }), "PUT part");
  await ok(
    await fetch(`${base}/signeds3upload`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ uploadKey: signed.uploadKey }),
    }),
    "signeds3upload POST",
  );
  const objectId = objectIdOf(bucketKey, objectKey);
  return { objectId, urn: encodeUrn(objectId) };
}

/** Sets sandbox settings, e.g. `{"job_seconds": 0}`. */
export async function sandboxConfig(url: string, settings: Record<string, unknown>): Promise<void> {
  await ok(
    await fetch(`${url}/_sandbox/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(settings),
    }),
    "sandbox config",
  );
}

/** A cube in Wavefront OBJ. */
export const CUBE_OBJ = [
  "# cube",
  "o Cube",
  "v 0 0 0",
  "v 1 0 0",
  "v 1 1 0",
  "v 0 1 0",
  "v 0 0 1",
  "v 1 0 1",
  "v 1 1 1",
  "v 0 1 1",
  "f 1 2 3 4",
  "f 5 6 7 8",
  "f 1 2 6 5",
  "f 2 3 7 6",
  "f 3 4 8 7",
  "f 4 1 5 8",
  "",
].join("\n");

/** A sandbox with instant jobs, a home, the CLI environment, a token and a bucket. */
export async function mdFixture(opts: { jobSeconds?: number; bucket?: string } = {}) {
  const h = await openSandboxHome({ DIAZO_POLL_BASE_MS: "20" });
  try {
    const token = await sandboxToken(h.sb.url);
    const bucket = opts.bucket ?? "e2e-md";
    await createBucket(h.sb.url, token, bucket);
    await sandboxConfig(h.sb.url, { job_seconds: opts.jobSeconds ?? 0 });
    return {
      ...h,
      token,
      bucket,
      upload: (key: string, bytes: Uint8Array | string) => uploadObject(h.sb.url, token, bucket, key, bytes),
    };
  } catch (e) {
    await h.close();
    throw e;
  }
}
