/** Tools `auth_test` and `auth_status`: do the credentials work, and which tools can be used with them. */
import { z } from "zod";
import { jwtUserId } from "../../aps/jwt.ts";
import { runAuthStatus, runAuthTest } from "./verbs.ts";
import { USER_LOGIN_HOW, userLogin } from "../../mcp/login.ts";
import { deriveTool } from "../../mcp/derive.ts";
import { type AnyTool, defineTool, type ToolContext } from "../../mcp/tool.ts";
import { AUTH } from "./commands.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

const NO_CREDENTIALS_HOW =
  "Set SVC_CLIENT_ID and SVC_CLIENT_SECRET (or APS_*) in the server's environment (the `env` of the assistant's " +
  "server config), or create a profile with `diazo config profile create <name>` and start the server with that " +
  "profile (its profile option).";

const authTest = deriveTool(AUTH, {
  name: "auth_test",
  title: "Test the app credentials",
  description:
    "Requests a fresh 2-legged (app) token from the platform to prove that the configured client id and secret work. " +
    "Returns the profile, client id, platform address, granted scopes and expiry. Call it first when other tools fail " +
    "with authentication errors.",
  output: {
    ok: z.boolean(),
    mode: z.string(),
    profile: z.string(),
    client_id: z.string(),
    base_url: z.string(),
    scopes: z.array(z.string()),
    expires_at: z.string().describe("ISO 8601 time the token expires."),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  scopes: toolScopes("auth_test"),
  login: "app",
  async run(_args, ctx) {
    const { client_id_source: _, ...result } = await runAuthTest({}, ctx);
    return result;
  },
});

const toolUse = z.object({
  name: z.string(),
  usable: z.boolean(),
  login: z.enum(["none", "app", "either", "user"]),
  scopes: z.array(z.string()),
  reason: z.string().optional().describe("Why it cannot be used now, and what to do."),
});

const authStatus = defineTool({
  name: "auth_status",
  title: "Show the login and which tools work",
  description:
    "Shows the profile in use, whether app credentials (client id and secret) are configured and with which scopes, " +
    "whether a user (3-legged) login exists, and for every tool of this server whether it can be used now and, if not, " +
    "why and how to log in. Makes no request to the platform.",
  input: {},
  output: {
    profile: z.string(),
    base_url: z.string(),
    client_id: z.string().nullable(),
    app_credentials: z.boolean().describe("True when a client id and secret are configured."),
    app_scopes: z.array(z.string()).describe("Scopes the app's 2-legged tokens are requested with."),
    user_login: z.object({
      logged_in: z.boolean(),
      user: z.string().nullable(),
      scopes: z.array(z.string()),
      expires_at: z.string().nullable(),
    }),
    token_store: z.object({ kind: z.string(), location: z.string(), reason: z.string() }),
    tools: z.array(toolUse),
    how_to_log_in: z.array(z.string()),
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scopes: toolScopes("auth_status"),
  login: "none",
  async run(_args, ctx) {
    const status = await runAuthStatus({}, ctx);
    const appCredentials = status.client_id !== null && status.client_secret !== null;
    const user = await userLogin(ctx);
    const userScopes = user?.scopes ?? [];
    const how: string[] = [];
    if (!appCredentials) how.push(NO_CREDENTIALS_HOW);
    if (!user) how.push(`For tools that act as you (auth: "user", e.g. personal hubs): ${USER_LOGIN_HOW}`);
    return {
      profile: status.profile,
      base_url: status.base_url,
      client_id: status.client_id,
      app_credentials: appCredentials,
      app_scopes: status.scopes,
      user_login: {
        logged_in: user !== undefined,
        user: user ? jwtUserId(user.access_token) : null,
        scopes: userScopes,
        expires_at: user ? new Date(user.expires_at).toISOString() : null,
      },
      token_store: status.token_store,
      tools: toolUses(ctx, {
        appCredentials,
        appScopes: status.scopes,
        userScopes: user ? userScopes : undefined,
      }),
      how_to_log_in: how,
    };
  },
});

/** Whether each tool can be used with the logins at hand. */
function toolUses(
  ctx: ToolContext,
  have: { appCredentials: boolean; appScopes: string[]; userScopes?: string[] },
): z.input<typeof toolUse>[] {
  return ctx.tools.map((t) => {
    const base = { name: t.name, login: t.login, scopes: [...t.scopes] };
    if (t.login === "none") return { ...base, usable: true };
    if (t.login === "user") return { ...base, ...userOnly(t.scopes, have.userScopes) };
    const missing = (held: readonly string[]) => t.scopes.filter((s) => !held.includes(s));
    const appMissing = missing(have.appScopes);
    const appOk = have.appCredentials && appMissing.length === 0;
    const userOk = t.login === "either" && have.userScopes !== undefined &&
      missing(have.userScopes).length === 0;
    if (appOk || userOk) return { ...base, usable: true };
    // The remedies are said once, in how_to_log_in.
    const reason = !have.appCredentials
      ? `no app credentials${t.login === "either" ? " and no user login" : ""} (see how_to_log_in)`
      : `the app's scopes lack ${appMissing.join(", ")}: add them to the server's profile in a terminal ` +
        `(\`diazo auth extend-scopes\`, adding ${appMissing.join(",")})`;
    return { ...base, usable: false, reason };
  });
}

/** Whether a tool that acts only as the user can be used: a user login holding its scopes. */
function userOnly(scopes: readonly string[], held?: string[]): { usable: boolean; reason?: string } {
  if (held === undefined) return { usable: false, reason: "no user login (see how_to_log_in)" };
  const lacking = scopes.filter((s) => !held.includes(s));
  if (lacking.length === 0) return { usable: true };
  return {
    usable: false,
    reason: `the user login's scopes lack ${lacking.join(", ")}: call auth_login with scopes ${
      JSON.stringify([...new Set([...held, ...lacking])])
    } (or run \`diazo auth login --scopes ${[...new Set([...held, ...lacking])].join(",")}\` in a terminal)`,
  };
}

/** The auth area's tools. */
export const AUTH_TOOLS: readonly AnyTool[] = [authTest, authStatus];
