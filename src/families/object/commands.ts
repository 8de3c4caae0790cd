/** `diazo object ...`: objects in buckets, declared as data (command/decl.ts) over families/object/verbs.ts. */
import { type ObjectKey, parseBucketKey, parseObjectKey } from "../../aps/ids.ts";
import { runObjectDelete, runObjectInfo, runObjectSignedUrl, runObjectUrn, SIGNED_ACCESS } from "./verbs.ts";
import { runObjectUpload } from "./upload.ts";
import { emitBatch } from "../../command/batch_output.ts";
import { positiveNumber } from "../../command/command.ts";
import type { ArgumentDecl, CommandDecl } from "../../command/decl.ts";
import { OBJECT_DOWNLOAD, OBJECT_LIST } from "../../command/declarations.ts";
import { objectDownloadAction, type ObjectDownloadFlags, objectListAction } from "../../front/hot_actions.ts";
import { byteBar } from "../../command/progress.ts";

const BUCKET_ARG: ArgumentDecl = { spec: "<bucketKey>", description: "the bucket", parse: parseBucketKey };
const OBJECT_ARG: ArgumentDecl = {
  spec: "<objectKey>",
  description: "the object key",
  parse: parseObjectKey,
};

/** `object upload` (alias `put`). */
const UPLOAD: CommandDecl = {
  name: "upload",
  aliases: ["put"],
  description:
    "upload files (multipart, parallel, resumable; SHA-1 checked); the global --concurrency bounds parallel parts",
  args: [BUCKET_ARG, { spec: "<files...>", description: "files (and with --batch, directories)" }],
  options: [
    {
      flags: "-k, --key <objectKey>",
      description: "object key (one file; default its file name)",
      parse: parseObjectKey,
    },
    { flags: "--prefix <prefix>", description: "prefix added to every key, e.g. models/" },
    {
      flags: "--batch",
      description: "upload many files or whole directories, with a summary; failures do not stop the rest",
    },
    {
      flags: "--resume",
      description: "continue an interrupted upload of the same file, skipping stored parts",
    },
    {
      flags: "--part-size <MiB>",
      description: "part size in MiB (5-512; default 8)",
      parse: positiveNumber("--part-size", false),
    },
  ],
  examples: [
    "diazo object upload myco-models house.rvt",
    "diazo object upload myco-models big.ifc --part-size 16 --concurrency 8",
    "diazo object upload myco-models big.ifc --resume",
    "diazo object upload myco-models ./drawings --batch --prefix 2026/",
  ],
  run: async (
    ctx,
    [bucketKey, files],
    opts: { key?: ObjectKey; prefix?: string; batch?: boolean; resume?: boolean; partSize?: number },
  ) => {
    const up = await runObjectUpload(
      { ...opts, bucketKey, files, partSizeMiB: opts.partSize },
      ctx,
      byteBar(ctx),
    );
    if (!up.batch) {
      ctx.info(up.summary);
      return await ctx.emit(up.result, { columns: ["objectKey", "size", "sha1", "urn"] });
    }
    const columns = ["status", "file", "objectKey", "size", "sha1", "error"];
    await emitBatch(ctx, up.outcomes, up.summary, columns, (o) => o.file);
  },
};

/** `object list`: the hot path's declaration (command/declarations.ts), run by the hot path's action. */
const LIST: CommandDecl = {
  name: OBJECT_LIST.name,
  aliases: OBJECT_LIST.aliases,
  description: OBJECT_LIST.description,
  args: OBJECT_LIST.args,
  options: OBJECT_LIST.options,
  examples: OBJECT_LIST.examples("object"),
  run: (ctx, [bucketKey], opts: { prefix?: string; limit?: number }) =>
    objectListAction(ctx, bucketKey, opts),
};

/** `object download`: the hot path's declaration (command/declarations.ts), run by the hot path's action. */
const DOWNLOAD: CommandDecl = {
  name: OBJECT_DOWNLOAD.name,
  aliases: OBJECT_DOWNLOAD.aliases,
  description: OBJECT_DOWNLOAD.description,
  args: OBJECT_DOWNLOAD.args,
  options: OBJECT_DOWNLOAD.options,
  examples: OBJECT_DOWNLOAD.examples("object"),
  run: (ctx, [bucketKey, objectKeys], opts: ObjectDownloadFlags) =>
    objectDownloadAction(ctx, bucketKey, objectKeys, opts),
};

/** `object info`. */
const INFO: CommandDecl = {
  name: "info",
  description: "show an object's details (size, SHA-1, dates) and its URN",
  args: [BUCKET_ARG, OBJECT_ARG],
  examples: ["diazo object info myco-models house.rvt"],
  run: async (ctx, [bucketKey, objectKey]) => {
    await ctx.emit(await runObjectInfo({ bucketKey, objectKey }, ctx));
  },
};

/** `object delete` (alias `rm`). */
const DELETE: CommandDecl = {
  name: "delete",
  aliases: ["rm"],
  description: "delete an object",
  args: [BUCKET_ARG, OBJECT_ARG],
  examples: ["diazo object delete myco-models old.rvt --yes"],
  run: async (ctx, [bucketKey, objectKey]) => {
    const deleted = await runObjectDelete(
      { bucketKey, objectKey, confirm: (q) => ctx.confirmOrCancel(q) },
      ctx,
    );
    if (deleted) await ctx.emit(deleted, { action: `Deleted ${bucketKey}/${objectKey}` });
  },
};

/** `object signed-url` (alias `share`). */
const SIGNED_URL: CommandDecl = {
  name: "signed-url",
  aliases: ["share"],
  description: "create a URL that reads (or writes) the object without credentials until it expires",
  args: [BUCKET_ARG, OBJECT_ARG],
  options: [
    {
      flags: "--minutes <n>",
      description: "lifetime in minutes (1-60)",
      parse: positiveNumber("--minutes", true),
      default: 60,
    },
    {
      flags: "--access <access>",
      description: "what the URL allows",
      choices: SIGNED_ACCESS,
      default: "read",
    },
    { flags: "--single-use", description: "the URL works once" },
  ],
  examples: ["diazo object signed-url myco-models house.rvt --minutes 10 --query signedUrl -o json"],
  run: async (
    ctx,
    [bucketKey, objectKey],
    opts: { minutes: number; access: (typeof SIGNED_ACCESS)[number]; singleUse?: boolean },
  ) => {
    const res = await runObjectSignedUrl({ bucketKey, objectKey, ...opts }, ctx);
    await ctx.emit(res, { columns: ["signedUrl", "expiresAt", "singleUse"] });
  },
};

/** `object urn`. */
const URN: CommandDecl = {
  name: "urn",
  description: "print an object's id and base64 URN (computed locally, no request)",
  args: [BUCKET_ARG, OBJECT_ARG],
  examples: ["diazo object urn myco-models house.rvt --query urn -o json"],
  run: async (ctx, [bucketKey, objectKey]) => {
    await ctx.emit(runObjectUrn({ bucketKey, objectKey }));
  },
};

/** The object family. */
export const OBJECT: CommandDecl = {
  name: "object",
  aliases: ["objects"],
  description: "upload, download, list and share objects in buckets",
  examples: ["diazo object upload myco-models house.rvt", "diazo object list myco-models"],
  commands: [UPLOAD, LIST, DOWNLOAD, INFO, DELETE, SIGNED_URL, URN],
};
