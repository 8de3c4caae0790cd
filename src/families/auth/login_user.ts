/**
 * The user's logins of `auth login`: authorization code with PKCE (a browser and a local callback,
 * or a pasted redirect URL) and device authorization (RFC 8628).
 */
import { DiazoError, usageError } from "../../core/errors.ts";
import { registerSecret } from "../../core/redact.ts";
import { visible } from "../../core/sanitize.ts";
import { authorizeUrl, completeLogin, saveUserLogin } from "../../auth/three_legged.ts";
import { codeFromPaste, listenForCallback } from "../../auth/callback_server.ts";
import { codeChallenge, codeVerifier, randomState } from "../../auth/pkce.ts";
import { pollDeviceToken } from "../../auth/device.ts";
import { openBrowser, webAddress } from "../../platform/browser.ts";
import {
  authorizePreflight,
  deviceAuthorization,
  deviceCodeToken,
  discovery,
} from "../../auth/authentication.ts";
import {
  type LoginDeps,
  type LoginOptions,
  type LoginResult,
  loginResult,
  userScopes,
} from "./login_shared.ts";

/** The callback URL of the profile, checked: the platform accepts only http(s) ones. */
function callbackUrl(value: string): string {
  try {
    const cb = new URL(value);
    if (cb.protocol === "http:" || cb.protocol === "https:") return value;
  } catch { /* reported below */ }
  throw new DiazoError("callback_mismatch", { params: {} });
}

/** The authorize URL of a PKCE login, after asking the platform whether it knows the callback URL. */
async function authorizeStep(
  p: {
    baseUrl: string;
    clientId: string;
    redirectUri: string;
    scopes: string[];
    state: string;
    verifier: string;
  },
): Promise<string> {
  const url = authorizeUrl(p.baseUrl, { ...p, challenge: await codeChallenge(p.verifier) });
  const pre = await authorizePreflight(url).catch(() => undefined);
  if (pre && pre.status >= 400 && /redirect_uri|callback/i.test(JSON.stringify(pre.body ?? ""))) {
    throw new DiazoError("callback_mismatch", { status: pre.status, body: pre.body });
  }
  return url;
}

/** The authorization code the user pastes (the redirect URL or the code itself). */
async function pastedCode(deps: LoginDeps, url: string, state: string): Promise<string> {
  deps.tell(
    `Open this URL in a browser, approve, then paste the URL you are redirected to (or its code):\n\n  ${url}\n\n> `,
  );
  const pasted = await deps.readLine();
  if (pasted === null) {
    deps.tell("\n"); // the error starts its own line, not after the "> " of the prompt
    throw usageError(
      "no redirect URL on stdin",
      "Paste the whole redirect URL after approving in the browser.",
    );
  }
  return codeFromPaste(pasted, state);
}

/** The authorization code the platform sends to the local callback after the browser's sign-in. */
async function callbackCode(
  deps: LoginDeps,
  p: { url: string; redirectUri: string; state: string; waitMs: number },
): Promise<string> {
  const server = listenForCallback(p.redirectUri, p.state, p.waitMs);
  try {
    const opened = deps.env.DIAZO_NO_BROWSER ? false : await openBrowser(p.url);
    // One thing to do, said once (on stderr even with --quiet): the URL is what the user needs either way.
    deps.tell(
      opened
        ? `Opened a browser to sign in; if no page appeared, open:\n  ${p.url}\nWaiting for the sign-in...\n`
        : `Open this URL in a browser to sign in:\n  ${p.url}\nWaiting for the sign-in...\n`,
    );
    return await server.code;
  } finally {
    await server.close();
  }
}

/**
 * A browser login waits for a person to approve; with nobody there (no terminal, CI) it would wait
 * until --timeout. A usage error at once instead, naming the logins that need no browser here.
 */
function requirePerson(deps: LoginDeps): void {
  if (deps.interactive) return;
  throw usageError(
    "a browser login needs a person, and this run has no terminal (or CI is set)",
    "Without a browser use `diazo auth login --device` (a printed URL and code), " +
      "`diazo auth login --service-account <id> --key-file <pem>`, " +
      "or `diazo auth login --no-browser` with the redirect URL piped on stdin.",
  );
}

