/** `diazo auth ...`: credentials and tokens, declared as data (command/decl.ts) over ./verbs.ts. */
import { runAuthTest, runLogout, runWhoami } from "./verbs.ts";
import { authStatusAction } from "../../front/hot_actions.ts";
import type { CommandDecl } from "../../command/decl.ts";
import { AUTH_STATUS } from "../../command/declarations.ts";
import { LOGIN } from "./login_commands.ts";
import { SCOPE_COMMANDS } from "./scopes_commands.ts";
import { REPORT_COMMANDS } from "./report_commands.ts";

/** `auth status`: the options the hot path (command/declarations.ts) parses, run by front/hot_actions.ts. */
const STATUS: CommandDecl = {
  name: AUTH_STATUS.name,
  description: AUTH_STATUS.description,
  options: AUTH_STATUS.options,
  examples: AUTH_STATUS.examples("auth"),
  run: (ctx, _args, opts: { scopes?: boolean; verbose?: boolean }) => authStatusAction(ctx, opts),
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
