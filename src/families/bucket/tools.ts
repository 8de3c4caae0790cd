/**
 * Tools over storage buckets: list, create, get, delete — adapters over families/bucket/verbs.ts, each
 * the command of `diazo bucket ...` that names it, its input derived from that declaration.
 */
import { z } from "zod";
import { parseBucketKey } from "../../aps/ids.ts";
import { runBucketCreate, runBucketDelete, runBucketInfo, runBucketList } from "./verbs.ts";
import { BUCKET } from "./commands.ts";
import { BUCKET_KEY_TEXT } from "./args.ts";
import { confirmed, DESTROYS } from "../../mcp/confirm.ts";
import { deriveTool } from "../../mcp/derive.ts";
import { listAnswer } from "../../mcp/result.ts";
import { type AnyTool, listOutput, READ } from "../../mcp/tool.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

/** The `bucket_key` argument of tools that are not derived from a command (mcp/derive.ts). */
export const bucketKeyInput = z.string().describe(BUCKET_KEY_TEXT);

// createdDate (epoch milliseconds) is left to `fields`: createdAt says the same.
const bucketItem = z.looseObject({
  bucketKey: z.string(),
  policyKey: z.string(),
  createdAt: z.string().optional().describe("Creation time, ISO 8601."),
  region: z.string().optional(),
});

const bucketDetails = {
  bucketKey: z.string(),
  bucketOwner: z.string().optional(),
  createdDate: z.number().optional(),
  createdAt: z.string().optional(),
  policyKey: z.string(),
  permissions: z.array(z.looseObject({ authId: z.string(), access: z.string() })).optional(),
  region: z.string().optional(),
};

const bucketList = deriveTool(BUCKET, {
  name: "bucket_list",
  title: "List buckets",
  description:
    "Lists the storage buckets of the app (client id) in every region, region by region, or in the one region " +
    "given. Buckets belong to the app that created them. Answers `limit` buckets at most; when has_more is true, " +
    "call again with cursor = next_cursor (and the same region, or none).",
  derive: { list: "buckets" },
  output: listOutput(bucketItem),
  annotations: READ,
  scopes: toolScopes("bucket_list"),
  login: "app",
  async run(args, ctx) {
    const page = await runBucketList(args, ctx);
    return listAnswer(page, page.items.map((b) => ({ ...b }))); // a plain record, as the schema's loose object wants
  },
});

const bucketCreate = deriveTool(BUCKET, {
  name: "bucket_create",
  title: "Create a bucket",
  description:
    "Creates a storage bucket. Keys are unique across the whole platform (all apps), so a taken key answers " +
    "'Bucket already exists': pick another, e.g. with a prefix of your own. Policy: transient (objects kept 24 h), " +
    "temporary (30 days) or persistent.",
  output: bucketDetails,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  scopes: toolScopes("bucket_create"),
  login: "app",
  async run(args, ctx) {
    const bucketKey = parseBucketKey(args.bucket_key);
    return await runBucketCreate({ bucketKey, policy: args.policy, region: args.region }, ctx);
  },
});

const bucketGet = deriveTool(BUCKET, {
  name: "bucket_get",
  title: "Get a bucket's details",
  description: "Shows a bucket's details: owner (app id), creation date, retention policy and permissions.",
  output: bucketDetails,
  annotations: READ,
  scopes: toolScopes("bucket_get"),
  login: "app",
  async run(args, ctx) {
    return await runBucketInfo({ bucketKey: parseBucketKey(args.bucket_key) }, ctx);
  },
});

const bucketDelete = deriveTool(BUCKET, {
  name: "bucket_delete",
  title: "Delete a bucket",
  description: `Deletes a bucket AND EVERY OBJECT IN IT. ${DESTROYS}`,
  derive: { confirm: true },
  output: { bucketKey: z.string(), deleted: z.boolean() },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  scopes: toolScopes("bucket_delete"),
  login: "app",
  async run(args, ctx) {
    const bucketKey = parseBucketKey(args.bucket_key);
    await confirmed(ctx, args.confirm, `Delete bucket ${bucketKey} and every object in it?`);
    return (await runBucketDelete({ bucketKey }, ctx))!;
  },
});

/** The bucket area's tools. */
export const BUCKET_TOOLS: readonly AnyTool[] = [bucketList, bucketCreate, bucketGet, bucketDelete];