/** Authorization code with PKCE: in the browser with a local callback, or with a pasted redirect URL. */
export async function loginThreeLegged(deps: LoginDeps, opts: LoginOptions): Promise<LoginResult> {
  const resolved = await deps.settings();
  const clientId = resolved.clientId.value;
  if (!clientId) throw new DiazoError("missing_credentials");
  const scopes = userScopes(opts);
  const redirectUri = callbackUrl(resolved.callbackUrl.value);
  if (opts.browser !== false) requirePerson(deps);
  const verifier = codeVerifier();
  const state = randomState();
  const url = await authorizeStep({
    baseUrl: resolved.baseUrl.value,
    clientId,
    redirectUri,
    scopes,
    state,
    verifier,
  });
  const code = opts.browser === false
    ? await pastedCode(deps, url, state)
    : await callbackCode(deps, { url, redirectUri, state, waitMs: (opts.timeoutSec ?? 300) * 1000 });
  const token = await completeLogin(
    { resolved, store: await deps.tokenStore(), authHttp: await deps.http({ auth: "none" }) },
    { code, verifier, redirectUri, scopes },
  );
  return loginResult(
    token,
    resolved.profileName,
    { client_id: clientId },
    `Logged in (3-legged) to profile ${resolved.profileName}`,
  );
}

/** Where and with which code the user approves a device login. */
export interface DeviceGrantShown {
  verification_uri: string;
  user_code: string;
  verification_uri_complete?: string;
  expires_in: number;
}

/** What a device login uses of a login's deps; `shown` hears the code as it is told (the tool server's login). */
export type DeviceLoginDeps = Pick<LoginDeps, "http" | "settings" | "tokenStore" | "env" | "tell"> & {
  shown?: (grant: DeviceGrantShown) => void;
};

/** RFC 8628: where the discovery document advertises device authorization, sign in on another device. */
export async function loginDevice(deps: DeviceLoginDeps, opts: LoginOptions): Promise<LoginResult> {
  const authHttp = await deps.http({ auth: "none" });
  const doc = await discovery(authHttp);
  if (!doc.device_authorization_endpoint) {
    throw usageError(
      "the platform offers no device authorization (its discovery document has no device_authorization_endpoint)",
      "On a machine without a browser use `diazo auth login --no-browser` and paste the redirect URL, or a service account.",
    );
  }
  const resolved = await deps.settings();
  const clientId = resolved.clientId.value;
  if (!clientId) throw new DiazoError("missing_credentials");
  const client = { clientId, clientSecret: resolved.clientSecret.value };
  const scopes = userScopes(opts);
  const grant = await deviceAuthorization(authHttp, doc.device_authorization_endpoint, { ...client, scopes });
  registerSecret(grant.device_code);
  // The platform's words reach the terminal: control characters are shown, not obeyed (core/sanitize.ts).
  const shown = (v: unknown) => visible(String(v));
  deps.tell(
    `To sign in, open ${shown(grant.verification_uri)} and enter the code ${shown(grant.user_code)}` +
      (grant.verification_uri_complete ? `\n(or open ${shown(grant.verification_uri_complete)})` : "") +
      `\nWaiting for approval (the code expires in ${shown(grant.expires_in)} s)...\n`,
  );
  deps.shown?.({
    verification_uri: shown(grant.verification_uri),
    user_code: shown(grant.user_code),
    ...(grant.verification_uri_complete
      ? { verification_uri_complete: shown(grant.verification_uri_complete) }
      : {}),
    expires_in: Number(grant.expires_in),
  });
  // Only an http(s) address is opened (platform/browser.ts): the complete one, else the plain one.
  const page = [grant.verification_uri_complete, grant.verification_uri]
    .find((u) => typeof u === "string" && webAddress(u) !== undefined);
  if (page && opts.browser !== false && !deps.env.DIAZO_NO_BROWSER) {
    await openBrowser(page).catch(() => false);
  }
  const res = await pollDeviceToken({
    poll: () => deviceCodeToken(authHttp, { ...client, deviceCode: grant.device_code }),
    now: Date.now,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  }, grant);
  const token = await saveUserLogin({ resolved, store: await deps.tokenStore() }, res, scopes);
  return loginResult(
    token,
    resolved.profileName,
    { client_id: clientId },
    `Logged in (3-legged, device authorization) to profile ${resolved.profileName}`,
  );
}
