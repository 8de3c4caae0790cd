/**
 * OSS v2 buckets: list (paged by `startAt`), create, details and delete, each owned by the app
 * (client id) of the calling token.
 */

import { BUCKET_REGIONS } from "../../aps/regions.ts";
import { nowMs } from "../clock.ts";
import type { RequestContext } from "../context.ts";
import { ossError, type SandboxError } from "../errors.ts";
import { empty, json, readJson } from "../respond.ts";
import type { Route } from "../router.ts";
import { deleteBucketObjects } from "./object_store.ts";
import { revokeSignedResources } from "./signing.ts";
import type { Bucket, BucketPermission } from "./store.ts";
import { abortBucketUploads } from "./uploads.ts";

/** Retention policies of a bucket. */
export const POLICY_KEYS = ["transient", "temporary", "persistent"] as const;

const BUCKET_KEY = /^[-_.a-z0-9]{3,128}$/;
const BAD_BUCKET_KEY = "Valid field 'bucketKey' must be of the form [-_.a-z0-9]{3,128}";

/** The region named by `value` (any case), or undefined when OSS has no such region. */
export function ossRegion(value: string): string | undefined {
  const upper = value.toUpperCase();
  return (BUCKET_REGIONS as readonly string[]).includes(upper) ? upper : undefined;
}

function badRegion(value: string): SandboxError {
  return ossError(400, `Invalid region '${value}': must be one of ${BUCKET_REGIONS.join(", ")}`);
}

function bucketBody(b: Bucket) {
  return {
    bucketKey: b.bucketKey,
    bucketOwner: b.bucketOwner,
    createdDate: b.createdDate,
    permissions: b.permissions.map((p) => ({ ...p })),
    policyKey: b.policyKey,
    region: b.region,
  };
}

function listBuckets(_req: Request, ctx: RequestContext): Response {
  const q = ctx.url.searchParams;
  const limitText = q.get("limit");
  const limit = limitText === null ? 10 : Number(limitText);
  if (!/^\d+$/.test(limitText ?? "10") || limit < 1 || limit > 100) {
    throw ossError(400, "Valid field 'limit' must be an integer between 1 and 100");
  }
  const regionText = q.get("region");
  const region = regionText === null ? undefined : ossRegion(regionText);
  if (regionText !== null && !region) throw badRegion(regionText);
  const startAt = q.get("startAt");
  const mine = [...ctx.sandbox.oss.buckets.values()]
    .filter((b) => b.bucketOwner === ctx.clientId && (!region || b.region === region))
    .sort((a, b) => (a.bucketKey < b.bucketKey ? -1 : a.bucketKey > b.bucketKey ? 1 : 0));
  const from = startAt === null ? mine : mine.filter((b) => b.bucketKey > startAt);
  const page = from.slice(0, limit);
  const body: { items: { bucketKey: string; createdDate: number; policyKey: string }[]; next?: string } = {
    items: page.map((b) => ({ bucketKey: b.bucketKey, createdDate: b.createdDate, policyKey: b.policyKey })),
  };
  if (from.length > limit) {
    const next = new URLSearchParams({ startAt: page[page.length - 1].bucketKey, limit: String(limit) });
    if (region) next.set("region", region);
    body.next = `${ctx.baseUrl}/oss/v2/buckets?${next}`;
  }
  return json(200, body);
}

function parseAllow(value: unknown): BucketPermission[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const out: BucketPermission[] = [];
  for (const a of value) {
    if (!a || typeof a.authId !== "string" || (a.access !== "full" && a.access !== "read")) return undefined;
    out.push({ authId: a.authId, access: a.access });
  }
  return out;
}

async function createBucket(req: Request, ctx: RequestContext): Promise<Response> {
  const body = await readJson(req);
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw ossError(400, "The request body must be a JSON object with 'bucketKey' and 'policyKey'");
  }
  const { bucketKey, policyKey, allow } = body as Record<string, unknown>;
  if (typeof bucketKey !== "string" || !BUCKET_KEY.test(bucketKey)) throw ossError(400, BAD_BUCKET_KEY);
  if (typeof policyKey !== "string" || !(POLICY_KEYS as readonly string[]).includes(policyKey)) {
    throw ossError(400, `Valid field 'policyKey' must be one of ${POLICY_KEYS.join(", ")}`);
  }
  const allowed = parseAllow(allow);
  if (!allowed) throw ossError(400, "Valid field 'allow' must be a list of {authId, access: full|read}");
  // The current `region` header wins over the legacy `x-ads-region`.
  const regionText = req.headers.get("region") ?? req.headers.get("x-ads-region");
  const region = regionText === null ? BUCKET_REGIONS[0] : ossRegion(regionText);
  if (!region) throw badRegion(regionText ?? "");
  const buckets = ctx.sandbox.oss.buckets;
  if (buckets.has(bucketKey)) throw ossError(409, "Bucket already exists");
  const owner = ctx.clientId ?? "";
  const bucket: Bucket = {
    bucketKey,
    bucketOwner: owner,
    createdDate: nowMs(ctx.sandbox.clock),
    policyKey,
    region,
    permissions: [{ authId: owner, access: "full" }, ...allowed.filter((a) => a.authId !== owner)],
  };
  buckets.set(bucketKey, bucket);
  return json(200, bucketBody(bucket));
}

/** The bucket named in the path when the caller owns it or was granted full access; OSS's refusal otherwise. */
export function ownBucket(ctx: RequestContext): Bucket {
  const key = ctx.params.bucketKey;
  if (!BUCKET_KEY.test(key)) throw ossError(400, BAD_BUCKET_KEY);
  const bucket = ctx.sandbox.oss.buckets.get(key);
  if (!bucket) throw ossError(404, "Bucket not found");
  const granted = bucket.permissions.some((p) => p.authId === ctx.clientId && p.access === "full");
  if (bucket.bucketOwner !== ctx.clientId && !granted) {
    throw ossError(403, "Only the application that owns the bucket can call this operation");
  }
  return bucket;
}

function bucketDetails(_req: Request, ctx: RequestContext): Response {
  return json(200, bucketBody(ownBucket(ctx)));
}

async function deleteBucket(_req: Request, ctx: RequestContext): Promise<Response> {
  const bucket = ownBucket(ctx);
  if (bucket.bucketOwner !== ctx.clientId) {
    throw ossError(403, "Only the application that owns the bucket can call this operation");
  }
  ctx.sandbox.oss.buckets.delete(bucket.bucketKey);
  revokeSignedResources(ctx.sandbox.oss, bucket.bucketKey);
  await Promise.all([
    deleteBucketObjects(ctx.sandbox.oss, bucket.bucketKey),
    abortBucketUploads(ctx.sandbox.oss, bucket.bucketKey),
  ]);
  return empty(200);
}

/** Routes of OSS buckets, with the scopes of each operation's `security` in the OpenAPI. */
export const bucketRoutes: readonly Route[] = [
  { method: "GET", pattern: "/oss/v2/buckets", scopes: ["bucket:read"], handler: listBuckets },
  { method: "POST", pattern: "/oss/v2/buckets", scopes: ["bucket:create"], handler: createBucket },
  {
    method: "GET",
    pattern: "/oss/v2/buckets/:bucketKey/details",
    scopes: ["bucket:read", "viewables:read"],
    handler: bucketDetails,
  },
  {
    method: "DELETE",
    pattern: "/oss/v2/buckets/:bucketKey",
    scopes: ["bucket:delete"],
    handler: deleteBucket,
  },
];
