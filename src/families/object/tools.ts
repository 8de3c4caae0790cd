/** Tools over objects in buckets: list, upload, delete, signed URL, URN — adapters over families/object/verbs.ts. */
import { z } from "zod";
import { type BucketKey, type ObjectKey, parseBucketKey, parseObjectKey } from "../../aps/ids.ts";
import { isDiazoError } from "../../core/errors.ts";
import { toolFile } from "../../session/file_roots.ts";
import { runObjectDelete, runObjectInfo, runObjectList, runObjectSignedUrl, runObjectUrn } from "./verbs.ts";
import { OBJECT } from "./commands.ts";
import { runObjectUploadFile } from "./upload.ts";
import { confirmed, confirmInput, DESTROYS } from "../../mcp/confirm.ts";
import { toolProgress } from "../../mcp/progress.ts";
import { deriveTool } from "../../mcp/derive.ts";
import { listAnswer } from "../../mcp/result.ts";
import { type AnyTool, defineTool, listOutput, READ, type ToolContext } from "../../mcp/tool.ts";
import { bucketKeyInput } from "../bucket/tools.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

const objectKeyInput = z.string().min(1).describe(
  "Object key (the object's name in the bucket), e.g. house.rvt or plans/level-1.dwg.",
);

const URN_TEXT = "urn: the Model Derivative URN (URL-safe base64 of objectId) that translate_* tools take.";

const objectItem = z.looseObject({
  bucketKey: z.string(),
  objectKey: z.string(),
  objectId: z.string().describe("Raw id, urn:adsk.objects:os.object:<bucket>/<key>."),
  size: z.number(),
  sha1: z.string().optional(),
  urn: z.string().optional().describe(URN_TEXT),
});

const objectList = deriveTool(OBJECT, {
  name: "object_list",
  title: "List objects in a bucket",
  description:
    "Lists the objects (files) of a bucket, optionally only keys starting with `prefix`, with size, SHA-1, objectId " +
    "and the URN to translate them with. When has_more is true, call again with cursor = next_cursor.",
  derive: { list: "objects" },
  output: listOutput(objectItem),
  annotations: READ,
  scopes: toolScopes("object_list"),
  login: "app",
  async run(args, ctx) {
    const page = await runObjectList({ ...args, bucketKey: parseBucketKey(args.bucket_key) }, ctx);
    return listAnswer(page, page.items.map((o) => o as z.input<typeof objectItem>));
  },
});

/** Whether the object exists already (an upload would replace it); a 404 of any kind means no. */
async function objectExists(bucketKey: BucketKey, objectKey: ObjectKey, ctx: ToolContext): Promise<boolean> {
  try {
    await runObjectInfo({ bucketKey, objectKey }, ctx);
    return true;
  } catch (e) {
    if (isDiazoError(e) && e.status === 404) return false;
    throw e;
  }
}

