/** `diazo auth login`: 2-legged, 3-legged (PKCE, browser or pasted redirect) and service accounts. */
import path from "node:path";
import {
  authorizeUrl,
  completeLogin,
  DEFAULT_3L_SCOPES,
  saveUserLogin,
  storedFromResponse,
  threeLeggedKey,
} from "../auth/three_legged.ts";
import { codeFromPaste, listenForCallback } from "../auth/callback_server.ts";
import { codeChallenge, codeVerifier, randomState } from "../auth/pkce.ts";
import { signAssertion } from "../auth/service_account.ts";
import { twoLeggedToken } from "../auth/two_legged.ts";
import { DiazoError, usageError } from "../core/errors.ts";
import { parseScopeList, scopeInfo, unknownScopes } from "../aps/scopes.ts";
import { openBrowser } from "../platform/browser.ts";
import {
  authorizePreflight,
  deviceAuthorization,
  deviceCodeToken,
  discovery,
  jwtBearerToken,
} from "../services/authentication.ts";
import { pollDeviceToken } from "../auth/device.ts";
import { registerSecret } from "../core/redact.ts";
import type { Ctx } from "./context.ts";
import type { StoredToken } from "../auth/token_store.ts";

/** Options of `auth login`. */
export interface LoginOptions {
  twoLegged?: boolean;
  threeLegged?: boolean;
  scopes?: string;
  browser?: boolean;
  device?: boolean;
  serviceAccount?: string;
  keyFile?: string;
  keyId?: string;
}

/** What `auth login` prints: the mode, profile, scopes and expiry, plus what identifies the login. */
function loginSummary(token: StoredToken, profile: string, extra: Record<string, unknown>) {
  return {
    mode: token.mode,
    profile,
    ...extra,
    scopes: token.scopes,
    expires_at: new Date(token.expires_at).toISOString(),
  };
}

/** Parses and checks a scope list for a mode: unknown names and mode-excluded scopes are usage errors. */
export function checkedScopes(text: string, mode: "2-legged" | "3-legged"): string[] {
  const scopes = parseScopeList(text);
  const unknown = unknownScopes(scopes);
  if (unknown.length) {
    throw usageError(
      `unknown scope ${unknown.join(", ")}`,
      "See the platform's scopes with `diazo auth scopes`.",
    );
  }
  const excluded = scopes.filter((s) =>
    !(scopeInfo(s.startsWith("data:read:") ? "data:read" : s)?.modes.includes(mode))
  );
  if (excluded.length) {
    throw usageError(
      `${excluded.join(", ")} cannot be granted to a ${mode} token`,
      mode === "2-legged"
        ? "account:* and user scopes need a user: use `diazo auth login --3legged`."
        : "Remove them from --scopes.",
    );
  }
  return scopes;
}

async function loginTwoLegged(ctx: Ctx, opts: LoginOptions) {
  const resolved = await ctx.settings();
  const cfg = structuredClone(await ctx.config());
  if (opts.scopes) {
    const scopes = checkedScopes(opts.scopes, "2-legged");
    (cfg.profiles[resolved.profileName] ??= {}).scopes = scopes;
    cfg.active_profile ??= resolved.profileName;
    await ctx.saveConfig(cfg);
  }
  const fresh = await ctx.settings();
  const { token } = await twoLeggedToken(
    { resolved: fresh, store: await ctx.tokenStore(), authHttp: await ctx.http({ auth: "none" }) },
    { force: true },
  );
  ctx.info(`Logged in (2-legged) as app ${token.client_id} with ${token.scopes.join(" ")}`);
  return loginSummary(token, fresh.profileName, { client_id: token.client_id });
}

async function loginServiceAccount(ctx: Ctx, opts: LoginOptions) {
  const resolved = await ctx.settings();
  const clientId = resolved.clientId.value;
  if (!clientId || !resolved.clientSecret.value) throw new DiazoError("missing_credentials");
  if (!opts.keyFile) {
    throw usageError(
      "--service-account needs --key-file <pem>",
      "Pass the private key file of the service account's key.",
    );
  }
  let pem: string;
  try {
    pem = await Deno.readTextFile(path.resolve(ctx.cwd, opts.keyFile));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new DiazoError("file_not_found", { params: { file: opts.keyFile } });
    }
    throw e;
  }
  const scopes = opts.scopes ? checkedScopes(opts.scopes, "3-legged") : DEFAULT_3L_SCOPES;
  const assertion = await signAssertion({
    clientId,
    serviceAccountId: opts.serviceAccount!,
    keyId: opts.keyId,
    pem,
    scopes,
  });
  const res = await jwtBearerToken(await ctx.http({ auth: "none" }), {
    clientId,
    clientSecret: resolved.clientSecret.value,
    assertion,
    scopes,
  });
  const token = storedFromResponse(res, {
    profile: resolved.profileName,
    clientId,
    baseUrl: resolved.baseUrl.value,
    scopes,
  }, Date.now());
  await (await ctx.tokenStore()).put(
    threeLeggedKey(resolved.profileName, clientId, resolved.baseUrl.value),
    token,
  );
  ctx.info(`Logged in as service account ${opts.serviceAccount}`);
  return loginSummary(token, resolved.profileName, { service_account: opts.serviceAccount });
}

