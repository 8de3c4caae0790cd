/** `diazo bucket ...` and `diazo oss list`: storage buckets, declared as data (command/decl.ts) over ./verbs.ts. */
import { parseBucketKey } from "../../aps/ids.ts";
import { BUCKET_REGIONS, parseBucketRegion } from "../../aps/regions.ts";
import type { CommandDecl } from "../../command/decl.ts";
import { BUCKET_ARG, BUCKET_KEY_TEXT } from "./args.ts";
import { positiveNumber } from "../../command/command.ts";
import type { Ctx } from "../../command/context.ts";
import {
  bucketDeletedLine,
  POLICIES,
  runBucketCreate,
  runBucketDelete,
  runBucketInfo,
  runBucketList,
} from "./verbs.ts";

/** `list` (every region or one, every page): `bucket list` and, under `oss`, `oss list`; the tool bucket_list. */
export function listCommand(family: string): CommandDecl {
  return {
    name: "list",
    aliases: ["ls"],
    description: "list the app's buckets in every region (or one), following every page",
    tool: "bucket_list",
    options: [
      {
        flags: "--region <region>",
        description: "only this storage region",
        parse: parseBucketRegion,
        complete: "bucket-region",
        choices: BUCKET_REGIONS,
        lenientChoices: true,
      },
      { flags: "--limit <n>", description: "stop after n buckets", parse: positiveNumber("--limit", true) },
    ],
    examples: [`diazo ${family} list`, `diazo ${family} list --region EMEA -o json --query '[].bucketKey'`],
    run: async (ctx: Ctx, _args, opts: { region?: (typeof BUCKET_REGIONS)[number]; limit?: number }) => {
      const page = await runBucketList({ region: opts.region, limit: opts.limit }, ctx);
      await ctx.emit(page.items, { columns: ["bucketKey", "policyKey", "region", "createdAt"] });
    },
  };
}

/** The bucket family. */
export const BUCKET: CommandDecl = {
  name: "bucket",
  description: "create, list, inspect and delete storage buckets",
  examples: ["diazo bucket list", "diazo bucket create --key myco-models"],
  commands: [
    listCommand("bucket"),
    {
      name: "create",
      description: "create a bucket (keys are unique across the whole platform)",
      tool: "bucket_create",
      options: [
        {
          flags: "-k, --key <bucketKey>",
          description: "bucket key: 3-128 chars of [-_.a-z0-9]",
          parse: parseBucketKey,
          required: true,
          toolName: "bucket_key",
          toolDescription: BUCKET_KEY_TEXT,
        },
        {
          flags: "--region <region>",
          description: "storage region",
          parse: parseBucketRegion,
          complete: "bucket-region",
          choices: BUCKET_REGIONS,
          lenientChoices: true,
          default: "US",
        },
        {
          flags: "--policy <policy>",
          description: "retention policy",
          choices: POLICIES,
          default: "transient",
        },
      ],
      examples: ["diazo bucket create --key myco-models --policy persistent --region EMEA"],
      run: async (ctx, _args, opts) => {
        const created = await runBucketCreate(
          { bucketKey: opts.key, policy: opts.policy, region: opts.region },
          ctx,
        );
        await ctx.emit(created, {
          action: `Created bucket ${created.bucketKey} (${created.policyKey}, ${opts.region})`,
        });
      },
    },
    {
      name: "info",
      aliases: ["get"],
      description: "show a bucket's details",
      tool: "bucket_get",
      args: [BUCKET_ARG],
      examples: ["diazo bucket info myco-models"],
      run: async (ctx, [bucketKey]) => {
        await ctx.emit(await runBucketInfo({ bucketKey }, ctx));
      },
    },
    {
      name: "delete",
      aliases: ["rm"],
      description: "delete a bucket and every object in it",
      tool: "bucket_delete",
      args: [BUCKET_ARG],
      examples: ["diazo bucket delete myco-scratch --yes"],
      run: async (ctx, [bucketKey]) => {
        const deleted = await runBucketDelete({ bucketKey, confirm: (q) => ctx.confirmOrCancel(q) }, ctx);
        if (deleted) await ctx.emit(deleted, { action: bucketDeletedLine(deleted) });
      },
    },
  ],
};

/** The oss family: the platform's own name for storage; `oss list` is `bucket list`. */
export const OSS: CommandDecl = {
  name: "oss",
  description: "object storage (OSS): `oss list` is an alias of `bucket list`",
  examples: ["diazo oss list --region EMEA"],
  commands: [listCommand("oss")],
};
