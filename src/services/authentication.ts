/** The platform's OAuth v2 token endpoint (authentication.yaml). */
import type { Http } from "./http.ts";

/** The token endpoint's answer. */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  id_token?: string;
}

/** Client-credentials (2-legged) token: Basic header, space-separated scopes. */
export async function clientCredentialsToken(
  http: Http,
  input: { clientId: string; clientSecret: string; scopes: readonly string[] },
): Promise<TokenResponse> {
  const res = await http.request<TokenResponse>({
    method: "POST",
    path: "/authentication/v2/token",
    auth: { basic: { user: input.clientId, password: input.clientSecret } },
    form: { grant_type: "client_credentials", scope: input.scopes.join(" ") },
    // Asking again for a token has no side effect worth guarding against.
    retry: "always",
    resource: "token",
  });
  return res.data;
}
