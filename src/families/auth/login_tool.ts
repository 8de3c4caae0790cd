/**
 * `auth_login`: a user login from the assistant. It starts a device login (RFC 8628, as `diazo auth
 * login --device`) and answers the address and code for the user at once; the login goes on polling in
 * the server, and a later call (or the same one, with `wait_seconds`) reports it complete.
 */
import { z } from "zod";
import { DEFAULT_3L_SCOPES } from "../../auth/three_legged.ts";
import { type AnyTool, defineTool, type ToolContext } from "../../mcp/tool.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";
import { type DeviceGrantShown, loginDevice } from "./login_user.ts";
import type { LoginResult } from "./login_shared.ts";

/** The scopes the tool asks for by default: a user login's, and account:read for the admin tools. */
export const TOOL_LOGIN_SCOPES: readonly string[] = [...DEFAULT_3L_SCOPES, "account:read"];

/** A device login under way for one profile. */
interface Pending {
  scopes: string;
  shown?: DeviceGrantShown;
  done: Promise<LoginResult>;
  result?: LoginResult;
  error?: unknown;
}

const pending = new Map<string, Pending>();

/** Starts a device login; resolves once its code is shown (or it failed before). */
async function start(ctx: ToolContext, scopes: string): Promise<Pending> {
  const told = Promise.withResolvers<void>();
  const p: Pending = { scopes, done: Promise.resolve() as unknown as Promise<LoginResult> };
  p.done = loginDevice({
    http: ctx.http,
    settings: ctx.settings,
    tokenStore: ctx.tokenStore,
    env: { DIAZO_NO_BROWSER: "1" },
    tell: () => {},
    shown: (grant) => {
      p.shown = grant;
      told.resolve();
    },
  }, { scopes, browser: false });
  p.done.then((r) => (p.result = r), (e) => (p.error = e));
  await Promise.race([told.promise, p.done]);
  return p;
}

/** Waits for `done` at most `seconds`, or until the call is cancelled. */
async function waitFor(done: Promise<unknown>, seconds: number, signal?: AbortSignal): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, seconds * 1000);
    signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  await Promise.race([done.then(() => {}, () => {}), stop]);
  clearTimeout(timer);
}

const authLogin = defineTool({
  name: "auth_login",
  title: "Log in as the user",
  description:
    "Starts a user login (device login): answers an address and a code to show the user, who approves there; " +
    "call again to complete it. Default scopes include account:read.",
  input: {
    scopes: z.array(z.string().regex(/^[a-z-]+:[a-z]+$/)).optional().describe(
      'Scopes, e.g. ["data:read", "account:write"]; default the usual ones and account:read.',
    ),
    wait_seconds: z.number().int().min(0).max(120).default(10).describe("Seconds to wait for approval."),
  },
  output: {
    status: z.enum(["logged_in", "pending"]),
    verification_uri: z.string().optional(),
    user_code: z.string().optional(),
    verification_uri_complete: z.string().optional(),
    expires_in: z.number().optional(),
    scopes: z.array(z.string()),
    message: z.string(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  scopes: toolScopes("auth_login"),
  login: "none",
  async run(args, ctx) {
    const scopes = [...new Set(args.scopes ?? TOOL_LOGIN_SCOPES)].sort().join(",");
    const profile = (await ctx.settings()).profileName;
    let p = pending.get(profile);
    if (!p || p.error !== undefined || p.scopes !== scopes || p.result) {
      p = await start(ctx, scopes);
      pending.set(profile, p);
    }
    if (p.error === undefined && p.result === undefined) await waitFor(p.done, args.wait_seconds, ctx.signal);
    if (p.error !== undefined) {
      pending.delete(profile);
      throw p.error;
    }
    if (p.result) {
      pending.delete(profile);
      return {
        status: "logged_in" as const,
        scopes: p.result.login.scopes,
        message: `${p.result.action}; the tools that act as the user work now (auth_status shows them).`,
      };
    }
    const g = p.shown!;
    return {
      status: "pending" as const,
      ...g,
      scopes: scopes.split(","),
      message: `Ask the user to open ${g.verification_uri} and enter the code ${g.user_code}, then call ` +
        "auth_login again to complete.",
    };
  },
});

/** The login tool. */
export const LOGIN_TOOLS: readonly AnyTool[] = [authLogin];