const objectUpload = defineTool({
  name: "object_upload",
  title: "Upload a local file",
  description:
    "Uploads a file from this machine (the computer running the server) into a bucket, in parallel parts with a " +
    "SHA-1 check. `file` is an absolute path, or relative to the first directory the server allows, inside the " +
    "directories the server allows (its working directory unless started with --allow-dir). Onto an existing " +
    `key it replaces that object: ${DESTROYS} Reports byte progress; a cancelled call stops the upload (no ` +
    "object is made). Answers the object's details with the URN for translate_start.",
  input: {
    bucket_key: bucketKeyInput,
    file: z.string().min(1).describe("Path of the local file, e.g. /home/me/models/house.rvt."),
    object_key: objectKeyInput.optional().describe("Object key; default the file's name."),
    confirm: confirmInput,
  },
  output: {
    bucketKey: z.string(),
    objectKey: z.string(),
    objectId: z.string(),
    size: z.number(),
    sha1: z.string(),
    urn: z.string().describe(URN_TEXT),
    parts: z.number(),
    contentType: z.string().optional(),
    location: z.string().optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  scopes: toolScopes("object_upload"),
  login: "app",
  async run(args, ctx) {
    const bucketKey = parseBucketKey(args.bucket_key);
    const key = args.object_key === undefined ? undefined : parseObjectKey(args.object_key);
    // Only files inside the allowed roots, never diazo's own config or state (symlinks resolved first).
    const file = await toolFile(args.file, ctx.cwd, ctx.fileRoots);
    const objectKey = key ?? parseObjectKey(file.split(/[\\/]/).pop() ?? "");
    if (await objectExists(bucketKey, objectKey, ctx)) {
      await confirmed(ctx, args.confirm, `Replace object ${objectKey} of bucket ${bucketKey} with ${file}?`);
    }
    const { result: r } = await runObjectUploadFile(
      { bucketKey, key: objectKey, file, signal: ctx.signal },
      ctx,
      toolProgress(ctx),
    );
    return {
      bucketKey: r.bucketKey,
      objectKey: r.objectKey,
      objectId: r.objectId,
      size: r.size,
      sha1: r.sha1,
      urn: r.urn,
      parts: r.parts,
      ...(r.contentType ? { contentType: r.contentType } : {}),
      ...(r.location ? { location: r.location } : {}),
    };
  },
});

const objectDelete = deriveTool(OBJECT, {
  name: "object_delete",
  title: "Delete an object",
  description: `Deletes one object from a bucket. ${DESTROYS}`,
  derive: { confirm: true },
  output: { bucketKey: z.string(), objectKey: z.string(), deleted: z.boolean() },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  scopes: toolScopes("object_delete"),
  login: "app",
  async run(args, ctx) {
    const ids = { bucketKey: parseBucketKey(args.bucket_key), objectKey: parseObjectKey(args.object_key) };
    await confirmed(ctx, args.confirm, `Delete object ${ids.objectKey} of bucket ${ids.bucketKey}?`);
    return (await runObjectDelete(ids, ctx))!;
  },
});

const objectSignedUrl = deriveTool(OBJECT, {
  name: "object_signed_url",
  title: "Create a signed URL",
  description:
    "Creates a URL that lets anyone holding it read (or write) one object without credentials until it expires " +
    "(1-60 minutes). Treat the URL as a secret: share it only where the user asked. " + DESTROYS,
  derive: { confirm: true },
  output: {
    signedUrl: z.string(),
    expiration: z.number().optional().describe("Epoch milliseconds."),
    expiresAt: z.string().optional(),
    singleUse: z.boolean().optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  scopes: toolScopes("object_signed_url"),
  login: "app",
  async run(args, ctx) {
    const ids = { bucketKey: parseBucketKey(args.bucket_key), objectKey: parseObjectKey(args.object_key) };
    const what = `${args.access} ${ids.bucketKey}/${ids.objectKey}`;
    await confirmed(
      ctx,
      args.confirm,
      `Mint a URL that lets anyone ${what} for ${args.minutes} min?`,
      "grant",
    );
    const res = await runObjectSignedUrl({
      ...ids,
      minutes: args.minutes,
      access: args.access,
      singleUse: args.single_use,
    }, ctx);
    return {
      signedUrl: res.signedUrl,
      ...(typeof res.expiration === "number" ? { expiration: res.expiration, expiresAt: res.expiresAt } : {}),
      ...(res.singleUse !== undefined ? { singleUse: res.singleUse } : {}),
    };
  },
});

const objectUrn = deriveTool(OBJECT, {
  name: "object_urn",
  title: "Compute an object's URN",
  description:
    "Computes an object's raw objectId and its Model Derivative URN from the bucket and object key, locally " +
    "(no request; the object need not exist). Use the urn with translate_start and translate_status.",
  output: {
    bucketKey: z.string(),
    objectKey: z.string(),
    objectId: z.string(),
    urn: z.string().describe(URN_TEXT),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scopes: toolScopes("object_urn"),
  login: "none",
  run(args) {
    return Promise.resolve(
      runObjectUrn({
        bucketKey: parseBucketKey(args.bucket_key),
        objectKey: parseObjectKey(args.object_key),
      }),
    );
  },
});

/** The object area's tools. */
export const OBJECT_TOOLS: readonly AnyTool[] = [
  objectList,
  objectUpload,
  objectDelete,
  objectSignedUrl,
  objectUrn,
];
