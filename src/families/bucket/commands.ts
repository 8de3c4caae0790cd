/** `diazo bucket ...`: storage buckets, a thin commander adapter over families/bucket/verbs.ts. */
import { Option } from "@commander-js/extra-typings";
import { parseBucketKey } from "../../aps/ids.ts";
import { BUCKET_REGIONS, parseBucketRegion } from "../../aps/regions.ts";
import {
  bucketDeletedLine,
  POLICIES,
  runBucketCreate,
  runBucketDelete,
  runBucketInfo,
} from "./verbs.ts";
import { bucketListAction } from "../../front/hot_actions.ts";
import { type AnyCommand, type ContextFactory, declareCommand, examples } from "../../command/command.ts";
import { BUCKET_LIST } from "../../command/declarations.ts";

/** Adds `list` (every region or one, every page) under `parent`: `bucket list` and its alias `oss list`. */
export function addListCommand(parent: AnyCommand, makeCtx: ContextFactory): void {
  declareCommand(parent, BUCKET_LIST, (opts, cmd) => bucketListAction(makeCtx(cmd), opts));
}

/** Registers the bucket family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const bucket = program.command("bucket").description("create, list, inspect and delete storage buckets");
  examples(bucket, ["diazo bucket list", "diazo bucket create --key myco-models"]);

  addListCommand(bucket, makeCtx);

  const create = bucket.command("create")
    .description("create a bucket (keys are unique across the whole platform)")
    .requiredOption("-k, --key <bucketKey>", "bucket key: 3-128 chars of [-_.a-z0-9]", parseBucketKey)
    .option("--region <region>", `storage region (${BUCKET_REGIONS.join(", ")})`, parseBucketRegion, "US")
    .addOption(
      new Option("--policy <policy>", "retention policy").choices(POLICIES).default("transient" as const),
    )
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const created = await runBucketCreate(
        { bucketKey: opts.key, policy: opts.policy, region: opts.region },
        ctx,
      );
      await ctx.emit(created, {
        action: `Created bucket ${created.bucketKey} (${created.policyKey}, ${opts.region})`,
      });
    });
  examples(create, ["diazo bucket create --key myco-models --policy persistent --region EMEA"]);

  const info = bucket.command("info").alias("get")
    .description("show a bucket's details")
    .argument("<bucketKey>", "the bucket key", parseBucketKey)
    .action(async (bucketKey, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runBucketInfo({ bucketKey }, ctx));
    });
  examples(info, ["diazo bucket info myco-models"]);

  const del = bucket.command("delete").alias("rm")
    .description("delete a bucket and every object in it")
    .argument("<bucketKey>", "the bucket key", parseBucketKey)
    .action(async (bucketKey, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      const deleted = await runBucketDelete({ bucketKey, confirm: (q) => ctx.confirmOrCancel(q) }, ctx);
      if (deleted) await ctx.emit(deleted, { action: bucketDeletedLine(deleted) });
    });
  examples(del, ["diazo bucket delete myco-scratch --yes"]);
}
