/** `diazo bucket ...`: storage buckets. */
import { BUCKET_REGIONS, parseBucketRegion } from "../aps/regions.ts";
import { Option } from "@commander-js/extra-typings";
import {
  type Bucket,
  createBucket,
  deleteBucket,
  getBucket,
  listBuckets,
  POLICIES,
  validateBucketKey,
} from "../services/oss.ts";
import { DiazoError } from "../core/errors.ts";
import type { Http } from "../services/http.ts";
import { listObjects } from "../services/oss_objects.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "./command.ts";

/** Adds computed helpers beside the platform's fields. */
function withHelpers<T extends { createdDate?: number }>(
  b: T,
  region?: string,
): T & { region?: string; createdAt?: string } {
  return {
    ...b,
    ...(region ? { region } : {}),
    ...(typeof b.createdDate === "number" ? { createdAt: new Date(b.createdDate).toISOString() } : {}),
  };
}

/** Adds `list` (every region or one, every page) under `parent`: `bucket list` and its alias `oss list`. */
export function addListCommand(parent: AnyCommand, makeCtx: ContextFactory): void {
  const list = parent.command("list").alias("ls")
    .description("list the app's buckets in every region (or one), following every page")
    .option("--region <region>", `only this region (${BUCKET_REGIONS.join(", ")})`)
    .option("--limit <n>", "stop after n buckets", positiveNumber("--limit", true))
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const http = await ctx.http();
      const regions = opts.region ? [parseBucketRegion(opts.region)] : [...BUCKET_REGIONS];
      const out: (Bucket & { region?: string })[] = [];
      // Regions are independent: ask them in parallel, keep the output in region order.
      const perRegion = await Promise.all(regions.map(async (region) => {
        const items: (Bucket & { region?: string })[] = [];
        for await (const b of listBuckets(http, { region, limit: opts.limit })) {
          items.push(withHelpers(b, region));
        }
        return items;
      }));
      for (const items of perRegion) out.push(...items);
      await ctx.emit(opts.limit ? out.slice(0, opts.limit) : out, {
        columns: ["bucketKey", "policyKey", "region", "createdAt"],
      });
    });
  examples(list, [
    `diazo ${parent.name()} list`,
    `diazo ${parent.name()} list --region EMEA -o json --query '[].bucketKey'`,
  ]);
}

/** How many objects a bucket holds (counting stops at 1,000), or undefined when it cannot be listed. */
async function countObjects(http: Http, key: string): Promise<{ count: number; more: boolean } | undefined> {
  const CAP = 1000;
  let count = 0;
  try {
    for await (const _ of listObjects(http, key, { limit: CAP + 1 })) count++;
  } catch (e) {
    // A token without data:read cannot count; the delete itself may still be allowed.
    if (e instanceof DiazoError && e.exitCode === 3) return undefined;
    throw e;
  }
  return { count: Math.min(count, CAP), more: count > CAP };
}

/** Registers the bucket family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const bucket = program.command("bucket").description("create, list, inspect and delete storage buckets");

  addListCommand(bucket, makeCtx);

  const create = bucket.command("create")
    .description("create a bucket (keys are unique across the whole platform)")
    .requiredOption("-k, --key <bucketKey>", "bucket key: 3-128 chars of [-_.a-z0-9]")
    .option("--region <region>", `storage region (${BUCKET_REGIONS.join(", ")})`, "US")
    .addOption(
      new Option("--policy <policy>", "retention policy").choices(POLICIES).default("transient" as const),
    )
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const region = parseBucketRegion(opts.region);
      const http = await ctx.http();
      const created = await createBucket(http, { bucketKey: opts.key, policyKey: opts.policy, region });
      ctx.info(`Created bucket ${created.bucketKey} (${created.policyKey}, ${region})`);
      await ctx.emit(withHelpers(created, region));
    });
  examples(create, ["diazo bucket create --key myco-models --policy persistent --region EMEA"]);

  const info = bucket.command("info").alias("get")
    .description("show a bucket's details")
    .argument("<bucketKey>", "the bucket key")
    .action(async (key, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(withHelpers(await getBucket(await ctx.http(), key)));
    });
  examples(info, ["diazo bucket info myco-models"]);

  const del = bucket.command("delete").alias("rm")
    .description("delete a bucket and every object in it")
    .argument("<bucketKey>", "the bucket key")
    .action(async (key, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      const http = await ctx.http();
      validateBucketKey(key);
      const objects = await countObjects(http, key);
      const what = objects === undefined
        ? "and all its objects"
        : objects.count === 0
        ? "(it is empty)"
        : `and the ${objects.count}${objects.more ? "+" : ""} object(s) in it`;
      if (objects?.count) {
        ctx.warn(`bucket ${key} is not empty: ${objects.count}${objects.more ? "+" : ""} object(s)`);
      }
      if (!(await ctx.confirmOrCancel(`Delete bucket ${key} ${what}?`))) return;
      await deleteBucket(http, key);
      ctx.info(`Deleted bucket ${key} ${what.replace(/^\(it is empty\)$/, "(empty)")}`);
      await ctx.emit({
        bucketKey: key,
        deleted: true,
        ...(objects ? { objectsDeleted: objects.more ? `${objects.count}+` : objects.count } : {}),
      });
    });
  examples(del, ["diazo bucket delete myco-scratch --yes"]);
}
