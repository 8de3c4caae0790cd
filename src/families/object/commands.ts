/** `diazo object ...`: objects in buckets, declared as data (command/decl.ts) over families/object/verbs.ts. */
import { type BucketKey, type ObjectKey, parseObjectKey } from "../../aps/ids.ts";
import { runObjectDelete, runObjectInfo, runObjectSignedUrl, runObjectUrn, SIGNED_ACCESS } from "./verbs.ts";
import { emitBatch } from "../../command/batch_output.ts";
import { positiveNumber } from "../../command/command.ts";
import { type ArgumentDecl, type CommandDecl, typedParser } from "../../command/decl.ts";
import { BUCKET_ARG } from "../bucket/args.ts";
import type { Ctx } from "../../command/context.ts";
import { usageError } from "../../core/errors.ts";
import { byteBar } from "../../command/progress.ts";

const OBJECT_ARG: ArgumentDecl = {
  spec: "<objectKey>",
  description: "the object key",
  parse: parseObjectKey,
  toolDescription: "Object key (the object's name in the bucket), e.g. house.rvt or plans/level-1.dwg.",
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
    // The upload verbs (and node:crypto) load only for an upload.
    const { runObjectUpload } = await import("./upload.ts");
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

/** `object list <bucketKey>`: every page unless --limit. */
const LIST: CommandDecl = {
  name: "list",
  aliases: ["ls"],
  description: "list a bucket's objects, following every page",
  tool: "object_list",
  args: [BUCKET_ARG],
  options: [
    {
      flags: "--prefix <prefix>",
      description: "only keys starting with this",
      toolDescription: "Only keys starting with this, e.g. plans/.",
    },
    { flags: "--limit <n>", description: "stop after n objects", parse: positiveNumber("--limit", true) },
  ],
  examples: ["diazo object list myco-models", "diazo object list myco-models --prefix 2026/ -o json"],
  run: async (ctx, [bucketKey], opts: { prefix?: string; limit?: number }) => {
    const { runObjectList } = await import("./verbs.ts");
    const page = await runObjectList({ bucketKey, prefix: opts.prefix, limit: opts.limit }, ctx);
    await ctx.emit(page.items, { columns: ["objectKey", "size", "sha1"] });
  },
};

/** What `object download` takes besides the bucket and keys. */
interface ObjectDownloadFlags {
  out?: string;
  prefix?: string;
  force?: boolean;
  resume?: boolean;
}

/** `object download <bucketKey> [objectKeys...]`: one object to a file or stdout, or several (batch-signed). */
async function objectDownload(
  ctx: Ctx,
  bucketKey: BucketKey,
  objectKeys: readonly string[],
  opts: ObjectDownloadFlags,
): Promise<void> {
  // Ctrl-C stops the transfer so that its part file is removed (kept with --resume), then exit 130.
  const signal = ctx.interruptSignal();
  const keys = objectKeys.map(parseObjectKey);
  if (keys.length === 0 && opts.prefix === undefined) {
    throw usageError(
      "name an object key, or --prefix",
      "Example: diazo object download myco-models house.rvt",
    );
  }
  if (keys.length > 1 || opts.prefix !== undefined) {
    // Several keys or a prefix are signed 25 at a time (download_batch.ts).
    const { runObjectDownloadMany } = await import("./download_batch.ts");
    const many = await runObjectDownloadMany({ bucketKey, objectKeys: keys, ...opts, signal }, ctx);
    const columns = ["status", "objectKey", "file", "size", "error"];
    return await emitBatch(ctx, many.outcomes, many.summary, columns, (o) => o.objectKey);
  }
  const { runObjectDownload } = await import("./download.ts");
  const toStdout = opts.out === "-";
  const { summary, ...got } = await runObjectDownload(
    {
      bucketKey,
      objectKey: keys[0],
      ...opts,
      signal,
      stdout: toStdout ? ctx.io.stdout : undefined, // the run's stdout, not the process's
    },
    ctx,
    toStdout ? undefined : byteBar(ctx),
  );
  ctx.info(summary);
  if (!toStdout) await ctx.emit(got);
}

/** `object download`. */
const DOWNLOAD: CommandDecl = {
  name: "download",
  aliases: ["get"],
  description:
    "download objects (streamed, SHA-1 checked; never writes outside the target directory); several keys or --prefix sign 25 at a time",
  args: [BUCKET_ARG, {
    spec: "[objectKeys...]",
    description: "object keys (one, several, or none with --prefix)",
  }],
  options: [
    {
      flags: "--out <path>",
      description:
        "file, or directory (existing, or ending in /) to write into; default the current directory",
    },
    {
      flags: "--prefix <prefix>",
      description: "also every object whose key starts with this (written under its key)",
    },
    { flags: "--force", description: "overwrite an existing file" },
    {
      flags: "--resume",
      description: "keep the part file when interrupted or failing, to go on from it next time",
    },
  ],
  examples: [
    "diazo object download myco-models house.rvt",
    "diazo object download myco-models plans/a.dwg --out ./out/",
    "diazo object download myco-models house.rvt --out - | sha1sum",
    "diazo object download myco-models --prefix 2026/ --out ./out/",
  ],
  run: (ctx, [bucketKey, objectKeys], opts: ObjectDownloadFlags) =>
    objectDownload(ctx, bucketKey, objectKeys, opts),
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
  tool: "object_delete",
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
  tool: "object_signed_url",
  args: [BUCKET_ARG, OBJECT_ARG],
  options: [
    {
      flags: "--minutes <n>",
      description: "lifetime in minutes (1-60)",
      // The verb refuses more than 60 (families/object/verbs.ts); the tool's schema says so.
      parse: typedParser(positiveNumber("--minutes", true), { type: "integer", min: 1, max: 60 }),
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
  tool: "object_urn",
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
