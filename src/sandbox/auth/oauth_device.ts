/**
 * Device authorization (RFC 8628), offered only when the control API turns it on (`device_flow`):
 * the platform advertises no device endpoint, and the sandbox stays faithful to that by default.
 */

import { DEVICE_CODE_GRANT } from "../../aps/grant_types.ts";
import type { RequestContext } from "../context.ts";
import { oauthError, type SandboxError } from "../errors.ts";
import { json } from "../respond.ts";
import type { Route } from "../router.ts";
import { nowMs } from "../clock.ts";
import { randomToken } from "./tokens.ts";
import { SANDBOX_USER } from "./users.ts";
import {
  grantableScopes,
  identifyClient,
  type PresentedCredentials,
  presentedCredentials,
} from "./oauth_client.ts";
import { userTokens } from "./oauth_grants.ts";

/** How long a device code lives: 10 minutes. */
export const DEVICE_CODE_TTL_SECONDS = 600;

/** Where the user enters the code. */
export const DEVICE_VERIFICATION_PATH = "/authentication/v2/device";

/** Where a client starts a device authorization. */
export const DEVICE_AUTHORIZATION_PATH = "/authentication/v2/device_authorization";

const USER_CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ";

function userCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const letters = [...bytes].map((b) => USER_CODE_LETTERS[b % USER_CODE_LETTERS.length]).join("");
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

function disabled(): SandboxError {
  return oauthError(404, "not_found", "Device authorization is not offered");
}

async function startDeviceAuthorization(req: Request, ctx: RequestContext): Promise<Response> {
  const auth = ctx.sandbox.auth;
  if (!ctx.sandbox.settings.deviceFlow) throw disabled();
  const form = new URLSearchParams(await req.text());
  const client = identifyClient(presentedCredentials(req, form), ctx, { allowPublic: true });
  const scopes = grantableScopes(form.get("scope") ?? "", "3-legged");
  if ("error" in scopes) throw oauthError(400, "invalid_scope", scopes.error);
  const now = nowMs(ctx.sandbox.clock);
  for (const [k, g] of auth.deviceGrants) if (g.expMs <= now) auth.deviceGrants.delete(k);
  const deviceCode = randomToken(32);
  const code = userCode();
  const interval = ctx.sandbox.settings.deviceIntervalSeconds;
  auth.deviceGrants.set(deviceCode, {
    clientId: client.app.clientId,
    userCode: code,
    scopes: scopes.scopes,
    expMs: now + DEVICE_CODE_TTL_SECONDS * 1000,
    intervalSeconds: interval,
    ...autoAnswer(ctx),
  });
  const verification = `${ctx.baseUrl}${DEVICE_VERIFICATION_PATH}`;
  return json(200, {
    device_code: deviceCode,
    user_code: code,
    verification_uri: verification,
    verification_uri_complete: `${verification}?user_code=${code}`,
    expires_in: DEVICE_CODE_TTL_SECONDS,
    interval,
  }, { "cache-control": "no-store" });
}

/** With auto_approve, the sandbox user's answer comes at once (as consent says); else the grant waits for the code. */
function autoAnswer(ctx: RequestContext): { status: "pending" | "approved" | "denied"; userid?: string } {
  if (!ctx.sandbox.settings.autoApprove) return { status: "pending" };
  if (ctx.sandbox.settings.consent === "deny") return { status: "denied" };
  return { status: "approved", userid: SANDBOX_USER.userid };
}

function page(status: number, text: string): Response {
  return new Response(`<!doctype html><html><body><p>${text}</p></body></html>`, {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
  });
}

/** The user's side: entering the code approves it at once (or denies, when the control API says so). */
function verifyUserCode(_req: Request, ctx: RequestContext): Response {
  const auth = ctx.sandbox.auth;
  if (!ctx.sandbox.settings.deviceFlow) throw disabled();
  const entered = (ctx.url.searchParams.get("user_code") ?? "").toUpperCase().replace(/[^A-Z]/g, "");
  if (!entered) return page(400, "Enter the code shown on your device: ?user_code=XXXX-XXXX");
  const now = nowMs(ctx.sandbox.clock);
  const grant = [...auth.deviceGrants.values()].find((g) =>
    g.userCode.replace("-", "") === entered && g.status === "pending" && g.expMs > now
  );
  if (!grant) return page(404, "That code is unknown or has expired.");
  if (ctx.sandbox.settings.consent === "deny") {
    grant.status = "denied";
    return page(200, "Access denied. You can close this window.");
  }
  grant.status = "approved";
  grant.userid = SANDBOX_USER.userid;
  return page(200, "Device approved. You can return to your terminal.");
}

/** `grant_type=urn:ietf:params:oauth:grant-type:device_code`. */
export async function deviceCodeGrant(
  form: URLSearchParams,
  credentials: PresentedCredentials,
  ctx: RequestContext,
): Promise<Response> {
  const auth = ctx.sandbox.auth;
  if (!ctx.sandbox.settings.deviceFlow) {
    throw oauthError(400, "unsupported_grant_type", `The grant type ${DEVICE_CODE_GRANT} is not supported`);
  }
  const client = identifyClient(credentials, ctx, { allowPublic: true });
  const value = form.get("device_code");
  if (!value) throw oauthError(400, "invalid_request", "The 'device_code' parameter is required");
  const grant = auth.deviceGrants.get(value);
  if (!grant || grant.clientId !== client.app.clientId) {
    throw oauthError(400, "invalid_grant", "The device code is invalid or has already been used");
  }
  const now = nowMs(ctx.sandbox.clock);
  if (now >= grant.expMs) {
    auth.deviceGrants.delete(value);
    throw oauthError(400, "expired_token", "The device code has expired");
  }
  if (grant.status === "denied") {
    auth.deviceGrants.delete(value);
    throw oauthError(400, "access_denied", "The user denied the request");
  }
  if (grant.status === "pending") {
    const tooSoon = grant.lastPollMs !== undefined && now - grant.lastPollMs < grant.intervalSeconds * 1000;
    grant.lastPollMs = now;
    if (tooSoon) {
      grant.intervalSeconds += 5;
      throw oauthError(400, "slow_down", "Polling too fast: wait the interval between requests");
    }
    throw oauthError(400, "authorization_pending", "The user has not yet approved the request");
  }
  auth.deviceGrants.delete(value);
  return await userTokens(ctx, {
    clientId: grant.clientId,
    userid: grant.userid!,
    grantScopes: grant.scopes,
    scopes: grant.scopes,
    confidential: client.confidential,
  });
}

/** Routes of device authorization. */
export const deviceRoutes: readonly Route[] = [
  { method: "POST", pattern: DEVICE_AUTHORIZATION_PATH, scopes: [], handler: startDeviceAuthorization },
  { method: "GET", pattern: DEVICE_VERIFICATION_PATH, scopes: [], handler: verifyUserCode },
];
