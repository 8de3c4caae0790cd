/** `diazo auth scopes|inspect-token|test-scope|test-scopes|extend-scopes|reduce-scopes`. */
import { profileScopes, requireCredentials, twoLeggedToken } from "../auth/two_legged.ts";
import { DiazoError, isDiazoError, usageError } from "../core/errors.ts";
import { decodeJwt, jwtScopes } from "../aps/jwt.ts";
import { registerSecret } from "../core/redact.ts";
import { AUTH_MODES, type ScopeInfo, SCOPES } from "../aps/scopes.ts";
import { createHttp } from "../services/http.ts";
import { checkedScopes } from "./auth_login.ts";
import { type AnyCommand, type ContextFactory, examples } from "./command.ts";
import type { Ctx } from "./context.ts";

async function tokenWith(ctx: Ctx, scopes: readonly string[]) {
  const resolved = await ctx.settings();
  requireCredentials(resolved);
  return await twoLeggedToken(
    { resolved, store: await ctx.tokenStore(), authHttp: await ctx.http({ auth: "none" }) },
    { force: true, scopes },
  );
}

async function changeScopes(ctx: Ctx, change: (current: string[]) => string[]) {
  const resolved = await ctx.settings();
  const before = profileScopes(resolved);
  const after = [...new Set(change(before))].sort();
  if (after.length === 0) {
    throw usageError("a profile needs at least one scope", "Keep at least one, e.g. bucket:read.");
  }
  // Prove the app may hold them before saving.
  await tokenWith(ctx, after);
  const cfg = structuredClone(await ctx.config());
  (cfg.profiles[resolved.profileName] ??= {}).scopes = after;
  cfg.active_profile ??= resolved.profileName;
  await ctx.saveConfig(cfg);
  return { profile: resolved.profileName, before, after };
}

/** One row of `auth scopes`: the platform's grant and diazo's advice side by side (SPEC.md §5). */
function scopeRow(s: ScopeInfo) {
  return {
    scope: s.name,
    granted_by_platform: s.granted.join(", "),
    recommended_by_diazo: AUTH_MODES.map((m) => `${m}: ${s.recommended[m]}`).join(", "),
    purpose: s.purpose,
    note: s.note ?? "",
  };
}

/** Registers the scope-related auth commands. */
export function registerScopeCommands(auth: AnyCommand, makeCtx: ContextFactory): void {
  const scopes = auth.command("scopes").description(
    "the platform's scopes: what each is for, the modes the platform grants it in, and what diazo recommends",
  )
    .action(async (_o, cmd) => {
      await makeCtx(cmd).emit(SCOPES.map(scopeRow), {
        columns: ["scope", "granted_by_platform", "recommended_by_diazo", "purpose", "note"],
      });
    });
  examples(scopes, [
    "diazo auth scopes",
    "diazo auth scopes -o json --query \"[?contains(granted_by_platform, '2-legged')].scope\"",
  ]);

  const inspect = auth.command("inspect-token")
    .description(
      "decode a token: scopes, client id, user, expiry (the cached one by default; '-' reads stdin)",
    )
    .option("--token <jwt>", "the token to decode, or - to read it from stdin")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      let token = opts.token;
      if (token === "-") token = (await ctx.io.stdin.readText()).trim();
      if (!token) {
        const resolved = await ctx.settings();
        const stored = Object.values(await (await ctx.tokenStore()).list(resolved.profileName))
          .sort((
            a,
            b,
          ) => (a.mode === b.mode ? b.expires_at - a.expires_at : a.mode === "3-legged" ? -1 : 1))[0];
        if (!stored) {
          throw usageError(
            "no cached token to inspect",
            "Pass --token <jwt>, or run `diazo auth test` or `diazo auth login` first.",
          );
        }
        token = stored.access_token;
      }
      registerSecret(token);
      const { header, payload } = decodeJwt(token);
      const exp = typeof payload.exp === "number" ? payload.exp : undefined;
      const now = Math.floor(Date.now() / 1000);
      await ctx.emit({
        header,
        payload,
        scopes: jwtScopes(payload),
        client_id: payload.client_id ?? null,
        userid: payload.userid ?? null,
        mode: payload.userid ? "3-legged" : "2-legged",
        expires_at: exp ? new Date(exp * 1000).toISOString() : null,
        expires_in_seconds: exp ? exp - now : null,
        expired: exp ? exp <= now : null,
      });
    });
  examples(inspect, ["diazo auth inspect-token", 'echo "$TOKEN" | diazo auth inspect-token --token -']);

  const testScope = auth.command("test-scope")
    .description("check that the app can obtain a 2-legged token with a scope")
    .argument("<scope>", "a scope name, e.g. bucket:read")
    .action(async (scope, _o, cmd) => {
      const ctx = makeCtx(cmd);
      const [s] = checkedScopes(scope, "2-legged", (m) => ctx.warn(m));
      try {
        const { token } = await tokenWith(ctx, [s]);
        await ctx.emit({ scope: s, granted: token.scopes.includes(s), mode: token.mode });
      } catch (e) {
        if (isDiazoError(e) && e.code === "bad_request") {
          throw new DiazoError("insufficient_scope", {
            params: { scope: s },
            status: e.status,
            body: e.body,
          });
        }
        throw e;
      }
    });
  examples(testScope, ["diazo auth test-scope bucket:delete"]);

  const testScopes = auth.command("test-scopes")
    .description("call an endpoint with a token that has exactly the given scopes")
    .requiredOption("--scopes <list>", "scopes of the test token")
    .requiredOption("--endpoint <path>", "a GET path, e.g. /oss/v2/buckets")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const list = checkedScopes(opts.scopes, "2-legged", (m) => ctx.warn(m));
      if (!opts.endpoint.startsWith("/")) {
        throw usageError(
          `--endpoint must be a path starting with /, got '${opts.endpoint}'`,
          "Example: --endpoint /oss/v2/buckets",
        );
      }
      const { token } = await tokenWith(ctx, list);
      const resolved = await ctx.settings();
      const http = createHttp({
        baseUrl: resolved.baseUrl.value,
        timeoutMs: resolved.timeoutSec * 1000,
        maxAttempts: resolved.maxAttempts,
        retryBaseMs: resolved.retryBaseMs,
        token: () => Promise.resolve(token.access_token),
        debug: ctx.flags.debug ? (l) => ctx.debug(l) : undefined,
      });
      const res = await http.request({ path: opts.endpoint, scope: list.join(" "), responseType: "none" });
      await ctx.emit({ scopes: list, endpoint: opts.endpoint, status: res.status, ok: true });
    });
  examples(testScopes, ["diazo auth test-scopes --scopes bucket:read --endpoint /oss/v2/buckets"]);

  const extend = auth.command("extend-scopes").description("add scopes to the profile's 2-legged tokens")
    .requiredOption("--add <list>", "scopes to add")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const add = checkedScopes(opts.add, "2-legged", (m) => ctx.warn(m));
      await ctx.emit(await changeScopes(ctx, (cur) => [...cur, ...add]));
    });
  examples(extend, ["diazo auth extend-scopes --add bucket:delete,data:write"]);

  const reduce = auth.command("reduce-scopes").description("remove scopes from the profile's 2-legged tokens")
    .requiredOption("--remove <list>", "scopes to remove")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const remove = new Set(checkedScopes(opts.remove, "2-legged"));
      await ctx.emit(await changeScopes(ctx, (cur) => cur.filter((s) => !remove.has(s))));
    });
  examples(reduce, ["diazo auth reduce-scopes --remove bucket:delete"]);
}
