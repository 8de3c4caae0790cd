/**
 * Shared helpers of the sandbox tests: a sandbox per test, tokens, and JSON requests.
 */

import type { Sandbox } from "../../src/sandbox/server.ts";
import { startTestSandbox } from "../e2e/test_sandbox.ts";

/** What the helpers need of a sandbox: its base URL (a sandbox in this process or a spawned one). */
export type SandboxAt = Pick<Sandbox, "url">;

/** Credentials of the well-known app. */
export const APP = { id: "diazo-sandbox", secret: "diazo-sandbox-secret" } as const;

/** Runs `fn` against a fresh sandbox on a free port and closes it afterwards. */
export async function withSandbox(
  fn: (sb: Sandbox) => Promise<void>,
  log?: (line: string) => void,
): Promise<void> {
  const sb = await startTestSandbox(log);
  try {
    await fn(sb);
  } finally {
    await sb.close();
  }
}

/** A response's status, headers and parsed JSON body (null when empty). */
export interface Answer {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  json: any;
}

/** Sends a request and reads the whole answer. */
export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text === "" ? null : JSON.parse(text) };
}

/** Basic authorization header value for `id:secret`. */
export function basic(id: string, secret: string): string {
  return `Basic ${btoa(`${id}:${secret}`)}`;
}

/** Posts a form to the token endpoint. */
export function tokenRequest(
  sb: SandboxAt,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return call(`${sb.url}/authentication/v2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
}

/** A 2-legged access token with `scopes`, for the well-known app unless other credentials are given. */
export async function token(
  sb: SandboxAt,
  scopes: string,
  app: { id: string; secret: string } = APP,
): Promise<string> {
  const a = await tokenRequest(sb, { grant_type: "client_credentials", scope: scopes }, {
    authorization: basic(app.id, app.secret),
  });
  if (a.status !== 200) throw new Error(`token request failed: ${a.status} ${JSON.stringify(a.json)}`);
  return a.json.access_token;
}

/** Calls the API with a bearer token; a non-string `body` is sent as JSON. */
export function api(
  sb: SandboxAt,
  method: string,
  path: string,
  bearer: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const h: Record<string, string> = { ...headers };
  if (bearer !== undefined) h.authorization = `Bearer ${bearer}`;
  if (body !== undefined) h["content-type"] = "application/json";
  return call(`${sb.url}${path}`, {
    method,
    headers: h,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Calls the control API with an optional JSON body. */
export function control(sb: SandboxAt, method: string, path: string, body?: unknown): Promise<Answer> {
  return call(`${sb.url}/_sandbox/${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Registers a second app through the control API and returns its credentials. */
export async function addApp(
  sb: SandboxAt,
  id = "other-app",
  secret = "other-secret",
): Promise<{ id: string; secret: string }> {
  const a = await control(sb, "POST", "apps", { client_id: id, client_secret: secret });
  if (a.status !== 201) throw new Error(`app registration failed: ${a.status}`);
  return { id, secret };
}

/** Decodes a JWT's header and payload without verifying it. */
export function decodeJwt(
  jwt: string,
): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = jwt.split(".");
  const dec = (s: string) =>
    JSON.parse(new TextDecoder().decode(Uint8Array.fromBase64(s, { alphabet: "base64url" })));
  return { header: dec(h), payload: dec(p) };
}
