/**
 * The auth verbs that read or drop the profile's logins: `auth test`, `auth status`, `auth logout`,
 * `auth whoami`, and the app token other verbs (view, demo, the scope verbs) ask for. The CLI and
 * the tool server call the same functions; nothing here writes to stdout.
 */
import { mask } from "../../config/config.ts";
import { checkProfileExists } from "../../config/profile_check.ts";
import { decodeJwt, jwtUserId } from "../../aps/jwt.ts";
import { scopeInfo } from "../../aps/scopes.ts";
import {
  fileTokenStore,
  type StoredToken,
  type TokenStore,
  type TokenStoreStatus,
} from "../../auth/token_store.ts";
import { memoryTokenStore } from "../../auth/token_memory.ts";
import { profileScopes, requireCredentials, twoLeggedToken } from "../../auth/two_legged.ts";
import { revokeToken, userInfo, USERINFO_URL } from "../../auth/authentication.ts";
import type { ConfigDeps } from "../config/verbs.ts";
import type { OpsDeps } from "../../session/deps.ts";

/** What the verbs that read or change the profile itself need beyond {@link OpsDeps} (the CLI's context has it). */
export interface ProfileDeps extends OpsDeps, ConfigDeps {
  /** The environment of the run (legacy FORGE_* names, DIAZO_NO_BROWSER, the support report). */
  readonly env: Record<string, string | undefined>;
  /** Where config.json (and the file token store) live. */
  readonly configDir: string;
}

/** The profile's 2-legged token: from the cache unless `force`, with the profile's scopes unless `scopes`. */
export async function appToken(
  deps: OpsDeps,
  opts: { force?: boolean; scopes?: readonly string[] } = {},
): Promise<StoredToken> {
  const resolved = await deps.settings();
  // "Missing credentials" comes before the token store is opened (and before its notices).
  requireCredentials(resolved);
  const store = await deps.tokenStore();
  const authHttp = await deps.http({ auth: "none" });
  return (await twoLeggedToken({ resolved, store, authHttp, stateDir: deps.stateDir }, opts)).token;
}

/** A token store that keeps nothing after the run: for a sandbox's tokens, which must not reach the keychain. */
export function throwawayTokenStore(): TokenStore {
  return memoryTokenStore();
}

/** The scopes the profile's 2-legged tokens are requested with. */
export async function appScopes(deps: OpsDeps): Promise<string[]> {
  return profileScopes(await deps.settings());
}

/** What `auth test` returns. */
export interface AuthTestResult {
  ok: true;
  mode: string;
  profile: string;
  client_id: string;
  client_id_source: string;
  base_url: string;
  scopes: string[];
  expires_at: string;
}

/** `auth test`: a fresh 2-legged token proves the client id and secret work. */
export async function runAuthTest(_opts: Record<string, never>, deps: OpsDeps): Promise<AuthTestResult> {
  const resolved = await deps.settings();
  const { clientId } = requireCredentials(resolved);
  const token = await appToken(deps, { force: true });
  return {
    ok: true,
    mode: token.mode,
    profile: resolved.profileName,
    client_id: clientId,
    client_id_source: resolved.clientId.from ?? resolved.clientId.source,
    base_url: resolved.baseUrl.value,
    scopes: token.scopes,
    expires_at: new Date(token.expires_at).toISOString(),
  };
}

/** One cached token as `auth status` shows it (the token itself masked). */
export interface TokenView {
  mode: string;
  user: string | null;
  client_id: string;
  base_url: string;
  token: string;
  source: string;
  scopes: string[];
  expires_at: string;
  expired: boolean;
  /** A user login that diazo renews by itself when it has expired (it holds a refresh token). */
  refreshable: boolean;
  claims?: Record<string, unknown> | null;
}

/** What `auth status` returns. */
export interface AuthStatus {
  profile: string;
  /** Where the profile was chosen: flag, env, .env, config or default. */
  profile_source: string;
  base_url: string;
  /** Where the platform address comes from (DIAZO_BASE_URL, the profile, the default). */
  base_url_source: string;
  /** Credential variables of the environment that the explicitly chosen profile overrides. */
  ignored_env: string[];
  /** The default hub (id or name) of commands run without `--hub`/`--account`, or null. */
  hub: string | null;
  /** Where it comes from: DIAZO_HUB, the profile, or none. */
  hub_source: string;
  /** The default project (id or name) of commands run without `--project`, or null. */
  project: string | null;
  /** Where it comes from: DIAZO_PROJECT, the profile, or none. */
  project_source: string;
  client_id: string | null;
  client_id_source: string;
  client_secret: string | null;
  client_secret_source: string;
  scopes: string[];
  token_store: TokenStoreStatus;
  tokens: TokenView[];
  /** Whether a command can authenticate: the app's id and secret, or a user login valid or renewable. */
  usable: boolean;
}

function safeClaims(token: string): Record<string, unknown> | null {
  try {
    return decodeJwt(token).payload;
  } catch {
    return null;
  }
}

