/** `diazo auth scopes|inspect-token|test-scope|test-scopes|extend-scopes|reduce-scopes`: adapters over families/auth/scopes.ts. */
import {
  runExtendScopes,
  runInspectToken,
  runReduceScopes,
  runScopes,
  runTestScope,
  runTestScopes,
} from "./scopes.ts";
import { type AnyCommand, type ContextFactory, examples } from "../../command/command.ts";

/** Registers the scope-related auth commands. */
export function registerScopeCommands(auth: AnyCommand, makeCtx: ContextFactory): void {
  const scopes = auth.command("scopes").description(
    "the platform's scopes: what each is for, the modes the platform grants it in, and what diazo recommends",
  )
    .action(async (_o, cmd) => {
      await makeCtx(cmd).emit(runScopes(), {
        columns: ["scope", "granted_by_platform", "recommended_by_diazo", "purpose", "note"],
      });
    });
  examples(scopes, [
    "diazo auth scopes",
    "diazo auth scopes -o json --query \"[?contains(granted_by_platform, '2-legged')].scope\"",
  ]);

  const inspect = auth.command("inspect-token")
    .description(
      "decode a token: scopes, client id, user, expiry (the cached one by default; '-' reads stdin)",
    )
    .option("--token <jwt>", "the token to decode, or - to read it from stdin")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const token = opts.token === "-" ? (await ctx.io.stdin.readText()).trim() : opts.token;
      await ctx.emit(await runInspectToken({ token }, ctx));
    });
  examples(inspect, ["diazo auth inspect-token", 'echo "$TOKEN" | diazo auth inspect-token --token -']);

  const testScope = auth.command("test-scope")
    .description("check that the app can obtain a 2-legged token with a scope")
    .argument("<scope>", "a scope name, e.g. bucket:read")
    .action(async (scope, _o, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runTestScope({ scope }, ctx));
    });
  examples(testScope, ["diazo auth test-scope bucket:delete"]);

  const testScopes = auth.command("test-scopes")
    .description("call an endpoint with a token that has exactly the given scopes")
    .requiredOption("--scopes <list>", "scopes of the test token")
    .requiredOption("--endpoint <path>", "a GET path, e.g. /oss/v2/buckets")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runTestScopes(opts, ctx));
    });
  examples(testScopes, ["diazo auth test-scopes --scopes bucket:read --endpoint /oss/v2/buckets"]);

  const extend = auth.command("extend-scopes").description("add scopes to the profile's 2-legged tokens")
    .requiredOption("--add <list>", "scopes to add")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const change = await runExtendScopes(opts, ctx);
      await ctx.emit(change, { action: `Profile ${change.profile} now has ${change.after.join(" ")}` });
    });
  examples(extend, ["diazo auth extend-scopes --add bucket:delete,data:write"]);

  const reduce = auth.command("reduce-scopes").description("remove scopes from the profile's 2-legged tokens")
    .requiredOption("--remove <list>", "scopes to remove")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const change = await runReduceScopes(opts, ctx);
      await ctx.emit(change, { action: `Profile ${change.profile} now has ${change.after.join(" ")}` });
    });
  examples(reduce, ["diazo auth reduce-scopes --remove bucket:delete"]);
}
