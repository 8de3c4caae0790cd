/**
 * Token management: introspection (is a token active, and what does it carry) and revocation of
 * access and refresh tokens. An app sees and revokes only its own tokens.
 */

import type { RequestContext } from "../context.ts";
import { isLive } from "./grants.ts";
import { verifyJwt } from "./jwt.ts";
import { oauthError } from "../errors.ts";
import { empty, json } from "../respond.ts";
import type { Route } from "../router.ts";
import { checkAccessToken } from "./tokens.ts";
import { identifyClient, presentedCredentials } from "./oauth_client.ts";

const TOKEN_TYPE_HINTS = ["access_token", "refresh_token"];

/** The form, the calling client and the `token` parameter; throws the OAuth refusal otherwise. */
async function readTokenRequest(
  req: Request,
  ctx: RequestContext,
): Promise<{ form: URLSearchParams; clientId: string; token: string }> {
  const form = new URLSearchParams(await req.text());
  const client = identifyClient(presentedCredentials(req, form), ctx, { allowPublic: true });
  const token = form.get("token");
  if (!token) throw oauthError(400, "invalid_request", "The 'token' parameter is required");
  return { form, clientId: client.app.clientId, token };
}

async function introspect(req: Request, ctx: RequestContext): Promise<Response> {
  const { clientId, token } = await readTokenRequest(req, ctx);
  const auth = ctx.sandbox.auth;
  const access = await checkAccessToken(auth, token);
  if (access.ok && access.claims.client_id === clientId) {
    const c = access.claims;
    return json(200, {
      active: true,
      scope: c.scope.join(" "),
      client_id: c.client_id,
      exp: c.exp,
      ...(c.userid !== undefined ? { userid: c.userid } : {}),
    });
  }
  const refresh = auth.refreshTokens.get(token);
  if (refresh && refresh.clientId === clientId && isLive(auth, refresh)) {
    return json(200, {
      active: true,
      scope: refresh.scopes.join(" "),
      client_id: refresh.clientId,
      exp: refresh.exp,
      userid: refresh.userid,
    });
  }
  return json(200, { active: false });
}

async function revoke(req: Request, ctx: RequestContext): Promise<Response> {
  const { form, clientId, token } = await readTokenRequest(req, ctx);
  const hint = form.get("token_type_hint");
  if (hint !== null && !TOKEN_TYPE_HINTS.includes(hint)) {
    throw oauthError(400, "unsupported_token_type", `Unknown token_type_hint: ${hint}`);
  }
  const auth = ctx.sandbox.auth;
  // The hint only says where to look first; both kinds are looked up either way.
  const verified = await verifyJwt(auth.keys, token);
  if (verified.ok && typeof verified.jwt.payload.jti === "string") {
    const issued = auth.tokens.get(verified.jwt.payload.jti);
    if (issued && issued.clientId === clientId) issued.revoked = true;
  }
  const refresh = auth.refreshTokens.get(token);
  if (refresh && refresh.clientId === clientId) refresh.revoked = true;
  // Unknown tokens and other apps' tokens are answered alike (RFC 7009).
  return empty(200);
}

/** Routes of introspection and revocation. */
export const tokenManagementRoutes: readonly Route[] = [
  { method: "POST", pattern: "/authentication/v2/introspect", scopes: [], handler: introspect },
  { method: "POST", pattern: "/authentication/v2/revoke", scopes: [], handler: revoke },
];
