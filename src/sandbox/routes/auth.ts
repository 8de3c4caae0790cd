/**
 * Authentication v2: the token endpoint (grant handlers by `grant_type`), the JWKS and the OpenID
 * discovery document.
 */

import { type AuthMode, SCOPE_NAMES, scopeInfo } from "../../core/scopes.ts";
import type { RequestContext } from "../context.ts";
import { jwks } from "../jwt.ts";
import { json, oauthError } from "../respond.ts";
import type { Route } from "../router.ts";
import { authenticateApp } from "../state.ts";
import { issueAccessToken, TOKEN_ISSUER } from "../tokens.ts";

/** Client credentials as presented (Basic header first, else the form's fields); undefined when absent. */
export interface PresentedCredentials {
  clientId?: string;
  clientSecret?: string;
}

/** Handles one `grant_type` of the token endpoint. */
export type GrantHandler = (
  form: URLSearchParams,
  credentials: PresentedCredentials,
  ctx: RequestContext,
) => Promise<Response>;

/** The credentials of a token request. */
export function presentedCredentials(req: Request, form: URLSearchParams): PresentedCredentials {
  const m = /^Basic\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  if (m) {
    let decoded = "";
    try {
      decoded = atob(m[1]);
    } catch {
      // An undecodable header is a failed authentication, not a missing one.
    }
    const colon = decoded.indexOf(":");
    return colon < 0 ? { clientId: decoded, clientSecret: "" } : {
      clientId: decoded.slice(0, colon),
      clientSecret: decoded.slice(colon + 1),
    };
  }
  return {
    clientId: form.get("client_id") ?? undefined,
    clientSecret: form.get("client_secret") ?? undefined,
  };
}

/** The platform's answer when client credentials are absent. */
export function missingCredentialsResponse(): Response {
  return json(400, {
    developerMessage: "The required parameter(s) client_id,client_secret not present in the request",
    errorCode: "AUTH-008",
  });
}

/** The platform's answer when client credentials are wrong. */
export function invalidClientResponse(): Response {
  return json(401, {
    error: "invalid_client",
    error_description: "Client authentication failed",
    developerMessage: "Client authentication failed",
    errorCode: "AUTH-001",
  });
}

/** Parses a space-separated scope parameter and checks each scope is known and grantable in `mode`. */
export function grantableScopes(
  text: string | null,
  mode: AuthMode,
): { scopes: string[] } | { error: string } {
  const scopes = [...new Set((text ?? "").split(/\s+/).filter(Boolean))];
  if (scopes.length === 0) return { error: "The 'scope' parameter is required" };
  for (const s of scopes) {
    // data:read:<urn> narrows data:read to one resource and is granted where data:read is.
    const info = scopeInfo(s.startsWith("data:read:") ? "data:read" : s);
    if (!info) return { error: `Unknown scope: ${s}` };
    if (!info.modes.includes(mode)) return { error: `The scope ${s} cannot be granted to a ${mode} token` };
  }
  return { scopes };
}

const clientCredentialsGrant: GrantHandler = async (form, credentials, ctx) => {
  if (credentials.clientId === undefined || credentials.clientSecret === undefined) {
    return missingCredentialsResponse();
  }
  ctx.clientId = credentials.clientId;
  const app = authenticateApp(ctx.sandbox.state, credentials.clientId, credentials.clientSecret);
  if (!app) return invalidClientResponse();
  const checked = grantableScopes(form.get("scope"), "2-legged");
  if ("error" in checked) return oauthError(400, "invalid_scope", checked.error);
  const issued = await issueAccessToken(ctx.sandbox, app.clientId, checked.scopes);
  return json(
    200,
    { access_token: issued.accessToken, token_type: "Bearer", expires_in: issued.expiresIn },
    { "cache-control": "no-store" },
  );
};

/** Grant handlers by `grant_type`; the 3-legged grants join this table. */
export const GRANTS: Record<string, GrantHandler> = {
  client_credentials: clientCredentialsGrant,
};

async function token(req: Request, ctx: RequestContext): Promise<Response> {
  const form = new URLSearchParams(await req.text());
  const grantType = form.get("grant_type") ?? "";
  const grant = Object.hasOwn(GRANTS, grantType) ? GRANTS[grantType] : undefined;
  if (!grant) {
    return oauthError(
      400,
      "unsupported_grant_type",
      grantType ? `The grant type ${grantType} is not supported` : "The 'grant_type' parameter is required",
    );
  }
  return await grant(form, presentedCredentials(req, form), ctx);
}

function openidConfiguration(_req: Request, ctx: RequestContext): Response {
  const base = ctx.baseUrl;
  return json(200, {
    issuer: TOKEN_ISSUER,
    authorization_endpoint: `${base}/authentication/v2/authorize`,
    token_endpoint: `${base}/authentication/v2/token`,
    userinfo_endpoint: `${base}/userinfo`,
    jwks_uri: `${base}/authentication/v2/keys`,
    revocation_endpoint: `${base}/authentication/v2/revoke`,
    introspection_endpoint: `${base}/authentication/v2/introspect`,
    scopes_supported: [...SCOPE_NAMES],
    response_types_supported: ["code", "code id_token", "id_token"],
    response_modes_supported: ["fragment", "form_post", "query"],
    grant_types_supported: ["authorization_code", "client_credentials", "refresh_token"],
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
    handler: (_req, ctx) => json(200, jwks(ctx.sandbox.keys)),
  },
  { method: "GET", pattern: "/.well-known/openid-configuration", scopes: [], handler: openidConfiguration },
];
