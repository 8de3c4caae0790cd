/**
 * The bearer check of protected routes: a valid, unexpired token holding at least one of the
 * scopes the route accepts, answered in the gateway's error shapes otherwise.
 */

import type { RequestContext } from "../context.ts";
import { gatewayError, type SandboxError } from "../errors.ts";
import { checkAccessToken } from "./tokens.ts";

/** The gateway's refusal of a missing or unusable token. */
export function invalidToken(): SandboxError {
  return gatewayError(401, "The token is not valid", "AUTH-006");
}

/** The gateway's refusal of an expired token. */
export function expiredToken(): SandboxError {
  return gatewayError(401, "The token has expired", "AUTH-010");
}

/** The gateway's refusal of a token that lacks the route's scopes. */
export function insufficientScope(): SandboxError {
  return gatewayError(403, "Token does not have the privilege for this request.", "AUTH-012");
}

/**
 * The token of an `Authorization: Bearer <token>` header, if there is one; with `bare`, also of
 * `Authorization: <token>` (how the official SDK's getUserInfo sends it).
 */
export function bearerToken(req: Request, bare = false): string | undefined {
  const header = req.headers.get("authorization") ?? "";
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (m) return m[1];
  return bare && /^[^\s]+$/.test(header) ? header : undefined;
}

/**
 * Requires a bearer token (or, with `bare`, a token without the scheme) holding any of `scopes`: stores its claims (and client id) in `ctx`, or
 * throws the gateway's refusal.
 */
export async function requireBearer(
  req: Request,
  ctx: RequestContext,
  scopes: readonly string[],
  bare = false,
): Promise<void> {
  const token = bearerToken(req, bare);
  if (!token) throw invalidToken();
  const check = await checkAccessToken(ctx.sandbox.auth, token);
  if (!check.ok) throw check.problem === "expired" ? expiredToken() : invalidToken();
  ctx.token = check.claims;
  ctx.clientId = check.claims.client_id;
  if (!scopes.some((s) => check.claims.scope.includes(s))) throw insufficientScope();
}
