/**
 * The actions of the hot commands (`bucket list`, `object list`, `object download`, `auth status`),
 * apart from their commander declarations so that the hot path (hot.ts) runs the very same code
 * without loading commander: the families' `.action(...)` and the hot path both call these. Each
 * loads only its own verb's module (families/object/download.ts, for one, brings node:crypto, which costs
 * a run ~20 ms of CPU; a list loads none).
 */
import { type BucketKey, parseObjectKey } from "../aps/ids.ts";
import type { BUCKET_REGIONS } from "../aps/regions.ts";
import { usageError } from "../core/errors.ts";
import { emitBatch } from "../command/batch_output.ts";
import type { Ctx } from "../command/context.ts";
import { byteBar } from "../command/progress.ts";

/** `bucket list` / `oss list`: every region (or one), every page unless --limit. */
export async function bucketListAction(
  ctx: Ctx,
  opts: { region?: (typeof BUCKET_REGIONS)[number]; limit?: number },
): Promise<void> {
  const { runBucketList } = await import("../families/bucket/verbs.ts");
  const page = await runBucketList({ region: opts.region, limit: opts.limit }, ctx);
  await ctx.emit(page.items, { columns: ["bucketKey", "policyKey", "region", "createdAt"] });
}

/** `object list <bucketKey>`: every page unless --limit. */
export async function objectListAction(
  ctx: Ctx,
  bucketKey: BucketKey,
  opts: { prefix?: string; limit?: number },
): Promise<void> {
  const { runObjectList } = await import("../families/object/verbs.ts");
  const page = await runObjectList({ bucketKey, prefix: opts.prefix, limit: opts.limit }, ctx);
  await ctx.emit(page.items, { columns: ["objectKey", "size", "sha1"] });
}

/** What `object download` takes besides the bucket and keys. */
export interface ObjectDownloadFlags {
  out?: string;
  prefix?: string;
  force?: boolean;
  resume?: boolean;
}

/** `object download <bucketKey> [objectKeys...]`: one object to a file or stdout, or several (batch-signed). */
export async function objectDownloadAction(
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
    const { runObjectDownloadMany } = await import("../families/object/download_batch.ts");
    const many = await runObjectDownloadMany({ bucketKey, objectKeys: keys, ...opts, signal }, ctx);
    const columns = ["status", "objectKey", "file", "size", "error"];
    return await emitBatch(ctx, many.outcomes, many.summary, columns, (o) => o.objectKey);
  }
  const { runObjectDownload } = await import("../families/object/download.ts");
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

/** `auth status`: the credentials in use and the cached tokens, or with --scopes the scope table. */
export async function authStatusAction(
  ctx: Ctx,
  opts: { scopes?: boolean; verbose?: boolean },
): Promise<void> {
  const { runAuthStatus, scopeStatus } = await import("../families/auth/verbs.ts");
  const { statusSummary } = await import("../families/auth/status_text.ts");
  const st = await runAuthStatus({ verbose: opts.verbose }, ctx);
  // As `gh auth status`: scripts read exit 1 as "not logged in" (no app credentials, no user login).
  if (!st.usable) ctx.setExitCode(1);
  if (opts.scopes) {
    ctx.info(statusSummary(st));
    await ctx.emit(scopeStatus(st), { columns: ["scope", "in_profile", "in_valid_token", "purpose"] });
  } else {
    await ctx.emit(st, { action: statusSummary(st) });
  }
}
