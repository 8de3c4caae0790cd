/** `diazo auth ...`: credentials and tokens, declared as data (command/decl.ts) over ./verbs.ts. */
import { runAuthStatus, runAuthTest, runLogout, runWhoami, scopeStatus } from "./verbs.ts";
import type { CommandDecl } from "../../command/decl.ts";
import { LOGIN } from "./login_commands.ts";
import { SCOPE_COMMANDS } from "./scopes_commands.ts";
import { REPORT_COMMANDS } from "./report_commands.ts";

/** `auth status`: the credentials in use and the cached tokens, or with --scopes the scope table. */
const STATUS: CommandDecl = {
  name: "status",
  description: "show the credentials in use and the cached tokens of the profile",
  options: [
    {
      flags: "--scopes",
      description: "show only the scopes: the profile's, each token's, and what each scope is for",
    },
    { flags: "--verbose", description: "also show each token's decoded claims" },
  ],
  examples: ["diazo auth status", "diazo auth status -o json --query 'tokens[].expires_at'"],
  run: async (ctx, _args, opts: { scopes?: boolean; verbose?: boolean }) => {
    const { statusSummary } = await import("./status_text.ts");
    const st = await runAuthStatus({ verbose: opts.verbose }, ctx);
    // As `gh auth status`: scripts read exit 1 as "not logged in" (no app credentials, no user login).
    if (!st.usable) ctx.setExitCode(1);
    if (opts.scopes) {
      ctx.info(statusSummary(st));
      await ctx.emit(scopeStatus(st), { columns: ["scope", "in_profile", "in_valid_token", "purpose"] });
    } else {
      await ctx.emit(st, { action: statusSummary(st) });
    }
  },
};

/** The auth family. */
export const AUTH: CommandDecl = {
  name: "auth",
  description: "log in, test and inspect credentials and tokens",
  examples: ["diazo auth test", "diazo auth login", "diazo auth status --scopes"],
  commands: [
    LOGIN,
    {
      name: "test",
      description: "request a fresh 2-legged token to prove the credentials work",
      tool: "auth_test",
      examples: ["diazo auth test", "SVC_CLIENT_ID=... SVC_CLIENT_SECRET=... diazo auth test -o json"],
      run: async (ctx) => {
        const result = await runAuthTest({}, ctx);
        ctx.info(`Authenticated: client ${result.client_id} at ${result.base_url}`);
        await ctx.emit(result);
      },
    },
    STATUS,
    {
      name: "logout",
      description: "revoke the profile's tokens at the platform and remove them from every store",
      examples: ["diazo auth logout", "diazo auth logout --profile work"],
      run: async (ctx) => {
        const result = await runLogout({}, ctx);
        await ctx.emit(result, {
          action: result.removed
            ? `Logged out of profile ${result.profile}`
            : `No tokens were cached for profile ${result.profile}`,
        });
      },
    },
    {
      name: "whoami",
      description: "the logged-in user's profile (needs a 3-legged login)",
      examples: ["diazo auth whoami", "diazo auth whoami -o json --query email"],
      run: async (ctx) => {
        await ctx.emit(await runWhoami({}, ctx));
      },
    },
    ...SCOPE_COMMANDS,
    ...REPORT_COMMANDS,
  ],
};
