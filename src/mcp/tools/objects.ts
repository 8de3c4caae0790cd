/** Tools over objects in buckets: list, upload, delete, signed URL, URN (as `diazo object ...`). */
import path from "node:path";
import { z } from "zod";
import { usageError } from "../../core/errors.ts";
import { encodeUrn, objectIdOf } from "../../aps/urn.ts";
import { validateBucketKey } from "../../services/oss.ts";
import {
  createSignedUrl,
  deleteObject,
  type ObjectDetails,
  objectsRequest,
  SIGNED_ACCESS,
  withObjectHelpers,
} from "../../services/oss_objects.ts";
import { fetchPage } from "../../services/pagination.ts";
import { uploadFile } from "../../services/upload.ts";
import { listAnswer } from "../result.ts";
import { type AnyTool, cursorInput, defineTool, limitInput, listOutput, READ } from "../tool.ts";
import { bucketKeyInput } from "./buckets.ts";

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

const objectList = defineTool({
  name: "object_list",
  title: "List objects in a bucket",
  description:
    "Lists the objects (files) of a bucket, optionally only keys starting with `prefix`, with size, SHA-1, objectId " +
    "and the URN to translate them with. When has_more is true, call again with cursor = next_cursor.",
  input: {
    bucket_key: bucketKeyInput,
    prefix: z.string().optional().describe("Only keys starting with this, e.g. plans/."),
    limit: limitInput("objects"),
    cursor: cursorInput,
  },
  output: listOutput(objectItem),
  annotations: READ,
  scopes: ["data:read"],
  login: "app",
  async run(args, ctx) {
    const spec = objectsRequest(args.bucket_key, args.prefix);
    const page = await fetchPage<ObjectDetails>(await ctx.http(), spec, "oss", args);
    return listAnswer(page, page.items.map((o) => withObjectHelpers(o) as z.input<typeof objectItem>));
  },
});

const objectUpload = defineTool({
  name: "object_upload",
  title: "Upload a local file",
  description:
    "Uploads a file from this machine (the computer running the server) into a bucket, in parallel parts with a " +
    "SHA-1 check. `file` is an absolute path, or relative to the server's working directory. Replaces an object " +
    "with the same key. Answers the object's details with the URN for translate_start.",
  input: {
    bucket_key: bucketKeyInput,
    file: z.string().min(1).describe("Path of the local file, e.g. /home/me/models/house.rvt."),
    object_key: objectKeyInput.optional().describe("Object key; default the file's name."),
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
  scopes: ["data:write", "data:create"],
  login: "app",
  async run(args, ctx) {
    validateBucketKey(args.bucket_key);
    const file = path.resolve(ctx.cwd, args.file);
    const objectKey = args.object_key ?? path.basename(file);
    const settings = await ctx.settings();
    const r = await uploadFile(await ctx.http(), {
      bucketKey: args.bucket_key,
      objectKey,
      file,
      concurrency: settings.concurrency,
      stateDir: ctx.stateDir,
      debug: ctx.debugEnabled ? (line) => ctx.debug(line) : undefined,
    });
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

const objectDelete = defineTool({
  name: "object_delete",
  title: "Delete an object",
  description: "Deletes one object from a bucket, irreversibly. Confirm with the user before calling.",
  input: { bucket_key: bucketKeyInput, object_key: objectKeyInput },
  output: { bucketKey: z.string(), objectKey: z.string(), deleted: z.boolean() },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  scopes: ["data:write"],
  login: "app",
  async run(args, ctx) {
    validateBucketKey(args.bucket_key);
    await deleteObject(await ctx.http(), args.bucket_key, args.object_key);
    return { bucketKey: args.bucket_key, objectKey: args.object_key, deleted: true };
  },
});

const objectSignedUrl = defineTool({
  name: "object_signed_url",
  title: "Create a signed URL",
  description:
    "Creates a URL that lets anyone holding it read (or write) one object without credentials until it expires " +
    "(1-60 minutes). Treat the URL as a secret: share it only where the user asked.",
  input: {
    bucket_key: bucketKeyInput,
    object_key: objectKeyInput,
    minutes: z.number().int().min(1).max(60).default(60).describe("Lifetime in minutes (1-60)."),
    access: z.enum(SIGNED_ACCESS).default("read").describe("What the URL allows."),
    single_use: z.boolean().default(false).describe("The URL works once."),
  },
  output: {
    signedUrl: z.string(),
    expiration: z.number().optional().describe("Epoch milliseconds."),
    expiresAt: z.string().optional(),
    singleUse: z.boolean().optional(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  scopes: ["data:write"],
  login: "app",
  async run(args, ctx) {
    const res = await createSignedUrl(await ctx.http(), args.bucket_key, args.object_key, {
      minutes: args.minutes,
      access: args.access,
      singleUse: args.single_use,
    });
    return {
      signedUrl: res.signedUrl,
      ...(typeof res.expiration === "number"
        ? { expiration: res.expiration, expiresAt: new Date(res.expiration).toISOString() }
        : {}),
      ...(res.singleUse !== undefined ? { singleUse: res.singleUse } : {}),
    };
  },
});

const objectUrn = defineTool({
  name: "object_urn",
  title: "Compute an object's URN",
  description:
    "Computes an object's raw objectId and its Model Derivative URN from the bucket and object key, locally " +
    "(no request; the object need not exist). Use the urn with translate_start and translate_status.",
  input: { bucket_key: bucketKeyInput, object_key: objectKeyInput },
  output: {
    bucketKey: z.string(),
    objectKey: z.string(),
    objectId: z.string(),
    urn: z.string().describe(URN_TEXT),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scopes: [],
  login: "none",
  run(args) {
    validateBucketKey(args.bucket_key);
    if (args.object_key === "") {
      throw usageError("the object key is empty", "Pass the object's key, e.g. model.obj.");
    }
    const objectId = objectIdOf(args.bucket_key, args.object_key);
    return Promise.resolve({
      bucketKey: args.bucket_key,
      objectKey: args.object_key,
      objectId,
      urn: encodeUrn(objectId),
    });
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
