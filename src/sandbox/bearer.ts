/**
 * The bearer check of protected routes: a valid, unexpired token holding at least one of the
 * scopes the route accepts, answered in the gateway's error shapes otherwise.
 */

import type { RequestContext } from "./context.ts";
import { gatewayError } from "./respond.ts";
import { checkAccessToken } from "./tokens.ts";

/** The gateway's answer for a missing or unusable token. */
export function invalidTokenResponse(): Response {
  return gatewayError(401, "The token is not valid", "AUTH-006");
}

/** The gateway's answer for an expired token. */
export function expiredTokenResponse(): Response {
  return gatewayError(401, "The token has expired", "AUTH-010");
}

/** The gateway's answer for a token that lacks the route's scopes. */
export function insufficientScopeResponse(): Response {
  return gatewayError(403, "Token does not have the privilege for this request.", "AUTH-012");
}

/** The token of an `Authorization: Bearer <token>` header, if there is one. */
export function bearerToken(req: Request): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  return m?.[1];
}

/**
 * Authorizes a request for a route accepting any of `scopes`: on success stores the claims (and
 * client id) in `ctx` and returns undefined, else returns the error answer.
 */
export async function authorize(
  req: Request,
  ctx: RequestContext,
  scopes: readonly string[],
): Promise<Response | undefined> {
  const token = bearerToken(req);
  if (!token) return invalidTokenResponse();
  const check = await checkAccessToken(ctx.sandbox, token);
  if (!check.ok) return check.problem === "expired" ? expiredTokenResponse() : invalidTokenResponse();
  ctx.token = check.claims;
  ctx.clientId = check.claims.client_id;
  if (!scopes.some((s) => check.claims.scope.includes(s))) return insufficientScopeResponse();
  return undefined;
}
