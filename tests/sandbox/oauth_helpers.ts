/**
 * Helpers of the 3-legged OAuth tests: PKCE pairs, the authorize redirect followed by hand, and a
 * complete login of the sandbox user.
 */

import assert from "node:assert/strict";
import { type Answer, APP, basic, call, type SandboxAt, tokenRequest } from "./helpers.ts";

/** The well-known app's registered callback. */
export const CALLBACK = "http://localhost:8080/callback";

/** The sandbox user's id. */
export const SANDBOX_USERID = "DIAZOSANDBOXUSER";

const b64url = (bytes: Uint8Array) => bytes.toBase64({ alphabet: "base64url", omitPadding: true });

/** A random PKCE verifier and its S256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(48)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: b64url(new Uint8Array(digest)) };
}

/** The answer of `/authorize`, not following a redirect; `location` is parsed when present. */
export interface AuthorizeAnswer {
  status: number;
  location?: URL;
  // deno-lint-ignore no-explicit-any
  json?: any;
}

/** Calls `/authorize` with `params` (defaults: the well-known app, its callback, response_type=code). */
export async function authorize(sb: SandboxAt, params: Record<string, string>): Promise<AuthorizeAnswer> {
  const q = new URLSearchParams({
    response_type: "code",
    client_id: APP.id,
    redirect_uri: CALLBACK,
    ...params,
  });
  const res = await fetch(`${sb.url}/authentication/v2/authorize?${q}`, { redirect: "manual" });
  const text = await res.text();
  const location = res.headers.get("location");
  const isJson = (res.headers.get("content-type") ?? "").includes("json");
  return {
    status: res.status,
    location: location === null ? undefined : new URL(location),
    json: isJson && text !== "" ? JSON.parse(text) : undefined,
  };
}

/** Authorizes `scope` with a PKCE challenge and returns the code from the redirect. */
export async function authorizationCode(
  sb: SandboxAt,
  scope: string,
  params: Record<string, string> = {},
): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = await pkcePair();
  const a = await authorize(sb, {
    scope,
    state: "st-1",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...params,
  });
  assert.equal(a.status, 302, JSON.stringify(a.json));
  const code = a.location?.searchParams.get("code");
  assert.ok(code, `a code in ${a.location}`);
  return { code, verifier };
}

/** Exchanges a code as the well-known (confidential) app. */
export function exchangeCode(sb: SandboxAt, code: string, verifier: string): Promise<Answer> {
  return tokenRequest(
    sb,
    { grant_type: "authorization_code", code, redirect_uri: CALLBACK, code_verifier: verifier },
    { authorization: basic(APP.id, APP.secret) },
  );
}

/** Logs the sandbox user in for `scope` and returns the token answer. */
export async function login(
  sb: SandboxAt,
  scope: string,
): Promise<{ access_token: string; refresh_token: string; id_token?: string; expires_in: number }> {
  const { code, verifier } = await authorizationCode(sb, scope);
  const a = await exchangeCode(sb, code, verifier);
  assert.equal(a.status, 200, JSON.stringify(a.json));
  return a.json;
}

/** Uses a refresh token as the well-known app. */
export function refresh(
  sb: SandboxAt,
  refreshToken: string,
  extra: Record<string, string> = {},
): Promise<Answer> {
  return tokenRequest(sb, { grant_type: "refresh_token", refresh_token: refreshToken, ...extra }, {
    authorization: basic(APP.id, APP.secret),
  });
}

/** Posts a form to `/authentication/v2/<endpoint>` as the well-known app. */
export function tokenManagement(
  sb: SandboxAt,
  endpoint: "introspect" | "revoke",
  form: Record<string, string>,
  headers: Record<string, string> = { authorization: basic(APP.id, APP.secret) },
): Promise<Answer> {
  return call(`${sb.url}/authentication/v2/${endpoint}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
}

/** A public client (no secret) logs in with PKCE: authorize, then exchange with client_id and verifier. */
export async function publicLogin(sb: SandboxAt, scope: string): Promise<Answer> {
  const { code, verifier } = await authorizationCode(sb, scope);
  return await tokenRequest(sb, {
    grant_type: "authorization_code",
    client_id: APP.id,
    code,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
  });
}
