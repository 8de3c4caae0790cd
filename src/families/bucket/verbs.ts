/**
 * The bucket verbs (`diazo bucket ...` and the bucket_* tools): list, create, info, delete. Keys
 * arrive checked (aps/ids.ts); answers carry the platform's fields with computed helpers beside them.
 */
import type { BucketKey } from "../../aps/ids.ts";
import { BUCKET_REGIONS, type parseBucketRegion } from "../../aps/regions.ts";
import { DiazoError } from "../../core/errors.ts";
import { isoOfEpochMs } from "../../core/output_human.ts";
import type { Http } from "../../http/http.ts";
import { type Bucket, bucketsRequest, createBucket, deleteBucket, getBucket, POLICIES } from "./api.ts";
import { fetchPage, invalidCursor } from "../../http/pagination.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { type ListOptions, type ListPage, mapPage } from "../../http/list.ts";

export { POLICIES };

/** A storage region of buckets. */
export type BucketRegion = ReturnType<typeof parseBucketRegion>;
/** A retention policy. */
export type Policy = (typeof POLICIES)[number];

/** A bucket as the verbs answer it: the platform's fields, its region when known, `createdAt` as ISO 8601. */
export type BucketRow<T extends { createdDate?: number } = Bucket> = T & {
  region?: string;
  createdAt?: string;
};

/** Adds computed helpers beside the platform's fields. */
function withHelpers<T extends { createdDate?: number }>(b: T, region?: string): BucketRow<T> {
  const createdAt = isoOfEpochMs(b.createdDate);
  return { ...b, ...(region ? { region } : {}), ...(createdAt ? { createdAt } : {}) };
}

/**
 * The app's buckets in `region`, or in every region when none is named (asked in parallel, answered
 * in region order, a cursor naming the region it continues). Without `limit`, every page.
 */
export async function runBucketList(
  opts: ListOptions & { region?: BucketRegion },
  deps: OpsDeps,
): Promise<ListPage<BucketRow>> {
  const http = await deps.http();
  const limit = opts.limit ?? Infinity;
  const one = async (region: BucketRegion, cursor?: string) =>
    mapPage(
      await fetchPage<Bucket>(http, bucketsRequest(region), "oss", { limit, cursor }),
      (b) => withHelpers(b, region),
    );
  if (opts.region) return await one(opts.region, opts.cursor);
  const from = opts.cursor === undefined ? { index: 0 } : regionCursor(opts.cursor);
  const pages = await Promise.all(
    BUCKET_REGIONS.slice(from.index).map((region, i) => one(region, i === 0 ? from.inner : undefined)),
  );
  // After the first n items of the regions' pages in order: inside a region's page, at its end (its
  // own next cursor), or at the start of the next region that has buckets.
  const after = (n: number): string | undefined => {
    let rest = n;
    for (const [i, page] of pages.entries()) {
      if (rest < page.items.length) return regionCursorOf(from.index + i, page.cursorAfter(rest));
      if (rest === page.items.length && page.nextCursor) {
        return regionCursorOf(from.index + i, page.nextCursor);
      }
      rest -= page.items.length;
      if (rest === 0) {
        const next = pages.findIndex((p, j) => j > i && p.items.length > 0);
        return next < 0 ? undefined : regionCursorOf(from.index + next, undefined);
      }
    }
    return undefined;
  };
  const items = pages.flatMap((p) => p.items).slice(0, limit);
  return { items, nextCursor: after(items.length), cursorAfter: after };
}

/** The cursor of a list over every region: the region's index and, inside it, the region's own cursor. */
function regionCursorOf(index: number, inner: string | undefined): string {
  return `r${index}.${inner ?? ""}`;
}

function regionCursor(cursor: string): { index: number; inner?: string } {
  const m = /^r(\d+)\.(.*)$/.exec(cursor);
  const index = m ? Number(m[1]) : NaN;
  if (!m || index >= BUCKET_REGIONS.length) {
    throw invalidCursor();
  }
  return { index, inner: m[2] || undefined };
}

/** Creates a bucket; a taken key is "Bucket already exists" (exit 6). */
export async function runBucketCreate(
  opts: { bucketKey: BucketKey; policy: Policy; region: BucketRegion },
  deps: OpsDeps,
): Promise<BucketRow> {
  const http = await deps.http();
  const created = await createBucket(http, {
    bucketKey: opts.bucketKey,
    policyKey: opts.policy,
    region: opts.region,
  });
  return withHelpers(created, opts.region);
}

/** A bucket's details: owner, policy, permissions, creation date. */
export async function runBucketInfo(
  opts: { bucketKey: BucketKey },
  deps: OpsDeps,
): Promise<BucketRow<Awaited<ReturnType<typeof getBucket>>>> {
  return withHelpers(await getBucket(await deps.http(), opts.bucketKey));
}

/** What deleting a bucket did. */
export interface BucketDeleted {
  bucketKey: string;
  deleted: true;
  /** How many objects went with it (`1000+` when counting stopped), when they could be counted. */
  objectsDeleted?: number | string;
}

/**
 * Deletes a bucket and everything in it. With `confirm` (a person is asked), the objects are counted
 * first so that the question says what is lost; undefined when the answer was no.
 */
export async function runBucketDelete(
  opts: { bucketKey: BucketKey; confirm?: (question: string) => Promise<boolean> },
  deps: OpsDeps,
): Promise<BucketDeleted | undefined> {
  const key = opts.bucketKey;
  const http = await deps.http();
  if (!opts.confirm) {
    await deleteBucket(http, key);
    return { bucketKey: key, deleted: true };
  }
  const objects = await countObjects(http, key);
  const shown = objects && `${objects.count}${objects.more ? "+" : ""}`;
  const what = objects === undefined
    ? "and all its objects"
    : objects.count === 0
    ? "(it is empty)"
    : `and the ${shown} object(s) in it`;
  if (objects?.count) deps.warn(`bucket ${key} is not empty: ${shown} object(s)`);
  if (!(await opts.confirm(`Delete bucket ${key} ${what}?`))) return undefined;
  await deleteBucket(http, key);
  return {
    bucketKey: key,
    deleted: true,
    ...(objects ? { objectsDeleted: objects.more ? `${objects.count}+` : objects.count } : {}),
  };
}

/** The line that confirms a deleted bucket, e.g. `Deleted bucket x (1 object)`. */
export function bucketDeletedLine(r: BucketDeleted): string {
  const n = r.objectsDeleted;
  const count = n === undefined ? "" : n === 1 ? " (1 object)" : ` (${n === 0 ? "empty" : `${n} objects`})`;
  return `Deleted bucket ${r.bucketKey}${count}`;
}

/** How many objects a bucket holds (counting stops at 1,000), or undefined when it cannot be listed. */
async function countObjects(
  http: Http,
  key: BucketKey,
): Promise<{ count: number; more: boolean } | undefined> {
  const CAP = 1000;
  // Only a delete counts objects: the listings of this family do not load the objects' requests.
  const { objectsRequest } = await import("../../transfer/oss_objects.ts");
  try {
    const page = await fetchPage(http, objectsRequest(key), "oss", { limit: CAP + 1 });
    return { count: Math.min(page.items.length, CAP), more: page.items.length > CAP };
  } catch (e) {
    // A token without data:read cannot count; the delete itself may still be allowed.
    if (e instanceof DiazoError && e.exitCode === 3) return undefined;
    throw e;
  }
}
