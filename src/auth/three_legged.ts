/**
 * 3-legged tokens: the authorization-code login with PKCE, the stored user token, and its refresh
 * under a cross-process lock so that parallel diazo processes never spend the same refresh token.
 */
import type { Resolved } from "../config/config.ts";
import { DiazoError, isDiazoError, platformErrorCode } from "../core/errors.ts";
import { platformDetail } from "../core/response_error.ts";
import { decodeJwt, jwtScopes } from "../aps/jwt.ts";
import { registerSecret } from "../core/redact.ts";
import type { Http } from "../http/http.ts";
import { authorizationCodeToken, refreshToken, type TokenResponse } from "./authentication.ts";
import { tokenLockFile, withTokenLock } from "./token_lock.ts";
import type { StoredToken, TokenStore } from "./token_store.ts";
import { isFreshUserToken, threeLeggedKey } from "./user_token.ts";

/** Scopes asked for by a 3-legged login when none are given. */
export const DEFAULT_3L_SCOPES = [
  "data:read",
  "data:write",
  "data:create",
  "bucket:read",
  "viewables:read",
  "user-profile:read",
];

/** Builds the authorize URL of the platform. */
export function authorizeUrl(
  baseUrl: string,
  p: { clientId: string; redirectUri: string; scopes: readonly string[]; state: string; challenge: string },
): string {
  const u = new URL(`${baseUrl}/authentication/v2/authorize`);
  u.searchParams.set("response_type", "code");
  u.searchParams.set("client_id", p.clientId);
  u.searchParams.set("redirect_uri", p.redirectUri);
  u.searchParams.set("scope", p.scopes.join(" "));
  u.searchParams.set("state", p.state);
  u.searchParams.set("code_challenge", p.challenge);
  u.searchParams.set("code_challenge_method", "S256");
  return u.toString();
}

/** Turns a token answer into what is stored. */
export function storedFromResponse(
  res: TokenResponse,
  id: { profile: string; clientId: string; baseUrl: string; scopes: readonly string[] },
  now: number,
): StoredToken {
  registerSecret(res.access_token);
  if (res.refresh_token) registerSecret(res.refresh_token);
  let scopes = [...id.scopes];
  try {
    const granted = jwtScopes(decodeJwt(res.access_token).payload);
    if (granted.length) scopes = granted;
  } catch { /* an opaque token: keep the requested scopes */ }
  return {
    access_token: res.access_token,
    refresh_token: res.refresh_token,
    expires_at: now + res.expires_in * 1000,
    scopes: scopes.sort(),
    mode: "3-legged",
    client_id: id.clientId,
    base_url: id.baseUrl,
    profile: id.profile,
  };
}

/** Exchanges a code for tokens and stores them as the profile's 3-legged login. */
export async function completeLogin(
  deps: { resolved: Resolved; store: TokenStore; authHttp: Http; now?: () => number },
  p: { code: string; verifier: string; redirectUri: string; scopes: readonly string[] },
): Promise<StoredToken> {
  const clientId = deps.resolved.clientId.value!;
  const res = await authorizationCodeToken(deps.authHttp, {
    clientId,
    clientSecret: deps.resolved.clientSecret.value,
    code: p.code,
    redirectUri: p.redirectUri,
    codeVerifier: p.verifier,
  });
  return await saveUserLogin(deps, res, p.scopes);
}

/** Stores a token answer as the profile's 3-legged login (any user grant: code, device code). */
export async function saveUserLogin(
  deps: { resolved: Resolved; store: TokenStore; now?: () => number },
  res: TokenResponse,
  scopes: readonly string[],
): Promise<StoredToken> {
  const clientId = deps.resolved.clientId.value!;
  const token = storedFromResponse(res, {
    profile: deps.resolved.profileName,
    clientId,
    baseUrl: deps.resolved.baseUrl.value,
    scopes,
  }, (deps.now ?? Date.now)());
  await deps.store.put(
    threeLeggedKey(deps.resolved.profileName, clientId, deps.resolved.baseUrl.value),
    token,
  );
  return token;
}

