/**
 * Authentication v2: the token endpoint (grant handlers by `grant_type`), the JWKS and the OpenID
 * discovery document; with the authorize, introspect/revoke and userinfo tables, the whole service.
 */

import { SCOPE_NAMES } from "../../aps/scopes.ts";
import type { RequestContext } from "../context.ts";
import { jwks } from "./jwt.ts";
import { oauthError } from "../errors.ts";
import { json } from "../respond.ts";
import type { Route } from "../router.ts";
import { issueAccessToken, TOKEN_ISSUER } from "./tokens.ts";
import { authorizeRoutes } from "./oauth_authorize.ts";
import {
  grantableScopes,
  identifyClient,
  type PresentedCredentials,
  presentedCredentials,
  scopesNotAllowed,
  tokenAnswer,
} from "./oauth_client.ts";
import { authorizationCodeGrant, refreshTokenGrant } from "./oauth_grants.ts";
import { JWT_BEARER_GRANT, jwtBearerGrant } from "./oauth_jwt_bearer.ts";
import { DEVICE_AUTHORIZATION_PATH, deviceCodeGrant, deviceRoutes } from "./oauth_device.ts";
import { DEVICE_CODE_GRANT } from "../../aps/grant_types.ts";
import { tokenManagementRoutes } from "./oauth_tokens.ts";
import { userInfoRoutes } from "./userinfo.ts";

/** Handles one `grant_type` of the token endpoint. */
export type GrantHandler = (
  form: URLSearchParams,
  credentials: PresentedCredentials,
  ctx: RequestContext,
) => Promise<Response>;

const clientCredentialsGrant: GrantHandler = async (form, credentials, ctx) => {
  const client = identifyClient(credentials, ctx, { allowPublic: false });
  const checked = grantableScopes(form.get("scope"), "2-legged");
  if ("error" in checked) throw oauthError(400, "invalid_scope", checked.error);
  const refused = scopesNotAllowed(client.app, checked.scopes);
  if (refused) throw oauthError(400, "invalid_scope", refused);
  const issued = await issueAccessToken(ctx.sandbox.auth, client.app.clientId, checked.scopes);
  return tokenAnswer({
    access_token: issued.accessToken,
    token_type: "Bearer",
    expires_in: issued.expiresIn,
  });
};

/** Grant handlers by `grant_type`. */
export const GRANTS: Record<string, GrantHandler> = {
  client_credentials: clientCredentialsGrant,
  authorization_code: authorizationCodeGrant,
  refresh_token: refreshTokenGrant,
  [JWT_BEARER_GRANT]: jwtBearerGrant,
  [DEVICE_CODE_GRANT]: deviceCodeGrant,
};

async function token(req: Request, ctx: RequestContext): Promise<Response> {
  const form = new URLSearchParams(await req.text());
  const grantType = form.get("grant_type") ?? "";
  const grant = Object.hasOwn(GRANTS, grantType) ? GRANTS[grantType] : undefined;
  if (!grant) {
    throw oauthError(
      400,
      "unsupported_grant_type",
      grantType ? `The grant type ${grantType} is not supported` : "The 'grant_type' parameter is required",
    );
  }
  ctx.grantType = grantType;
  return await grant(form, presentedCredentials(req, form), ctx);
}

function openidConfiguration(_req: Request, ctx: RequestContext): Response {
  const base = ctx.baseUrl;
  const device = ctx.sandbox.settings.deviceFlow;
  return json(200, {
    issuer: TOKEN_ISSUER,
    authorization_endpoint: `${base}/authentication/v2/authorize`,
    token_endpoint: `${base}/authentication/v2/token`,
    userinfo_endpoint: `${base}/userinfo`,
    jwks_uri: `${base}/authentication/v2/keys`,
    revocation_endpoint: `${base}/authentication/v2/revoke`,
    introspection_endpoint: `${base}/authentication/v2/introspect`,
    ...(device ? { device_authorization_endpoint: `${base}${DEVICE_AUTHORIZATION_PATH}` } : {}),
    scopes_supported: [...SCOPE_NAMES],
    response_types_supported: ["code", "code id_token", "id_token"],
    response_modes_supported: ["fragment", "form_post", "query"],
    grant_types_supported: [
      "authorization_code",
      "client_credentials",
      "refresh_token",
      ...(device ? [DEVICE_CODE_GRANT] : []),
    ],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
  });
}

/** Routes of the authentication service. */
export const authRoutes: readonly Route[] = [
  { method: "POST", pattern: "/authentication/v2/token", scopes: [], handler: token },
  {
    method: "GET",
    pattern: "/authentication/v2/keys",
    scopes: [],
    handler: (_req, ctx) => json(200, jwks(ctx.sandbox.auth.keys)),
  },
  { method: "GET", pattern: "/.well-known/openid-configuration", scopes: [], handler: openidConfiguration },
  ...authorizeRoutes,
  ...deviceRoutes,
  ...tokenManagementRoutes,
  ...userInfoRoutes,
];
