/** `diazo object ...`: objects in buckets — uploads, downloads, listing, details, sharing. */
import { Option } from "@commander-js/extra-typings";
import { usageError } from "../core/errors.ts";
import { encodeUrn, objectIdOf } from "../aps/urn.ts";
import { downloadObject, downloadTarget } from "../services/download.ts";
import { validateBucketKey } from "../services/oss.ts";
import {
  createSignedUrl,
  deleteObject,
  getObject,
  listObjects,
  SIGNED_ACCESS,
  withObjectHelpers,
} from "../services/oss_objects.ts";
import { partSizeBytes, statFile, uploadFile } from "../services/upload.ts";
import { type BatchOutcome, expandInputs, missingOutcome, uploadBatch } from "../services/upload_batch.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "./command.ts";
import type { Ctx } from "./context.ts";
import { byteProgress } from "./progress.ts";

const UPLOAD_COLUMNS = ["objectKey", "size", "sha1", "urn"];

async function runUpload(
  ctx: Ctx,
  bucketKey: string,
  files: string[],
  opts: { key?: string; prefix?: string; batch?: boolean; resume?: boolean; partSize?: number },
): Promise<void> {
  validateBucketKey(bucketKey);
  const partSize = opts.partSize === undefined ? undefined : partSizeBytes(opts.partSize);
  if (opts.key !== undefined && (files.length > 1 || opts.batch)) {
    throw usageError("--key names one object", "Use --prefix to put a batch under a common key prefix.");
  }
  const settings = await ctx.settings();
  const http = await ctx.http();
  const common = {
    bucketKey,
    concurrency: settings.concurrency,
    partSize,
    resume: opts.resume,
    stateDir: ctx.stateDir,
    cwd: ctx.cwd,
    debug: ctx.flags.debug ? (line: string) => ctx.debug(line) : undefined,
  };
  const started = performance.now();
  if (!opts.batch && files.length === 1) {
    const info = await statFile(files[0], ctx.cwd);
    const name = opts.key ?? (opts.prefix ?? "") + files[0].split(/[\\/]/).pop();
    const bar = await byteProgress(ctx, name, info.size);
    try {
      const result = await uploadFile(http, {
        ...common,
        file: files[0],
        objectKey: name,
        onProgress: (done) => bar.update(done),
      });
      bar.stop();
      const secs = (performance.now() - started) / 1000;
      ctx.info(
        `Uploaded ${
          files[0]
        } to ${bucketKey}/${result.objectKey} (${result.size} bytes, ${result.parts} part(s)${
          result.partsSkipped ? `, ${result.partsSkipped} resumed` : ""
        }, ${(result.size / 1048576 / Math.max(secs, 0.001)).toFixed(1)} MiB/s)`,
      );
      await ctx.emit(withObjectHelpers(result), { columns: UPLOAD_COLUMNS });
    } finally {
      bar.stop();
    }
    return;
  }

  const { entries, missing } = await expandInputs(files, opts.prefix ?? "", ctx.cwd);
  if (!opts.batch && entries.length !== files.length - missing.length) {
    throw usageError("a directory was given", "Upload directories with --batch.");
  }
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  const bar = await byteProgress(ctx, `${entries.length} files`, total);
  let sent = 0;
  let outcomes: BatchOutcome[];
  try {
    outcomes = await uploadBatch(http, entries, {
      ...common,
      onBytes: (n) => bar.update(sent += n),
      onFileDone: (o) => {
        if (o.status === "failed") ctx.warn(`failed: ${o.file}: ${o.error}`);
      },
    });
  } finally {
    bar.stop();
  }
  outcomes.push(...missing.map(missingOutcome));
  const failed = outcomes.filter((o) => o.status === "failed");
  const bytes = outcomes.reduce((s, o) => s + (o.status === "ok" ? o.size : 0), 0);
  const secs = (performance.now() - started) / 1000;
  ctx.info(
    `Uploaded ${outcomes.length - failed.length} of ${outcomes.length} files (${
      (bytes / 1048576).toFixed(1)
    } MiB) in ${secs.toFixed(1)} s${failed.length ? `; ${failed.length} failed` : ""}`,
  );
  for (const f of failed) if (f.status === "failed") ctx.setExitCode(f.exitCode);
  await ctx.emit(
    outcomes.map((o) => o.status === "ok" ? withObjectHelpers(o) : o),
    { columns: ["status", "file", "objectKey", "size", "sha1", "error"] },
  );
}

