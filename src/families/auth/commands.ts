/** `diazo auth ...`: credentials and tokens; commander adapters over ops/auth*.ts. */
import { runAuthTest, runLogout, runWhoami } from "./verbs.ts";
import { authStatusAction } from "../../front/hot_actions.ts";
import { type AnyCommand, type ContextFactory, declareCommand, examples } from "../../command/command.ts";
import { AUTH_STATUS } from "../../command/declarations.ts";
import { registerLogin } from "./login_commands.ts";
import { registerScopeCommands } from "./scopes_commands.ts";
import { registerReportCommands } from "./report_commands.ts";

/** Registers the auth family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const auth = program.command("auth").description("log in, test and inspect credentials and tokens");
  examples(auth, ["diazo auth test", "diazo auth login", "diazo auth status --scopes"]);
  registerLogin(auth, makeCtx);

  const test = auth.command("test")
    .description("request a fresh 2-legged token to prove the credentials work")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      const result = await runAuthTest({}, ctx);
      ctx.info(`Authenticated: client ${result.client_id} at ${result.base_url}`);
      await ctx.emit(result);
    });
  examples(test, ["diazo auth test", "SVC_CLIENT_ID=... SVC_CLIENT_SECRET=... diazo auth test -o json"]);

  declareCommand(auth, AUTH_STATUS, (opts, cmd) => authStatusAction(makeCtx(cmd), opts));

  const logout = auth.command("logout")
    .description("revoke the profile's tokens at the platform and remove them from every store")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      const result = await runLogout({}, ctx);
      await ctx.emit(result, {
        action: result.removed
          ? `Logged out of profile ${result.profile}`
          : `No tokens were cached for profile ${result.profile}`,
      });
    });
  examples(logout, ["diazo auth logout", "diazo auth logout --profile work"]);

  const whoami = auth.command("whoami").description("the logged-in user's profile (needs a 3-legged login)")
    .action(async (_o, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runWhoami({}, ctx));
    });
  examples(whoami, ["diazo auth whoami", "diazo auth whoami -o json --query email"]);

  registerScopeCommands(auth, makeCtx);
  registerReportCommands(auth, makeCtx);
}