/** `auth status`: the credentials in use and the profile's cached tokens; `verbose` adds their claims. */
export async function runAuthStatus(opts: { verbose?: boolean }, deps: OpsDeps): Promise<AuthStatus> {
  const resolved = await deps.settings();
  checkProfileExists(resolved);
  const now = Date.now();
  const store = await deps.tokenStore();
  const storeStatus = await deps.tokenStoreStatus();
  const tokens = Object.values(await store.list(resolved.profileName)).map((t): TokenView => ({
    mode: t.mode,
    user: t.mode === "3-legged" ? jwtUserId(t.access_token) : null,
    client_id: t.client_id,
    base_url: t.base_url,
    token: mask(t.access_token),
    source: store.kind,
    scopes: t.scopes,
    expires_at: new Date(t.expires_at).toISOString(),
    expired: t.expires_at <= now,
    refreshable: t.mode === "3-legged" && Boolean(t.refresh_token),
    ...(opts.verbose ? { claims: safeClaims(t.access_token) } : {}),
  }));
  const app = Boolean(resolved.clientId.value && resolved.clientSecret.value);
  const user = tokens.some((t) => t.mode === "3-legged" && (!t.expired || t.refreshable));
  return {
    profile: resolved.profileName,
    profile_source: resolved.profileSource,
    base_url: resolved.baseUrl.value,
    base_url_source: resolved.baseUrl.from ?? resolved.baseUrl.source,
    ignored_env: resolved.ignoredEnv ?? [],
    hub: resolved.hub.value ?? null,
    hub_source: resolved.hub.from ?? resolved.hub.source,
    project: resolved.project.value ?? null,
    project_source: resolved.project.from ?? resolved.project.source,
    client_id: resolved.clientId.value ?? null,
    client_id_source: resolved.clientId.from ?? resolved.clientId.source,
    client_secret: resolved.clientSecret.value ? mask(resolved.clientSecret.value) : null,
    client_secret_source: resolved.clientSecret.from ?? resolved.clientSecret.source,
    scopes: profileScopes(resolved),
    token_store: storeStatus,
    tokens,
    usable: app || user,
  };
}

/** One row of `auth status --scopes`. */
export interface ScopeStatus {
  scope: string;
  in_profile: boolean;
  in_valid_token: boolean;
  purpose: string;
}

/** `auth status --scopes`: every scope of the profile or of a valid token, and what it is for. */
export function scopeStatus(status: AuthStatus): ScopeStatus[] {
  const held = new Set(status.tokens.filter((t) => !t.expired).flatMap((t) => t.scopes));
  return [...new Set([...status.scopes, ...held])].sort().map((s) => ({
    scope: s,
    in_profile: status.scopes.includes(s),
    in_valid_token: held.has(s),
    purpose: scopeInfo(s)?.purpose ?? "",
  }));
}

/** What `auth logout` returns. */
export interface LogoutResult {
  profile: string;
  removed: number;
  revoked: number;
}

/** Revokes a profile's tokens at the platform, best effort; returns how many were revoked. */
async function revokeAll(deps: OpsDeps, tokens: readonly StoredToken[]): Promise<number> {
  const resolved = await deps.settings();
  if (!resolved.clientId.value) return 0;
  const http = await deps.http({ auth: "none" });
  const client = { clientId: resolved.clientId.value, clientSecret: resolved.clientSecret.value };
  let revoked = 0;
  for (const t of tokens.filter((t) => t.base_url === resolved.baseUrl.value)) {
    const pairs = [[t.refresh_token, "refresh_token"], [t.access_token, "access_token"]] as const;
    for (const [token, hint] of pairs) {
      if (!token) continue;
      try {
        await revokeToken(http, { ...client, token, hint });
        revoked++;
      } catch (e) {
        deps.warn(`could not revoke a ${hint} at the platform: ${(e as Error).message}`);
      }
    }
  }
  return revoked;
}

/** `auth logout`: revokes the profile's tokens at the platform and removes them from every store. */
export async function runLogout(_opts: Record<string, never>, deps: ProfileDeps): Promise<LogoutResult> {
  const resolved = await deps.settings();
  const store = await deps.tokenStore();
  // Revoke first (best effort: an unreachable platform must not keep tokens here).
  const revoked = await revokeAll(deps, Object.values(await store.list(resolved.profileName)));
  let removed = await store.removeProfile(resolved.profileName);
  // Remove them "everywhere": a file left from before the keychain was usable, too.
  if (store.kind !== "file") {
    removed += await fileTokenStore(deps.configDir).removeProfile(resolved.profileName);
  }
  return { profile: resolved.profileName, removed, revoked };
}

/** `auth whoami`: the logged-in user's profile (3-legged). */
export async function runWhoami(
  _opts: Record<string, never>,
  deps: OpsDeps,
): Promise<Record<string, unknown>> {
  const resolved = await deps.settings();
  const http = await deps.http({ mode: "3-legged" });
  // The platform serves userinfo on its own host; a sandbox or proxy serves it on the base URL.
  const url = resolved.baseUrl.source === "default" ? USERINFO_URL : `${resolved.baseUrl.value}/userinfo`;
  return await userInfo(http, url);
}