/** Registers the object family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const object = program.command("object").alias("objects")
    .description("upload, download, list and share objects in buckets");

  const upload = object.command("upload").alias("put")
    .description(
      "upload files (multipart, parallel, resumable; SHA-1 checked); the global --concurrency bounds parallel parts",
    )
    .argument("<bucketKey>", "the bucket")
    .argument("<files...>", "files (and with --batch, directories)")
    .option("-k, --key <objectKey>", "object key (one file; default its file name)")
    .option("--prefix <prefix>", "prefix added to every key, e.g. models/")
    .option(
      "--batch",
      "upload many files or whole directories, with a summary; failures do not stop the rest",
    )
    .option("--resume", "continue an interrupted upload of the same file, skipping stored parts")
    .option("--part-size <MiB>", "part size in MiB (5-512; default 8)", positiveNumber("--part-size", false))
    .action(async (bucketKey, files, opts, cmd) => {
      await runUpload(makeCtx(cmd), bucketKey, files, opts);
    });
  examples(upload, [
    "diazo object upload myco-models house.rvt",
    "diazo object upload myco-models big.ifc --part-size 16 --concurrency 8",
    "diazo object upload myco-models big.ifc --resume",
    "diazo object upload myco-models ./drawings --batch --prefix 2026/",
  ]);

  const list = object.command("list").alias("ls")
    .description("list a bucket's objects, following every page")
    .argument("<bucketKey>", "the bucket")
    .option("--prefix <prefix>", "only keys starting with this")
    .option("--limit <n>", "stop after n objects", positiveNumber("--limit", true))
    .action(async (bucketKey, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const http = await ctx.http();
      const items = [];
      for await (const o of listObjects(http, bucketKey, opts)) items.push(withObjectHelpers(o));
      await ctx.emit(items, { columns: ["objectKey", "size", "sha1"] });
    });
  examples(list, ["diazo object list myco-models", "diazo object list myco-models --prefix 2026/ -o json"]);

  const download = object.command("download").alias("get")
    .description("download an object (streamed, SHA-1 checked; never writes outside the target directory)")
    .argument("<bucketKey>", "the bucket")
    .argument("<objectKey>", "the object key")
    .option(
      "-o, --out <path>",
      "file, or directory (existing, or ending in /) to write into; default the current directory",
    )
    .option("--force", "overwrite an existing file")
    .action(async (bucketKey, objectKey, opts, cmd) => {
      const ctx = makeCtx(cmd);
      validateBucketKey(bucketKey);
      const target = await downloadTarget(ctx.cwd, objectKey, opts.out);
      const http = await ctx.http();
      const bar = await byteProgress(ctx, objectKey, 0);
      try {
        const got = await downloadObject(http, {
          bucketKey,
          objectKey,
          target,
          overwrite: opts.force,
          onProgress: (done, total) => bar.update(done, total),
          debug: ctx.flags.debug ? (l) => ctx.debug(l) : undefined,
        });
        bar.stop();
        ctx.info(`Downloaded ${bucketKey}/${objectKey} to ${got.file} (${got.size} bytes, SHA-1 verified)`);
        await ctx.emit({ bucketKey, objectKey, ...got });
      } finally {
        bar.stop();
      }
    });
  examples(download, [
    "diazo object download myco-models house.rvt",
    "diazo object download myco-models plans/a.dwg -o ./out/",
  ]);

  const info = object.command("info")
    .description("show an object's details (size, SHA-1, dates) and its URN")
    .argument("<bucketKey>", "the bucket")
    .argument("<objectKey>", "the object key")
    .action(async (bucketKey, objectKey, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(withObjectHelpers(await getObject(await ctx.http(), bucketKey, objectKey)));
    });
  examples(info, ["diazo object info myco-models house.rvt"]);

  const del = object.command("delete").alias("rm")
    .description("delete an object")
    .argument("<bucketKey>", "the bucket")
    .argument("<objectKey>", "the object key")
    .action(async (bucketKey, objectKey, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      validateBucketKey(bucketKey);
      const http = await ctx.http();
      if (!(await ctx.confirmOrCancel(`Delete ${bucketKey}/${objectKey}?`))) return;
      await deleteObject(http, bucketKey, objectKey);
      ctx.info(`Deleted ${bucketKey}/${objectKey}`);
      await ctx.emit({ bucketKey, objectKey, deleted: true });
    });
  examples(del, ["diazo object delete myco-models old.rvt --yes"]);

  const signed = object.command("signed-url").alias("share")
    .description("create a URL that reads (or writes) the object without credentials until it expires")
    .argument("<bucketKey>", "the bucket")
    .argument("<objectKey>", "the object key")
    .option("--minutes <n>", "lifetime in minutes (1-60)", positiveNumber("--minutes", true), 60)
    .addOption(
      new Option("--access <access>", "what the URL allows").choices(SIGNED_ACCESS).default("read" as const),
    )
    .option("--single-use", "the URL works once")
    .action(async (bucketKey, objectKey, opts, cmd) => {
      const ctx = makeCtx(cmd);
      if (opts.minutes > 60) {
        throw usageError(`--minutes ${opts.minutes} is above 60`, "Signed URLs live 1 to 60 minutes.");
      }
      const res = await createSignedUrl(await ctx.http(), bucketKey, objectKey, {
        minutes: opts.minutes,
        access: opts.access,
        singleUse: opts.singleUse,
      });
      await ctx.emit({
        ...res,
        ...(typeof res.expiration === "number" ? { expiresAt: new Date(res.expiration).toISOString() } : {}),
      }, { columns: ["signedUrl", "expiresAt", "singleUse"] });
    });
  examples(signed, ["diazo object signed-url myco-models house.rvt --minutes 10 --query signedUrl -o json"]);

  const urn = object.command("urn")
    .description("print an object's id and base64 URN (computed locally, no request)")
    .argument("<bucketKey>", "the bucket")
    .argument("<objectKey>", "the object key")
    .action(async (bucketKey, objectKey, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      validateBucketKey(bucketKey);
      if (objectKey === "") {
        throw usageError("the object key is empty", "Pass the object's key, e.g. model.obj.");
      }
      const objectId = objectIdOf(bucketKey, objectKey);
      await ctx.emit({ bucketKey, objectKey, objectId, urn: encodeUrn(objectId) });
    });
  examples(urn, ["diazo object urn myco-models house.rvt --query urn -o json"]);
}
