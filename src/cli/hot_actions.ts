/**
 * The actions of the hot commands (`bucket list`, `object list`, `auth status`), apart from their
 * commander declarations so that the hot path (hot.ts) runs the very same code without loading
 * commander: the families' `.action(...)` and the hot path both call these. Each loads only its own
 * verb's module (ops/object.ts, for one, brings node:crypto, which costs a run ~20 ms of CPU).
 */
import type { BucketKey } from "../aps/ids.ts";
import type { BUCKET_REGIONS } from "../aps/regions.ts";
import type { Ctx } from "./context.ts";

/** `bucket list` / `oss list`: every region (or one), every page unless --limit. */
export async function bucketListAction(
  ctx: Ctx,
  opts: { region?: (typeof BUCKET_REGIONS)[number]; limit?: number },
): Promise<void> {
  const { runBucketList } = await import("../ops/bucket.ts");
  const page = await runBucketList({ region: opts.region, limit: opts.limit }, ctx);
  await ctx.emit(page.items, { columns: ["bucketKey", "policyKey", "region", "createdAt"] });
}

/** `object list <bucketKey>`: every page unless --limit. */
export async function objectListAction(
  ctx: Ctx,
  bucketKey: BucketKey,
  opts: { prefix?: string; limit?: number },
): Promise<void> {
  const { runObjectList } = await import("../ops/object.ts");
  const page = await runObjectList({ bucketKey, prefix: opts.prefix, limit: opts.limit }, ctx);
  await ctx.emit(page.items, { columns: ["objectKey", "size", "sha1"] });
}

/** `auth status`: the credentials in use and the cached tokens, or with --scopes the scope table. */
export async function authStatusAction(
  ctx: Ctx,
  opts: { scopes?: boolean; verbose?: boolean },
): Promise<void> {
  const { runAuthStatus, scopeStatus } = await import("../ops/auth.ts");
  const st = await runAuthStatus({ verbose: opts.verbose }, ctx);
  const logged = st.tokens.some((t) => !t.expired);
  ctx.info(
    st.client_id
      ? `Profile ${st.profile}: client ${st.client_id} (${st.client_id_source}), ${
        logged ? "a valid token is cached" : "no valid token cached"
      }`
      : `Profile ${st.profile}: no credentials configured (see \`diazo config profile create --help\`)`,
  );
  if (opts.scopes) {
    await ctx.emit(scopeStatus(st), { columns: ["scope", "in_profile", "in_valid_token", "purpose"] });
  } else {
    await ctx.emit(st);
  }
}
