/**
 * The state behind 3-legged grants: single-use authorization codes bound to their request (with
 * the PKCE S256 check), and rotating refresh tokens with optional reuse detection.
 */

import { base64UrlEncode } from "./jwt.ts";
import { type AuthCode, nowMs, nowSeconds, type RefreshGrant, type SandboxState } from "./state.ts";
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
export function issueCode(state: SandboxState, code: Omit<AuthCode, "expMs">): string {
  const now = nowMs(state);
  for (const [k, c] of state.codes) if (c.expMs <= now) state.codes.delete(k);
  const value = randomToken(32);
  state.codes.set(value, { ...code, expMs: now + CODE_TTL_MS });
  return value;
}

/** Why a refresh token cannot be used; one wording for every case, as reuse detection reveals nothing. */
export const INVALID_REFRESH_TOKEN = "The refresh token is invalid, expired or revoked";

/** Stores a new refresh token for a grant (a new family unless one is given), and returns it. */
export function issueRefreshToken(
  state: SandboxState,
  grant: Pick<RefreshGrant, "clientId" | "userid" | "scopes" | "confidential"> & { family?: string },
): string {
  const value = randomToken(48);
  state.refreshTokens.set(value, {
    clientId: grant.clientId,
    userid: grant.userid,
    scopes: [...grant.scopes],
    confidential: grant.confidential,
    family: grant.family ?? randomToken(12),
    exp: nowSeconds(state) + state.config.refreshTokenTtlSeconds,
    used: false,
    revoked: false,
  });
  return value;
}

function revokeFamily(state: SandboxState, family: string): void {
  for (const g of state.refreshTokens.values()) if (g.family === family) g.revoked = true;
}

/** True when `grant` can be spent now: not used, not revoked, not expired. */
export function isLive(state: SandboxState, grant: RefreshGrant): boolean {
  return !grant.used && !grant.revoked && nowSeconds(state) < grant.exp;
}

/**
 * The usable refresh grant behind `value` for `clientId`, or undefined. Presenting a spent token
 * revokes its whole family when the sandbox is configured to detect reuse.
 */
export function findRefreshGrant(
  state: SandboxState,
  value: string,
  clientId: string,
): RefreshGrant | undefined {
  const grant = state.refreshTokens.get(value);
  if (!grant || grant.clientId !== clientId) return undefined;
  if (grant.used && state.config.refreshReuseRevokesFamily) revokeFamily(state, grant.family);
  return isLive(state, grant) ? grant : undefined;
}
