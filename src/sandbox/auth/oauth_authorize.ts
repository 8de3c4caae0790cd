/**
 * The browser side of 3-legged OAuth: `/authorize`, where the sandbox user approves at once (or
 * denies, when the control API says so) and the browser is sent back with a code; and `/logout`.
 * `login_hint=visitor.user` signs in the sandbox's second user instead (users.ts).
 */

import type { RequestContext } from "../context.ts";
import { CODE_CHALLENGE, issueCode } from "./grants.ts";
import { SandboxError } from "../errors.ts";
import type { Route } from "../router.ts";
import { signingInUser } from "./users.ts";
import { grantableScopes, scopesNotAllowed } from "./oauth_client.ts";

/** The platform's limits on the `scope` parameter of `/authorize`. */
export const MAX_SCOPE_CHARS = 2000;
/** The most scopes one authorization may ask for. */
export const MAX_SCOPES = 50;

/** Characters the platform allows in `state`. */
const STATE = /^[A-Za-z0-9,._-]*$/;
const RESPONSE_MODES = ["query", "fragment", "form_post"] as const;
type ResponseMode = typeof RESPONSE_MODES[number];

/** The refusal when `redirect_uri` is not the app's registered callback (never a redirect). */
export function redirectMismatch(): SandboxError {
  throw badAuthorizeRequest(
    "invalid_request",
    "redirect_uri mismatch",
    "The redirect_uri does not match the callback URL registered for the app",
  );
}

function badAuthorizeRequest(error: string, description: string, developerMessage: string): SandboxError {
  return new SandboxError(400, { service: "auth", error, error_description: description, developerMessage });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Sends the browser back to `redirectUri` with `params`, the way `mode` asks. */
function sendBack(redirectUri: string, mode: ResponseMode, params: Record<string, string>): Response {
  const headers = { "cache-control": "no-store" };
  if (mode === "form_post") {
    const inputs = Object.entries(params)
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join("");
    const html = `<!doctype html><html><body onload="document.forms[0].submit()">` +
      `<form method="post" action="${escapeHtml(redirectUri)}">${inputs}</form></body></html>`;
    return new Response(html, {
      status: 200,
      headers: { ...headers, "content-type": "text/html; charset=utf-8" },
    });
  }
  const target = new URL(redirectUri);
  if (mode === "fragment") {
    target.hash = new URLSearchParams(params).toString();
  } else {
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
  }
  return new Response(null, { status: 302, headers: { ...headers, location: target.toString() } });
}

/**
 * `GET /authorize`. Over 80 lines because the checks run in the platform's order, which decides
 * who hears of a problem: the browser until the redirect URI is trusted, the app after it.
 */
function authorize(_req: Request, ctx: RequestContext): Response {
  // long: the checks run in the platform's order, which decides who hears of a problem (the browser, then the app)
  const q = ctx.url.searchParams;
  const auth = ctx.sandbox.auth;
  const clientId = q.get("client_id");
  if (!clientId) {
    throw badAuthorizeRequest(
      "invalid_request",
      "The 'client_id' parameter is required",
      "The required parameter client_id is not present in the request",
    );
  }
  const app = auth.apps.get(clientId);
  if (!app) {
    throw badAuthorizeRequest(
      "invalid_client",
      "Unknown client_id",
      "The client_id specified is not registered with the platform",
    );
  }
  ctx.clientId = clientId;
  const redirectUri = q.get("redirect_uri");
  if (!redirectUri) {
    throw badAuthorizeRequest(
      "invalid_request",
      "The 'redirect_uri' parameter is required",
      "The required parameter redirect_uri is not present in the request",
    );
  }
  if (redirectUri !== app.callbackUrl) throw redirectMismatch();

  // From here on the redirect URI is trusted: errors go back to the app, not to the browser.
  const modeText = q.get("response_mode") ?? "query";
  const mode = (RESPONSE_MODES as readonly string[]).includes(modeText) ? modeText as ResponseMode : "query";
  const stateParam = q.get("state");
  const echo: Record<string, string> = stateParam !== null && STATE.test(stateParam)
    ? { state: stateParam }
    : {};
  const refuse = (error: string, description: string) =>
    sendBack(redirectUri, mode, { error, error_description: description, ...echo });
  if (mode !== modeText) return refuse("invalid_request", `Unsupported response_mode: ${modeText}`);
  if (stateParam !== null && !STATE.test(stateParam)) {
    return refuse("invalid_request", "The state may contain only letters, digits and , . _ -");
  }
  const responseType = q.get("response_type");
  if (!responseType) return refuse("invalid_request", "The 'response_type' parameter is required");
  if (responseType !== "code") {
    return refuse(
      "unsupported_response_type",
      `The sandbox supports response_type=code, not ${responseType}`,
    );
  }
  const challenge = q.get("code_challenge");
  const method = q.get("code_challenge_method");
  if (challenge === null && method !== null) {
    return refuse("invalid_request", "code_challenge_method was given without a code_challenge");
  }
  if (challenge !== null) {
    if (method !== "S256") return refuse("invalid_request", "code_challenge_method must be S256");
    if (!CODE_CHALLENGE.test(challenge)) {
      return refuse("invalid_request", "code_challenge must be a base64url SHA-256 digest (43 characters)");
    }
  }
  const scopeText = q.get("scope") ?? "";
  const scopes = grantableScopes(scopeText, "3-legged");
  if ("error" in scopes) return refuse("invalid_scope", scopes.error);
  const refused = scopesNotAllowed(app, scopes.scopes);
  if (refused) return refuse("invalid_scope", refused);
  if (scopeText.length > MAX_SCOPE_CHARS || scopes.scopes.length > MAX_SCOPES) {
    return refuse("invalid_scope", `At most ${MAX_SCOPES} scopes and ${MAX_SCOPE_CHARS} characters`);
  }
  if (ctx.sandbox.settings.consent === "deny") return refuse("access_denied", "The user denied the request");

  const nonce = q.get("nonce");
  const code = issueCode(ctx.sandbox.auth, {
    clientId,
    redirectUri,
    scopes: scopes.scopes,
    userid: signingInUser(q.get("login_hint")).userid,
    ...(challenge !== null ? { codeChallenge: challenge } : {}),
    ...(nonce !== null ? { nonce } : {}),
  });
  return sendBack(redirectUri, mode, { code, ...echo });
}

function logout(_req: Request, ctx: RequestContext): Response {
  const target = ctx.url.searchParams.get("post_logout_redirect_uri");
  if (target === null) {
    return new Response("<!doctype html><html><body><p>You are signed out.</p></body></html>", {
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  }
  if (!URL.canParse(target) || !/^https?:$/.test(new URL(target).protocol)) {
    throw badAuthorizeRequest(
      "invalid_request",
      "post_logout_redirect_uri must be an absolute http(s) URL",
      "The post_logout_redirect_uri is not a valid URL",
    );
  }
  return new Response(null, { status: 302, headers: { location: target, "cache-control": "no-store" } });
}

/** Routes of the browser-facing OAuth endpoints. */
export const authorizeRoutes: readonly Route[] = [
  { method: "GET", pattern: "/authentication/v2/authorize", scopes: [], handler: authorize },
  { method: "GET", pattern: "/authentication/v2/logout", scopes: [], handler: logout },
];