async function loginThreeLegged(ctx: Ctx, opts: LoginOptions) {
  const resolved = await ctx.settings();
  const clientId = resolved.clientId.value;
  if (!clientId) throw new DiazoError("missing_credentials");
  const scopes = opts.scopes ? checkedScopes(opts.scopes, "3-legged") : DEFAULT_3L_SCOPES;
  const redirectUri = resolved.callbackUrl.value;
  let cb: URL;
  try {
    cb = new URL(redirectUri);
    if (cb.protocol !== "http:" && cb.protocol !== "https:") throw new Error();
  } catch {
    throw new DiazoError("callback_mismatch", { params: {} });
  }
  const verifier = codeVerifier();
  const state = randomState();
  const url = authorizeUrl(resolved.baseUrl.value, {
    clientId,
    redirectUri,
    scopes,
    state,
    challenge: await codeChallenge(verifier),
  });
  const pre = await authorizePreflight(url).catch(() => undefined);
  if (pre && pre.status >= 400 && /redirect_uri|callback/i.test(JSON.stringify(pre.body ?? ""))) {
    throw new DiazoError("callback_mismatch", { status: pre.status, body: pre.body });
  }
  const waitMs = (ctx.flags.timeout ?? 300) * 1000;
  let code: string;
  if (opts.browser === false) {
    ctx.io.stderr.write(
      `Open this URL in a browser, approve, then paste the URL you are redirected to (or its code):\n\n  ${url}\n\n> `,
    );
    const pasted = await ctx.io.stdin.readLine();
    if (pasted === null) {
      throw usageError(
        "no redirect URL on stdin",
        "Paste the whole redirect URL after approving in the browser.",
      );
    }
    code = codeFromPaste(pasted, state);
  } else {
    const server = listenForCallback(redirectUri, state, waitMs);
    try {
      const opened = ctx.env.DIAZO_NO_BROWSER ? false : await openBrowser(url);
      ctx.info(
        opened ? "Opened the browser to sign in; waiting for the callback..." : "Could not open a browser.",
      );
      ctx.info(`If nothing happens, open:\n  ${url}`);
      code = await server.code;
    } finally {
      await server.close();
    }
  }
  const token = await completeLogin(
    { resolved, store: await ctx.tokenStore(), authHttp: await ctx.http({ auth: "none" }) },
    { code, verifier, redirectUri, scopes },
  );
  ctx.info(`Logged in (3-legged) to profile ${resolved.profileName}`);
  return loginSummary(token, resolved.profileName, { client_id: clientId });
}

/** RFC 8628: where the discovery document advertises device authorization, sign in on another device. */
async function loginDevice(ctx: Ctx, opts: LoginOptions) {
  const authHttp = await ctx.http({ auth: "none" });
  const doc = await discovery(authHttp);
  if (!doc.device_authorization_endpoint) {
    throw usageError(
      "the platform offers no device authorization (its discovery document has no device_authorization_endpoint)",
      "On a machine without a browser use `diazo auth login --no-browser` and paste the redirect URL, or a service account.",
    );
  }
  const resolved = await ctx.settings();
  const clientId = resolved.clientId.value;
  if (!clientId) throw new DiazoError("missing_credentials");
  const client = { clientId, clientSecret: resolved.clientSecret.value };
  const scopes = opts.scopes ? checkedScopes(opts.scopes, "3-legged") : DEFAULT_3L_SCOPES;
  const grant = await deviceAuthorization(authHttp, doc.device_authorization_endpoint, { ...client, scopes });
  registerSecret(grant.device_code);
  ctx.io.stderr.write(
    `To sign in, open ${grant.verification_uri} and enter the code ${grant.user_code}` +
      (grant.verification_uri_complete ? `\n(or open ${grant.verification_uri_complete})` : "") +
      `\nWaiting for approval (the code expires in ${grant.expires_in} s)...\n`,
  );
  if (opts.browser !== false && !ctx.env.DIAZO_NO_BROWSER) {
    await openBrowser(grant.verification_uri_complete ?? grant.verification_uri).catch(() => false);
  }
  const res = await pollDeviceToken({
    poll: () => deviceCodeToken(authHttp, { ...client, deviceCode: grant.device_code }),
    now: Date.now,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  }, grant);
  const token = await saveUserLogin({ resolved, store: await ctx.tokenStore() }, res, scopes);
  ctx.info(`Logged in (3-legged, device authorization) to profile ${resolved.profileName}`);
  return loginSummary(token, resolved.profileName, { client_id: clientId });
}

/** Runs `auth login` with its options and returns the result to print. */
export async function runLogin(ctx: Ctx, opts: LoginOptions): Promise<Record<string, unknown>> {
  const modes =
    [opts.twoLegged, opts.threeLegged, opts.serviceAccount !== undefined, opts.device].filter(Boolean).length;
  if (modes > 1) {
    throw usageError(
      "choose one of --2legged, --3legged, --service-account, --device",
      "Example: diazo auth login --3legged --scopes data:read",
    );
  }
  if (opts.device) return await loginDevice(ctx, opts);
  if (opts.twoLegged) return await loginTwoLegged(ctx, opts);
  if (opts.serviceAccount !== undefined) return await loginServiceAccount(ctx, opts);
  return await loginThreeLegged(ctx, opts);
}