/** What reading the profile's user token needs. */
export interface ThreeLeggedDeps {
  resolved: Resolved;
  store: TokenStore;
  authHttp: Http;
  stateDir: string;
  now?: () => number;
  debug?: (line: string) => void;
  /** How long to wait for another process's refresh (DIAZO_LOCK_WAIT_MS); 60 s by default. */
  lockWaitMs?: number;
}

/**
 * The error of a refused refresh: the platform's invalid_grant (a token spent by an interrupted
 * refresh or another login) means logging in again, and says why; no clock is to blame there.
 */
function refreshRefused(e: DiazoError): DiazoError {
  const code = platformErrorCode(e.body);
  const reason = [code, platformDetail(e.body)].filter((s, i, all) => s && all.indexOf(s) === i).join(": ");
  const error = (e.body as { error?: unknown } | undefined)?.error;
  // The app's own credentials refused (a wrong or rotated client secret): not the login's fault.
  // No `status`: the refusal answers the refresh, not the request a caller restates (families/api/answer.ts).
  if (error === "invalid_client" || code === "invalid_client" || code === "AUTH-001") {
    return new DiazoError("auth_failed", {
      body: e.body,
      message: `Authentication failed: the token endpoint refused the app's client credentials (${reason})`,
    });
  }
  if (error === "invalid_grant" || code === "invalid_grant") {
    return new DiazoError("login_lost", { status: e.status, body: e.body, params: { reason } });
  }
  return new DiazoError("token_expired", { status: e.status, body: e.body });
}

/**
 * The profile's valid 3-legged token, refreshed when within a minute of expiry. The refresh runs
 * under a file lock and re-reads the store first: a process that waited finds the fresh token and
 * does not refresh again.
 */
export async function threeLeggedToken(
  deps: ThreeLeggedDeps,
  opts: { rejected?: string } = {},
): Promise<StoredToken> {
  const now = deps.now ?? Date.now;
  const clientId = deps.resolved.clientId.value;
  if (!clientId) throw new DiazoError("three_legged_required");
  const key = threeLeggedKey(deps.resolved.profileName, clientId, deps.resolved.baseUrl.value);
  // A token the platform has just refused is stale whatever our clock says.
  const fresh = (t: StoredToken | undefined) => isFreshUserToken(t, now(), opts.rejected);
  const current = await deps.store.get(key);
  if (!current) throw new DiazoError("three_legged_required");
  registerSecret(current.access_token);
  if (fresh(current)) return current;
  if (!current.refresh_token) throw new DiazoError("token_expired");
  const lockFile = await tokenLockFile(deps.stateDir, "refresh", key);
  return await withTokenLock(lockFile, deps.lockWaitMs, () => refreshUnderLock(deps, key, fresh, current));
}

/** The refresh itself, under the lock: another process may have refreshed while this one waited. */
async function refreshUnderLock(
  deps: ThreeLeggedDeps,
  key: string,
  fresh: (t: StoredToken | undefined) => boolean | undefined,
  current: StoredToken,
): Promise<StoredToken> {
  const now = deps.now ?? Date.now;
  const clientId = deps.resolved.clientId.value!; // checked by threeLeggedToken
  const again = await deps.store.get(key);
  if (again && fresh(again)) {
    deps.debug?.("token: another process refreshed the 3-legged token");
    registerSecret(again.access_token);
    return again;
  }
  const source = again ?? current;
  registerSecret(source.refresh_token!);
  let res: TokenResponse;
  try {
    res = await refreshToken(deps.authHttp, {
      clientId,
      clientSecret: deps.resolved.clientSecret.value,
      refreshToken: source.refresh_token!,
    });
  } catch (e) {
    // A refresh token that is expired, revoked or already used means logging in again.
    if (isDiazoError(e) && (e.status === 400 || e.status === 401)) throw refreshRefused(e);
    throw e;
  }
  const token = storedFromResponse(res, {
    profile: source.profile,
    clientId,
    baseUrl: source.base_url,
    scopes: source.scopes,
  }, now());
  if (!token.refresh_token) token.refresh_token = source.refresh_token;
  await deps.store.put(key, token);
  deps.debug?.("token: refreshed the 3-legged token");
  return token;
}
