/**
 * Tokens as the platform issues them: access tokens (RS256 JWTs with its claim set, recorded by
 * `jti`, checked against the sandbox clock) and OpenID Connect ID tokens.
 */

import type { AuthStore } from "./store.ts";
import { base64UrlEncode, signJwt, verifyJwt } from "./jwt.ts";
import { nowSeconds } from "../clock.ts";

/** `iss` of every token. */
export const TOKEN_ISSUER = "https://developer.api.autodesk.com";
/** `aud` of every token. */
export const TOKEN_AUDIENCE = "https://autodesk.com";

/** Lifetime of an ID token: 60 minutes. */
export const ID_TOKEN_TTL_SECONDS = 3600;

/** A random, URL-safe string of `bytes` random bytes (codes, refresh tokens, token ids). */
export function randomToken(bytes: number): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** The claims of an access token. */
export interface AccessClaims {
  scope: string[];
  client_id: string;
  iss: string;
  aud: string;
  jti: string;
  exp: number;
  /** Present on tokens that act for a user (3-legged). */
  userid?: string;
}

/** A freshly issued token. */
export interface IssuedAccessToken {
  accessToken: string;
  expiresIn: number;
  claims: AccessClaims;
}

/** Outcome of checking a presented token. */
export type AccessTokenCheck =
  | { ok: true; claims: AccessClaims }
  | { ok: false; problem: "invalid" | "expired" };

/** Issues an access token for `clientId` with `scopes`, living the configured TTL. */
export async function issueAccessToken(
  auth: AuthStore,
  clientId: string,
  scopes: readonly string[],
  extra: { userid?: string } = {},
): Promise<IssuedAccessToken> {
  const expiresIn = auth.settings.tokenTtlSeconds;
  const claims: AccessClaims = {
    scope: [...scopes],
    client_id: clientId,
    iss: TOKEN_ISSUER,
    aud: TOKEN_AUDIENCE,
    jti: randomToken(24),
    exp: nowSeconds(auth.clock) + expiresIn,
    ...extra,
  };
  const accessToken = await signJwt(auth.keys[0], { ...claims }, { "pi.atm": "assc" });
  auth.tokens.set(claims.jti, {
    jti: claims.jti,
    clientId,
    scopes: [...scopes],
    exp: claims.exp,
    revoked: false,
    ...(extra.userid !== undefined ? { userid: extra.userid } : {}),
  });
  return { accessToken, expiresIn, claims };
}

function isAccessClaims(p: Record<string, unknown>): boolean {
  return Array.isArray(p.scope) && p.scope.every((s) => typeof s === "string") &&
    typeof p.client_id === "string" && typeof p.jti === "string" && typeof p.exp === "number";
}

/**
 * Checks a presented access token: signature, that this sandbox issued it since the last reset and
 * has not revoked it, and expiry on the sandbox clock.
 */
export async function checkAccessToken(auth: AuthStore, token: string): Promise<AccessTokenCheck> {
  const verified = await verifyJwt(auth.keys, token);
  if (!verified.ok) return { ok: false, problem: "invalid" };
  const payload = verified.jwt.payload;
  if (!isAccessClaims(payload)) return { ok: false, problem: "invalid" };
  const claims = payload as unknown as AccessClaims;
  const issued = auth.tokens.get(claims.jti);
  if (!issued || issued.revoked || issued.clientId !== claims.client_id) {
    return { ok: false, problem: "invalid" };
  }
  if (nowSeconds(auth.clock) >= claims.exp) return { ok: false, problem: "expired" };
  return { ok: true, claims };
}

/** Who an ID token is about. */
export interface IdTokenSubject {
  userid: string;
  email: string;
  firstName: string;
  lastName: string;
  username: string;
}

/** Issues an OpenID Connect ID token for `user`, addressed to `clientId`. */
export async function issueIdToken(
  auth: AuthStore,
  clientId: string,
  user: IdTokenSubject,
  nonce?: string,
): Promise<string> {
  const iat = nowSeconds(auth.clock);
  return await signJwt(auth.keys[0], {
    iss: TOKEN_ISSUER,
    sub: user.userid,
    aud: clientId,
    iat,
    exp: iat + ID_TOKEN_TTL_SECONDS,
    ...(nonce !== undefined ? { nonce } : {}),
    userid: user.userid,
    user_name: user.username,
    user_email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
  }, { typ: "JWT" });
}
