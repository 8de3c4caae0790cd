/**
 * The user grants of the token endpoint: `authorization_code` (confidential with Basic, or public
 * with PKCE) and `refresh_token` (rotating: every refresh token is spent by one use).
 */

import type { RequestContext } from "../context.ts";
import { CODE_VERIFIER, findRefreshGrant, INVALID_REFRESH_TOKEN, issueRefreshToken, s256 } from "./grants.ts";
import { oauthError, type SandboxError } from "../errors.ts";
import { nowMs } from "../clock.ts";
import { issueAccessToken, issueIdToken } from "./tokens.ts";
import { findUser } from "./users.ts";
import {
  identifyClient,
  missingCredentials,
  narrowScopes,
  type PresentedCredentials,
  tokenAnswer,
} from "./oauth_client.ts";

function invalidGrant(description: string): SandboxError {
  return oauthError(400, "invalid_grant", description);
}

function missing(name: string): SandboxError {
  return oauthError(400, "invalid_request", `The '${name}' parameter is required`);
}

/** What a user token answer is issued for. */
export interface UserGrant {
  clientId: string;
  userid: string;
  /** Scopes of the authorization (kept by the refresh token). */
  grantScopes: string[];
  /** Scopes of this access token (a subset of `grantScopes`). */
  scopes: string[];
  confidential: boolean;
  family?: string;
  nonce?: string;
}

/** Issues the 3-legged answer: access token, rotated refresh token and, with `openid`, an ID token. */
export async function userTokens(ctx: RequestContext, g: UserGrant): Promise<Response> {
  const auth = ctx.sandbox.auth;
  const issued = await issueAccessToken(auth, g.clientId, g.scopes, { userid: g.userid });
  const refresh = issueRefreshToken(auth, {
    clientId: g.clientId,
    userid: g.userid,
    scopes: g.grantScopes,
    confidential: g.confidential,
    family: g.family,
  });
  const user = findUser(auth, g.userid);
  const idToken = user && g.scopes.includes("openid")
    ? await issueIdToken(auth, g.clientId, user, g.nonce)
    : undefined;
  return tokenAnswer({
    access_token: issued.accessToken,
    token_type: "Bearer",
    expires_in: issued.expiresIn,
    refresh_token: refresh,
    ...(idToken !== undefined ? { id_token: idToken } : {}),
  });
}

/** `grant_type=authorization_code`. */
export async function authorizationCodeGrant(
  form: URLSearchParams,
  credentials: PresentedCredentials,
  ctx: RequestContext,
): Promise<Response> {
  const client = identifyClient(credentials, ctx, { allowPublic: true });
  const value = form.get("code");
  if (!value) throw missing("code");
  const redirectUri = form.get("redirect_uri");
  if (!redirectUri) throw missing("redirect_uri");
  const auth = ctx.sandbox.auth;
  const code = auth.codes.get(value);
  if (!code || code.clientId !== client.app.clientId) {
    throw invalidGrant("The authorization code is invalid or has already been used");
  }
  // A public client proves itself only through PKCE.
  if (!client.confidential && code.codeChallenge === undefined) throw missingCredentials();
  // Any redemption attempt spends the code, so a wrong verifier cannot be retried.
  auth.codes.delete(value);
  if (nowMs(ctx.sandbox.clock) >= code.expMs) throw invalidGrant("The authorization code has expired");
  if (redirectUri !== code.redirectUri) {
    throw invalidGrant("The redirect_uri does not match the one of the authorization request");
  }
  if (code.codeChallenge !== undefined) {
    const verifier = form.get("code_verifier");
    if (!verifier) throw invalidGrant("The code_verifier is required for this authorization code");
    if (!CODE_VERIFIER.test(verifier)) {
      throw invalidGrant("The code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~]");
    }
    if (await s256(verifier) !== code.codeChallenge) {
      throw invalidGrant("The code_verifier does not match the code_challenge");
    }
  }
  return await userTokens(ctx, {
    clientId: code.clientId,
    userid: code.userid,
    grantScopes: code.scopes,
    scopes: code.scopes,
    confidential: client.confidential,
    nonce: code.nonce,
  });
}

/** `grant_type=refresh_token`. */
export async function refreshTokenGrant(
  form: URLSearchParams,
  credentials: PresentedCredentials,
  ctx: RequestContext,
): Promise<Response> {
  const client = identifyClient(credentials, ctx, { allowPublic: true });
  const value = form.get("refresh_token");
  if (!value) throw missing("refresh_token");
  const grant = findRefreshGrant(ctx.sandbox.auth, value, client.app.clientId);
  if (!grant) throw invalidGrant(INVALID_REFRESH_TOKEN);
  if (grant.confidential && !client.confidential) throw missingCredentials();
  const scopes = narrowScopes(grant.scopes, form.get("scope"));
  grant.used = true;
  return await userTokens(ctx, {
    clientId: grant.clientId,
    userid: grant.userid,
    grantScopes: grant.scopes,
    scopes,
    confidential: grant.confidential,
    family: grant.family,
  });
}
