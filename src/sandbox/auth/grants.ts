/**
 * The state behind 3-legged grants: single-use authorization codes bound to their request (with
 * the PKCE S256 check), and rotating refresh tokens with optional reuse detection.
 */

import { base64UrlEncode } from "./jwt.ts";
import { nowMs, nowSeconds } from "../clock.ts";
import type { AuthCode, AuthStore, RefreshGrant } from "./store.ts";
import { randomToken } from "./tokens.ts";

/** Lifetime of an authorization code: 5 minutes. */
export const CODE_TTL_MS = 5 * 60_000;

/** What RFC 7636 allows as a code verifier: 43-128 unreserved characters. */
export const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** An S256 code challenge: base64url of a SHA-256 digest. */
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** The S256 challenge of a verifier: base64url(sha256(verifier)). */
export async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64UrlEncode(new Uint8Array(digest));
}

/** Stores a new authorization code living `CODE_TTL_MS`, and returns it. */
export function issueCode(auth: AuthStore, code: Omit<AuthCode, "expMs">): string {
  const now = nowMs(auth.clock);
  for (const [k, c] of auth.codes) if (c.expMs <= now) auth.codes.delete(k);
  const value = randomToken(32);
  auth.codes.set(value, { ...code, expMs: now + CODE_TTL_MS });
  return value;
}

/** Why a refresh token cannot be used; one wording for every case, as reuse detection reveals nothing. */
export const INVALID_REFRESH_TOKEN = "The refresh token is invalid, expired or revoked";

/** Stores a new refresh token for a grant (a new family unless one is given), and returns it. */
export function issueRefreshToken(
  auth: AuthStore,
  grant: Pick<RefreshGrant, "clientId" | "userid" | "scopes" | "confidential"> & { family?: string },
): string {
  const value = randomToken(48);
  auth.refreshTokens.set(value, {
    clientId: grant.clientId,
    userid: grant.userid,
    scopes: [...grant.scopes],
    confidential: grant.confidential,
    family: grant.family ?? randomToken(12),
    exp: nowSeconds(auth.clock) + auth.settings.refreshTokenTtlSeconds,
    used: false,
    revoked: false,
  });
  return value;
}

function revokeFamily(auth: AuthStore, family: string): void {
  for (const g of auth.refreshTokens.values()) if (g.family === family) g.revoked = true;
}

/** True when `grant` can be spent now: not used, not revoked, not expired. */
export function isLive(auth: AuthStore, grant: RefreshGrant): boolean {
  return !grant.used && !grant.revoked && nowSeconds(auth.clock) < grant.exp;
}

/**
 * The usable refresh grant behind `value` for `clientId`, or undefined. Presenting a spent token
 * revokes its whole family when the sandbox is configured to detect reuse.
 */
export function findRefreshGrant(
  auth: AuthStore,
  value: string,
  clientId: string,
): RefreshGrant | undefined {
  const grant = auth.refreshTokens.get(value);
  if (!grant || grant.clientId !== clientId) return undefined;
  if (grant.used && auth.settings.refreshReuseRevokesFamily) revokeFamily(auth, grant.family);
  return isLive(auth, grant) ? grant : undefined;
}
