/**
 * What the OAuth endpoints share: reading client credentials (Basic header or form), identifying
 * a confidential or public client, the platform's credential errors, and scope checks.
 */

import { type AuthMode, scopeInfo } from "../../aps/scopes.ts";
import type { RequestContext } from "../context.ts";
import { oauthError, SandboxError } from "../errors.ts";
import { json } from "../respond.ts";
import { type App, authenticateApp } from "./store.ts";

/** Client credentials as presented (Basic header first, else the form's fields); undefined when absent. */
export interface PresentedCredentials {
  clientId?: string;
  clientSecret?: string;
}

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

/** The platform's refusal when client credentials are absent. */
export function missingCredentials(): SandboxError {
  return new SandboxError(400, {
    service: "auth",
    developerMessage: "The required parameter(s) client_id,client_secret not present in the request",
    errorCode: "AUTH-008",
  });
}

/** The platform's refusal when client credentials are wrong. */
export function invalidClient(): SandboxError {
  return new SandboxError(401, {
    service: "auth",
    error: "invalid_client",
    error_description: "Client authentication failed",
    developerMessage: "Client authentication failed",
    errorCode: "AUTH-001",
  });
}

/** A client that identified itself: with its secret (confidential) or by client id alone (public). */
export interface IdentifiedClient {
  app: App;
  confidential: boolean;
}

/**
 * Identifies the calling client and notes its id in `ctx` for the request log. Without a secret
 * the client is public: that needs `allowPublic` and a registered client id.
 */
export function identifyClient(
  credentials: PresentedCredentials,
  ctx: RequestContext,
  opts: { allowPublic: boolean },
): IdentifiedClient {
  const { clientId, clientSecret } = credentials;
  if (clientId === undefined) throw missingCredentials();
  ctx.clientId = clientId;
  if (clientSecret === undefined) {
    if (!opts.allowPublic) throw missingCredentials();
    const app = ctx.sandbox.auth.apps.get(clientId);
    if (!app) throw invalidClient();
    return { app, confidential: false };
  }
  const app = authenticateApp(ctx.sandbox.auth, clientId, clientSecret);
  if (!app) throw invalidClient();
  return { app, confidential: true };
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
    const info = scopeInfo(s);
    if (!info) return { error: `Unknown scope: ${s}` };
    // What the platform grants, not what diazo recommends: real clients ask for more.
    if (!info.granted.includes(mode)) return { error: `The scope ${s} cannot be granted to a ${mode} token` };
  }
  return { scopes };
}

/** The scopes among `scopes` that `app` may not be granted, as the refusal's description; undefined when none. */
export function scopesNotAllowed(app: App, scopes: readonly string[]): string | undefined {
  const refused = app.scopes ? scopes.filter((s) => !app.scopes!.includes(s)) : [];
  return refused.length ? `The app ${app.clientId} may not be granted: ${refused.join(" ")}` : undefined;
}

/**
 * Narrows `granted` to the optional space-separated `requested` scopes, which must all be among
 * them; absent means all of `granted`.
 */
export function narrowScopes(granted: readonly string[], requested: string | null): string[] {
  if (requested === null || requested.trim() === "") return [...granted];
  const asked = [...new Set(requested.split(/\s+/).filter(Boolean))];
  const extra = asked.filter((s) => !granted.includes(s));
  if (extra.length > 0) {
    throw oauthError(400, "invalid_scope", `Not among the granted scopes: ${extra.join(" ")}`);
  }
  return asked;
}

/** A token endpoint answer: JSON that no cache may keep. */
export function tokenAnswer(body: Record<string, unknown>): Response {
  return json(200, body, { "cache-control": "no-store" });
}
