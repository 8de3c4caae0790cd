/**
 * Object storage (OSS v2): buckets. Plain functions over an injected Http (oss.yaml); keys arrive
 * checked (aps/ids.ts), so nothing here validates them again.
 */
import type { BucketKey } from "../../aps/ids.ts";
import type { Http, RequestSpec } from "../../http/http.ts";
import { apiPath } from "../../http/path.ts";
import { BUCKET_CREATE, BUCKET_DELETE, BUCKET_READ } from "../../aps/scope_constants.ts";

/** Retention policies of a bucket. */
export const POLICIES = ["transient", "temporary", "persistent"] as const;

/** A bucket as listed. */
export interface Bucket {
  bucketKey: string;
  createdDate: number;
  policyKey: string;
}

/** A bucket's details. */
export interface BucketDetails extends Bucket {
  bucketOwner: string;
  permissions: { authId: string; access: string }[];
}

/** The first page request of the bucket list of one region (pagination scheme "oss"). */
export function bucketsRequest(region: string): RequestSpec {
  return { path: "/oss/v2/buckets", query: { region, limit: 100 }, scope: BUCKET_READ };
}

/** Creates a bucket; 409 becomes "Bucket already exists". */
export async function createBucket(
  http: Http,
  input: { bucketKey: BucketKey; policyKey: string; region: string },
): Promise<BucketDetails> {
  const res = await http.request<BucketDetails>({
    method: "POST",
    path: "/oss/v2/buckets",
    headers: { region: input.region, "x-ads-region": input.region },
    json: { bucketKey: input.bucketKey, policyKey: input.policyKey },
    resource: "bucket",
    key: input.bucketKey,
    scope: BUCKET_CREATE,
  });
  return res.data;
}

/** A bucket's details; 404 becomes "Bucket not found". */
export async function getBucket(http: Http, bucketKey: BucketKey): Promise<BucketDetails> {
  const res = await http.request<BucketDetails>({
    path: apiPath`/oss/v2/buckets/${bucketKey}/details`,
    resource: "bucket",
    key: bucketKey,
    scope: BUCKET_READ,
  });
  return res.data;
}

/** Deletes a bucket (and everything in it). */
export async function deleteBucket(http: Http, bucketKey: BucketKey): Promise<void> {
  await http.request({
    method: "DELETE",
    path: apiPath`/oss/v2/buckets/${bucketKey}`,
    resource: "bucket",
    key: bucketKey,
    scope: BUCKET_DELETE,
    responseType: "none",
  });
}
