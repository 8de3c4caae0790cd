/**
 * 2-legged tokens: requested with client credentials, cached per profile and scope set. Processes
 * that share a state dir fetch a missing token once, under a lock.
 */
import type { Resolved } from "../config/config.ts";
import { DiazoError } from "../core/errors.ts";
import { registerSecret } from "../core/redact.ts";
import { DEFAULT_2L_SCOPES } from "../aps/scopes.ts";
import type { Http } from "../http/http.ts";
import { type StoredToken, tokenKey, type TokenStore } from "./token_store.ts";
import { hexOf } from "../core/bytes.ts";

/** A token is renewed this long before it expires. */
export const EXPIRY_MARGIN_MS = 60_000;

/** What a 2-legged token request needs. */
export interface TwoLeggedDeps {
  resolved: Resolved;
  store: TokenStore;
  /** An Http client without bearer auth, for the token endpoint. */
  authHttp: Http;
  now?: () => number;
  /** Where the lock shared with parallel processes lives; without it this process fetches alone. */
  stateDir?: string;
  /** How long to wait for another process's fetch (DIAZO_LOCK_WAIT_MS). */
  lockWaitMs?: number;
}

/** The client id and secret, or the catalog's "Missing credentials". */
export function requireCredentials(resolved: Resolved): { clientId: string; clientSecret: string } {
  const clientId = resolved.clientId.value;
  const clientSecret = resolved.clientSecret.value;
  if (!clientId || !clientSecret) throw new DiazoError("missing_credentials");
  registerSecret(clientSecret);
  return { clientId, clientSecret };
}

/**
 * A fingerprint of a client secret for the token cache's key: 16 hex digits of a salted SHA-256, so
 * a changed secret misses the cache while the secret itself is never stored.
 */
export async function secretFingerprint(clientSecret: string): Promise<string> {
  const text = new TextEncoder().encode(`diazo token cache\n${clientSecret}`);
  return hexOf(await crypto.subtle.digest("SHA-256", text)).slice(0, 16);
}

/** The scopes this profile's 2-legged tokens carry. */
export function profileScopes(resolved: Resolved): string[] {
  return [...(resolved.profile.scopes ?? DEFAULT_2L_SCOPES)].sort();
}

/**
 * A refusal of credentials that came from a profile names the profile and `diazo config`, not the
 * SVC_* variables (which were not used); any other error is returned as it is.
 */
function profileRefused(e: unknown, resolved: Resolved): unknown {
  const fromProfile = resolved.clientId.source === "profile" || resolved.clientSecret.source === "profile";
  if (!(e instanceof DiazoError) || e.code !== "auth_failed" || !fromProfile) return e;
  return new DiazoError("profile_auth_failed", {
    status: e.status,
    body: e.body,
    params: { profile: resolved.profileName },
  });
}

/**
 * A valid 2-legged token: from the cache while it has more than a minute left, else a new one
 * (stored for the next command). `force` skips the cache; `rejected` (a token the platform refused)
 * takes another process's newer token from the cache, else fetches one.
 */
export async function twoLeggedToken(
  deps: TwoLeggedDeps,
  opts: { force?: boolean; scopes?: readonly string[]; rejected?: string } = {},
): Promise<{ token: StoredToken; cached: boolean }> {
  const now = deps.now ?? Date.now;
  const { clientId, clientSecret } = requireCredentials(deps.resolved);
  const scopes = opts.scopes ? [...opts.scopes].sort() : profileScopes(deps.resolved);
  const identity = {
    profile: deps.resolved.profileName,
    mode: "2-legged" as const,
    client_id: clientId,
    base_url: deps.resolved.baseUrl.value,
    scopes,
    secret_fingerprint: await secretFingerprint(clientSecret),
  };
  const key = tokenKey(identity);
  const fromCache = async () => {
    if (opts.force) return undefined;
    const cached = await deps.store.get(key);
    if (!cached || cached.access_token === opts.rejected || cached.expires_at - EXPIRY_MARGIN_MS <= now()) {
      return undefined;
    }
    registerSecret(cached.access_token);
    return { token: cached, cached: true };
  };
  const fetchAndStore = async () => {
    const { clientCredentialsToken } = await import("./authentication.ts");
    const res = await clientCredentialsToken(deps.authHttp, { clientId, clientSecret, scopes })
      .catch((e) => Promise.reject(profileRefused(e, deps.resolved)));
    registerSecret(res.access_token);
    const token: StoredToken = {
      ...identity,
      access_token: res.access_token,
      expires_at: now() + res.expires_in * 1000,
    };
    await deps.store.put(key, token);
    return { token, cached: false };
  };
  const hit = await fromCache();
  if (hit) return hit;
  if (deps.stateDir === undefined) return await fetchAndStore();
  // Another process may have stored the token while this one waited for the lock: read again. The
  // token endpoint and the lock load only here: a run answered from the cache does without them.
  const { tokenLockFile, withTokenLock } = await import("./token_lock.ts");
  const lockFile = await tokenLockFile(deps.stateDir, "token", key);
  return await withTokenLock(
    lockFile,
    deps.lockWaitMs,
    async () => (await fromCache()) ?? await fetchAndStore(),
  );
}
