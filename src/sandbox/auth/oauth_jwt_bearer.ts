/**
 * The service-account grant of the token endpoint (`urn:ietf:params:oauth:grant-type:jwt-bearer`):
 * a confidential client trades an RS256 assertion signed with a service account's key for a
 * 3-legged access token acting as that account.
 */

import type { RequestContext } from "../context.ts";
import { oauthError } from "../errors.ts";
import { checkAssertion } from "./service_accounts.ts";
import { issueAccessToken } from "./tokens.ts";
import {
  grantableScopes,
  identifyClient,
  narrowScopes,
  type PresentedCredentials,
  tokenAnswer,
} from "./oauth_client.ts";

/** The grant type of the service-account exchange. */
export { JWT_BEARER_GRANT } from "../../aps/grant_types.ts";

/** `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`. */
export async function jwtBearerGrant(
  form: URLSearchParams,
  credentials: PresentedCredentials,
  ctx: RequestContext,
): Promise<Response> {
  const client = identifyClient(credentials, ctx, { allowPublic: false });
  const assertion = form.get("assertion");
  if (!assertion) throw oauthError(400, "invalid_request", "The 'assertion' parameter is required");
  const checked = await checkAssertion(ctx.sandbox.auth, client.app.clientId, assertion);
  if (!checked.ok) throw oauthError(400, "invalid_grant", checked.description);
  const grantable = grantableScopes(checked.scopes.join(" "), "3-legged");
  if ("error" in grantable) throw oauthError(400, "invalid_scope", grantable.error);
  const scopes = narrowScopes(grantable.scopes, form.get("scope"));
  const issued = await issueAccessToken(ctx.sandbox.auth, client.app.clientId, scopes, {
    userid: checked.account.serviceAccountId,
  });
  return tokenAnswer({
    access_token: issued.accessToken,
    token_type: "Bearer",
    expires_in: issued.expiresIn,
  });
}
