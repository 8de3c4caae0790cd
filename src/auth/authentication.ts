/** The platform's OAuth v2 token endpoint (authentication.yaml). */
import { buildUrl, type Http, type RequestSpec } from "../http/http.ts";
import { checkCredentialOrigin } from "../http/origin.ts";
import { DiazoError } from "../core/errors.ts";
import { DEVICE_CODE_GRANT, JWT_BEARER_GRANT } from "../aps/grant_types.ts";
import { PROFILE_READ } from "../aps/scope_constants.ts";

/** The token endpoint's answer. */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  id_token?: string;
}

/**
 * The token endpoint's answer checked before it is used or cached: without a string `access_token`
 * and a positive `expires_in` it is an authentication error naming the endpoint (a token of
 * `undefined` would otherwise be sent to every region and kept in the token store).
 */
export function checkTokenAnswer(data: unknown, url: string): TokenResponse {
  const t = data as Partial<TokenResponse> | null | undefined;
  const fine = typeof t === "object" && t !== null && typeof t.access_token === "string" &&
    t.access_token !== "" && typeof t.expires_in === "number" && t.expires_in > 0;
  if (fine) return t as TokenResponse;
  const what = typeof t?.access_token !== "string" || t.access_token === ""
    ? "no access_token"
    : "no positive expires_in";
  throw new DiazoError("auth_failed", {
    message: `Authentication failed: the token endpoint ${url} answered with ${what}`,
  });
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
  return checkTokenAnswer(res.data, res.url);
}

/** Credentials of a token request: a confidential client (Basic) or a public one (client_id only). */
export type ClientAuth = { clientId: string; clientSecret?: string };

function clientAuth(c: ClientAuth, form: Record<string, string>) {
  if (c.clientSecret) {
    return { auth: { basic: { user: c.clientId, password: c.clientSecret } } as const, form };
  }
  return { auth: "none" as const, form: { ...form, client_id: c.clientId } };
}

/** POSTs a grant to the token endpoint; `retry` says whether the grant may be sent twice. */
async function postToken(
  http: Http,
  body: { auth: RequestSpec["auth"]; form: Record<string, string> },
  retry: "never" | "always",
): Promise<TokenResponse> {
  const res = await http.request<TokenResponse>({
    method: "POST",
    path: "/authentication/v2/token",
    auth: body.auth,
    form: body.form,
    retry,
    resource: "token",
  });
  return checkTokenAnswer(res.data, res.url);
}

/** Exchanges an authorization code (with its PKCE verifier) for a 3-legged token. */
export async function authorizationCodeToken(
  http: Http,
  input: ClientAuth & { code: string; redirectUri: string; codeVerifier: string },
): Promise<TokenResponse> {
  const { auth, form } = clientAuth(input, {
    grant_type: "authorization_code",
    code: input.code,
    redirect_uri: input.redirectUri,
    code_verifier: input.codeVerifier,
  });
  // A code is single-use: never retried.
  return await postToken(http, { auth, form }, "never");
}

/** Uses a refresh token (which the platform rotates) for a new access token. */
export async function refreshToken(
  http: Http,
  input: ClientAuth & { refreshToken: string; scopes?: readonly string[] },
): Promise<TokenResponse> {
  const { auth, form } = clientAuth(input, {
    grant_type: "refresh_token",
    refresh_token: input.refreshToken,
    ...(input.scopes ? { scope: input.scopes.join(" ") } : {}),
  });
  // Rotation makes a refresh single-use: a blind retry could burn the new token.
  return await postToken(http, { auth, form }, "never");
}

/** JWT-bearer grant (service accounts): a signed assertion for a 3-legged token. */
export async function jwtBearerToken(
  http: Http,
  input: ClientAuth & { assertion: string; scopes: readonly string[] },
): Promise<TokenResponse> {
  const { auth, form } = clientAuth(input, {
    grant_type: JWT_BEARER_GRANT,
    assertion: input.assertion,
    scope: input.scopes.join(" "),
  });
  return await postToken(http, { auth, form }, "always");
}

/** The device authorization endpoint's answer (RFC 8628 §3.2). */
export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

/**
 * Starts a device authorization (RFC 8628 §3.1) at the endpoint the discovery document names, which
 * must be on the platform's origin (http/origin.ts): the client id and secret go nowhere else.
 */
export async function deviceAuthorization(
  http: Http,
  endpoint: string,
  input: ClientAuth & { scopes: readonly string[] },
): Promise<DeviceAuthorization> {
  checkCredentialOrigin(buildUrl(http.baseUrl, endpoint), http.baseUrl, "the client credentials");
  const { auth, form } = clientAuth(input, { scope: input.scopes.join(" ") });
  const res = await http.request<DeviceAuthorization>({
    method: "POST",
    path: endpoint,
    auth,
    form: { ...form, client_id: input.clientId },
    retry: "always",
    resource: "token",
  });
  return res.data;
}

/** One poll of the token endpoint with a device code (RFC 8628 §3.4); pending answers are errors. */
export async function deviceCodeToken(
  http: Http,
  input: ClientAuth & { deviceCode: string },
): Promise<TokenResponse> {
  const { auth, form } = clientAuth(input, { grant_type: DEVICE_CODE_GRANT, device_code: input.deviceCode });
  return await postToken(http, { auth, form }, "never");
}

/** Revokes an access or refresh token at the platform. */
export async function revokeToken(
  http: Http,
  input: ClientAuth & { token: string; hint: "access_token" | "refresh_token" },
): Promise<void> {
  const { auth, form } = clientAuth(input, { token: input.token, token_type_hint: input.hint });
  await http.request({
    method: "POST",
    path: "/authentication/v2/revoke",
    auth,
    form,
    retry: "always",
    resource: "token",
    responseType: "none",
  });
}

/** The platform's introspection of a token. */
export interface Introspection {
  active: boolean;
  scope?: string;
  client_id?: string;
  exp?: number;
  userid?: string;
}

/** Asks the platform whether a token is active and what it carries. */
export async function introspectToken(
  http: Http,
  input: ClientAuth & { token: string },
): Promise<Introspection> {
  const { auth, form } = clientAuth(input, { token: input.token });
  const res = await http.request<Introspection>({
    method: "POST",
    path: "/authentication/v2/introspect",
    auth,
    form,
    retry: "always",
    resource: "token",
  });
  return res.data;
}

/** The OpenID discovery document. */
export interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint?: string;
  revocation_endpoint?: string;
  introspection_endpoint?: string;
  device_authorization_endpoint?: string;
  scopes_supported?: string[];
  grant_types_supported?: string[];
}

/** Reads the discovery document. */
export async function discovery(http: Http): Promise<Discovery> {
  return (await http.request<Discovery>({ path: "/.well-known/openid-configuration", auth: "none" })).data;
}

/** Where the platform serves the user's profile (a different host than the APIs). */
export const USERINFO_URL = "https://api.userprofile.autodesk.com/userinfo";

/** The signed-in user's profile (3-legged token). */
export async function userInfo(http: Http, url: string): Promise<Record<string, unknown>> {
  return (await http.request<Record<string, unknown>>({
    path: url,
    auth: "bearer",
    scope: PROFILE_READ,
  })).data;
}

/**
 * Asks the authorize endpoint about a login URL without following its redirect, so that a callback
 * URL the app does not know is reported before the user is sent to a browser. Returns the status
 * and, for a refusal, the parsed body.
 */
export async function authorizePreflight(
  url: string,
  timeoutMs = 10_000,
): Promise<{ status: number; body?: unknown }> {
  const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
  if (res.status < 400) {
    await res.body?.cancel();
    return { status: res.status };
  }
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}
