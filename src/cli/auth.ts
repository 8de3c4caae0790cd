/** `diazo auth ...`: credentials and tokens (2-legged part). */
import { mask } from "../config/config.ts";
import { fileTokenStore } from "../auth/token_store.ts";
import { decodeJwt, jwtUserId } from "../aps/jwt.ts";
import { scopeInfo } from "../aps/scopes.ts";
import { profileScopes, requireCredentials, twoLeggedToken } from "../auth/two_legged.ts";
import { type AnyCommand, type ContextFactory, examples } from "./command.ts";
import { runLogin } from "./auth_login.ts";
import { revokeToken, userInfo, USERINFO_URL } from "../services/authentication.ts";
import { registerScopeCommands } from "./auth_scopes.ts";
import { registerReportCommands } from "./auth_report.ts";

function safeClaims(token: string): Record<string, unknown> | null {
  try {
    return decodeJwt(token).payload;
  } catch {
    return null;
  }
}

/** Registers the auth family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const auth = program.command("auth").description("log in, test and inspect credentials and tokens");

  const login = auth.command("login")
    .description("log in: 3-legged with PKCE in the browser (default), 2-legged, or as a service account")
    .option("--3legged", "log in as a user (authorization code with PKCE)")
    .option("--2legged", "use the app's own identity; stores the chosen --scopes in the profile")
    .option("--scopes <list>", "scopes, comma or space separated")
    .option("--no-browser", "print the URL and read the pasted redirect URL (or code) from stdin")
    .option("--device", "device authorization (RFC 8628) where the platform offers it")
    .option("--service-account <id>", "log in as a service account (JWT-bearer grant)")
    .option("--key-file <pem>", "private key of the service account")
    .option("--key-id <kid>", "id of the service account key")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const o = opts as Record<string, unknown>;
      await ctx.emit(
        await runLogin(ctx, {
          twoLegged: Boolean(o["2legged"]),
          threeLegged: Boolean(o["3legged"]),
          scopes: opts.scopes,
          browser: opts.browser,
          device: opts.device,
          serviceAccount: opts.serviceAccount,
          keyFile: opts.keyFile,
          keyId: opts.keyId,
        }),
      );
    });
  examples(login, [
    "diazo auth login",
    "diazo auth login --no-browser --scopes data:read,account:read",
    "diazo auth login --2legged --scopes bucket:read,bucket:create,data:read",
    "diazo auth login --service-account SA_ID --key-file sa.pem",
  ]);

  const test = auth.command("test")
    .description("request a fresh 2-legged token to prove the credentials work")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      const resolved = await ctx.settings();
      const { clientId } = requireCredentials(resolved);
      const { token } = await twoLeggedToken(
        { resolved, store: await ctx.tokenStore(), authHttp: await ctx.http({ auth: "none" }) },
        { force: true },
      );
      ctx.info(`Authenticated: client ${clientId} at ${resolved.baseUrl.value}`);
      await ctx.emit({
        ok: true,
        mode: token.mode,
        profile: resolved.profileName,
        client_id: clientId,
        client_id_source: resolved.clientId.from ?? resolved.clientId.source,
        base_url: resolved.baseUrl.value,
        scopes: token.scopes,
        expires_at: new Date(token.expires_at).toISOString(),
      });
    });
  examples(test, ["diazo auth test", "SVC_CLIENT_ID=... SVC_CLIENT_SECRET=... diazo auth test -o json"]);

  const status = auth.command("status")
    .description("show the credentials in use and the cached tokens of the profile")
    .option("--scopes", "show only the scopes: the profile's, each token's, and what each scope is for")
    .option("--verbose", "also show each token's decoded claims")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const resolved = await ctx.settings();
      const now = Date.now();
      const store = await ctx.tokenStore();
      const storeStatus = await ctx.tokenStoreStatus();
      const tokens = Object.values(await store.list(resolved.profileName)).map((t) => ({
        mode: t.mode,
        user: t.mode === "3-legged" ? jwtUserId(t.access_token) : null,
        client_id: t.client_id,
        base_url: t.base_url,
        token: mask(t.access_token),
        source: store.kind,
        scopes: t.scopes,
        expires_at: new Date(t.expires_at).toISOString(),
        expired: t.expires_at <= now,
      }));
      const logged = tokens.some((t) => !t.expired);
      ctx.info(
        resolved.clientId.value
          ? `Profile ${resolved.profileName}: client ${resolved.clientId.value} (${
            resolved.clientId.from ?? resolved.clientId.source
          }), ${logged ? "a valid token is cached" : "no valid token cached"}`
          : `Profile ${resolved.profileName}: no credentials configured (see \`diazo config profile create --help\`)`,
      );
      if (opts.scopes) {
        const held = new Set(tokens.filter((t) => !t.expired).flatMap((t) => t.scopes));
        await ctx.emit(
          [...new Set([...profileScopes(resolved), ...held])].sort().map((s) => ({
            scope: s,
            in_profile: profileScopes(resolved).includes(s),
            in_valid_token: held.has(s),
            purpose: scopeInfo(s)?.purpose ?? "",
          })),
          { columns: ["scope", "in_profile", "in_valid_token", "purpose"] },
        );
        return;
      }
      if (opts.verbose) {
        const raw = Object.values(await store.list(resolved.profileName));
        tokens.forEach((t, i) => Object.assign(t, { claims: safeClaims(raw[i].access_token) }));
      }
      await ctx.emit({
        profile: resolved.profileName,
        base_url: resolved.baseUrl.value,
        client_id: resolved.clientId.value ?? null,
        client_id_source: resolved.clientId.from ?? resolved.clientId.source,
        client_secret: resolved.clientSecret.value ? mask(resolved.clientSecret.value) : null,
        client_secret_source: resolved.clientSecret.from ?? resolved.clientSecret.source,
        scopes: profileScopes(resolved),
        token_store: storeStatus,
        tokens,
      });
    });
  examples(status, ["diazo auth status", "diazo auth status -o json --query 'tokens[].expires_at'"]);

  const logout = auth.command("logout")
    .description("revoke the profile's tokens at the platform and remove them from every store")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      const resolved = await ctx.settings();
      const store = await ctx.tokenStore();
      const tokens = Object.values(await store.list(resolved.profileName));
      // Revoke at the platform first (best effort: an unreachable platform must not keep tokens here).
      let revoked = 0;
      if (resolved.clientId.value) {
        const http = await ctx.http({ auth: "none" });
        const client = { clientId: resolved.clientId.value, clientSecret: resolved.clientSecret.value };
        for (const t of tokens.filter((t) => t.base_url === resolved.baseUrl.value)) {
          for (
            const [token, hint] of [[t.refresh_token, "refresh_token"], [
              t.access_token,
              "access_token",
            ]] as const
          ) {
            if (!token) continue;
            try {
              await revokeToken(http, { ...client, token, hint });
              revoked++;
            } catch (e) {
              ctx.warn(`could not revoke a ${hint} at the platform: ${(e as Error).message}`);
            }
          }
        }
      }
      let removed = await store.removeProfile(resolved.profileName);
      // Remove them "everywhere": a file left from before the keychain was usable, too.
      if (store.kind !== "file") {
        removed += await fileTokenStore(ctx.configDir).removeProfile(resolved.profileName);
      }
      ctx.info(
        removed
          ? `Logged out of profile ${resolved.profileName}`
          : `No tokens were cached for profile ${resolved.profileName}`,
      );
      await ctx.emit({ profile: resolved.profileName, removed, revoked });
    });
  examples(logout, ["diazo auth logout", "diazo auth logout --profile work"]);

  const whoami = auth.command("whoami").description("the logged-in user's profile (needs a 3-legged login)")
    .action(async (_o, cmd) => {
      const ctx = makeCtx(cmd);
      const resolved = await ctx.settings();
      const http = await ctx.http({ mode: "3-legged" });
      // The platform serves userinfo on its own host; a sandbox or proxy serves it on the base URL.
      const url = resolved.baseUrl.source === "default" ? USERINFO_URL : `${resolved.baseUrl.value}/userinfo`;
      await ctx.emit(await userInfo(http, url));
    });
  examples(whoami, ["diazo auth whoami", "diazo auth whoami -o json --query email"]);

  registerScopeCommands(auth, makeCtx);
  registerReportCommands(auth, makeCtx);
}
