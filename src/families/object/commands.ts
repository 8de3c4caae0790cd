/** `diazo object ...`: objects in buckets, a thin commander adapter over families/object/verbs.ts. */
import { Option } from "@commander-js/extra-typings";
import { parseBucketKey, parseObjectKey } from "../../aps/ids.ts";
import {
  runObjectDelete,
  runObjectInfo,
  runObjectSignedUrl,
  runObjectUrn,
  SIGNED_ACCESS,
} from "./verbs.ts";
import { runObjectUpload } from "./upload.ts";
import { emitBatch } from "../../command/batch_output.ts";
import { type AnyCommand, type ContextFactory, declareCommand, examples, positiveNumber } from "../../command/command.ts";
import { OBJECT_DOWNLOAD, OBJECT_LIST } from "../../command/declarations.ts";
import { objectDownloadAction, objectListAction } from "../../front/hot_actions.ts";
import { byteBar } from "../../command/progress.ts";

/** Registers the object family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  // long: the family's verbs, each a short commander declaration over families/object/verbs.ts, read in one place
  const object = program.command("object").alias("objects")
    .description("upload, download, list and share objects in buckets");
  examples(object, ["diazo object upload myco-models house.rvt", "diazo object list myco-models"]);

  const upload = object.command("upload").alias("put")
    .description(
      "upload files (multipart, parallel, resumable; SHA-1 checked); the global --concurrency bounds parallel parts",
    )
    .argument("<bucketKey>", "the bucket", parseBucketKey)
    .argument("<files...>", "files (and with --batch, directories)")
    .option("-k, --key <objectKey>", "object key (one file; default its file name)", parseObjectKey)
    .option("--prefix <prefix>", "prefix added to every key, e.g. models/")
    .option(
      "--batch",
      "upload many files or whole directories, with a summary; failures do not stop the rest",
    )
    .option("--resume", "continue an interrupted upload of the same file, skipping stored parts")
    .option("--part-size <MiB>", "part size in MiB (5-512; default 8)", positiveNumber("--part-size", false))
    .action(async (bucketKey, files, opts, cmd) => {
      const ctx = makeCtx(cmd);
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
    });
  examples(upload, [
    "diazo object upload myco-models house.rvt",
    "diazo object upload myco-models big.ifc --part-size 16 --concurrency 8",
    "diazo object upload myco-models big.ifc --resume",
    "diazo object upload myco-models ./drawings --batch --prefix 2026/",
  ]);

  declareCommand(
    object,
    OBJECT_LIST,
    (bucketKey, opts, cmd) => objectListAction(makeCtx(cmd), bucketKey, opts),
  );
  declareCommand(
    object,
    OBJECT_DOWNLOAD,
    (bucketKey, objectKeys, opts, cmd) => objectDownloadAction(makeCtx(cmd), bucketKey, objectKeys, opts),
  );

  const info = object.command("info")
    .description("show an object's details (size, SHA-1, dates) and its URN")
    .argument("<bucketKey>", "the bucket", parseBucketKey)
    .argument("<objectKey>", "the object key", parseObjectKey)
    .action(async (bucketKey, objectKey, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runObjectInfo({ bucketKey, objectKey }, ctx));
    });
  examples(info, ["diazo object info myco-models house.rvt"]);

  const del = object.command("delete").alias("rm")
    .description("delete an object")
    .argument("<bucketKey>", "the bucket", parseBucketKey)
    .argument("<objectKey>", "the object key", parseObjectKey)
    .action(async (bucketKey, objectKey, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      const deleted = await runObjectDelete(
        { bucketKey, objectKey, confirm: (q) => ctx.confirmOrCancel(q) },
        ctx,
      );
      if (deleted) await ctx.emit(deleted, { action: `Deleted ${bucketKey}/${objectKey}` });
    });
  examples(del, ["diazo object delete myco-models old.rvt --yes"]);

  const signed = object.command("signed-url").alias("share")
    .description("create a URL that reads (or writes) the object without credentials until it expires")
    .argument("<bucketKey>", "the bucket", parseBucketKey)
    .argument("<objectKey>", "the object key", parseObjectKey)
    .option("--minutes <n>", "lifetime in minutes (1-60)", positiveNumber("--minutes", true), 60)
    .addOption(
      new Option("--access <access>", "what the URL allows").choices(SIGNED_ACCESS).default("read" as const),
    )
    .option("--single-use", "the URL works once")
    .action(async (bucketKey, objectKey, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const res = await runObjectSignedUrl({ bucketKey, objectKey, ...opts }, ctx);
      await ctx.emit(res, { columns: ["signedUrl", "expiresAt", "singleUse"] });
    });
  examples(signed, ["diazo object signed-url myco-models house.rvt --minutes 10 --query signedUrl -o json"]);

  const urn = object.command("urn")
    .description("print an object's id and base64 URN (computed locally, no request)")
    .argument("<bucketKey>", "the bucket", parseBucketKey)
    .argument("<objectKey>", "the object key", parseObjectKey)
    .action(async (bucketKey, objectKey, _opts, cmd) => {
      await makeCtx(cmd).emit(runObjectUrn({ bucketKey, objectKey }));
    });
  examples(urn, ["diazo object urn myco-models house.rvt --query urn -o json"]);
}
