/**
 * `diazo auth scopes|inspect-token|test-scope|test-scopes|extend-scopes|reduce-scopes`: declared as
 * data over families/auth/scopes.ts, which each loads when it runs (`auth status` loads none of it).
 */
import type { CommandDecl } from "../../command/decl.ts";

/** The scope-related commands of `auth`, in help order. */
export const SCOPE_COMMANDS: readonly CommandDecl[] = [
  {
    name: "scopes",
    description:
      "the platform's scopes: what each is for, the modes the platform grants it in, and what diazo recommends",
    examples: [
      "diazo auth scopes",
      "diazo auth scopes -o json --query \"[?contains(granted_by_platform, '2-legged')].scope\"",
    ],
    run: async (ctx) => {
      const { runScopes } = await import("./scopes.ts");
      await ctx.emit(runScopes(), {
        columns: ["scope", "granted_by_platform", "recommended_by_diazo", "purpose", "note"],
      });
    },
  },
  {
    name: "inspect-token",
    description:
      "decode a token: scopes, client id, user, expiry (the cached one by default; '-' reads stdin)",
    options: [{ flags: "--token <jwt>", description: "the token to decode, or - to read it from stdin" }],
    examples: ["diazo auth inspect-token", 'echo "$TOKEN" | diazo auth inspect-token --token -'],
    run: async (ctx, _args, opts: { token?: string }) => {
      const token = opts.token === "-" ? (await ctx.io.stdin.readText()).trim() : opts.token;
      const { runInspectToken } = await import("./scopes.ts");
      await ctx.emit(await runInspectToken({ token }, ctx));
    },
  },
  {
    name: "test-scope",
    description: "check that the app can obtain a 2-legged token with a scope",
    args: [{ spec: "<scope>", description: "a scope name, e.g. bucket:read" }],
    examples: ["diazo auth test-scope bucket:delete"],
    run: async (ctx, [scope]: string[]) => {
      const { runTestScope } = await import("./scopes.ts");
      await ctx.emit(await runTestScope({ scope }, ctx));
    },
  },
  {
    name: "test-scopes",
    description: "call an endpoint with a token that has exactly the given scopes",
    options: [
      { flags: "--scopes <list>", description: "scopes of the test token", required: true },
      { flags: "--endpoint <path>", description: "a GET path, e.g. /oss/v2/buckets", required: true },
    ],
    examples: ["diazo auth test-scopes --scopes bucket:read --endpoint /oss/v2/buckets"],
    run: async (ctx, _args, opts: { scopes: string; endpoint: string }) => {
      const { runTestScopes } = await import("./scopes.ts");
      await ctx.emit(await runTestScopes(opts, ctx));
    },
  },
  {
    name: "extend-scopes",
    description: "add scopes to the profile's 2-legged tokens",
    options: [{ flags: "--add <list>", description: "scopes to add", required: true }],
    examples: ["diazo auth extend-scopes --add bucket:delete,data:write"],
    run: async (ctx, _args, opts: { add: string }) => {
      const { runExtendScopes } = await import("./scopes.ts");
      const change = await runExtendScopes(opts, ctx);
      await ctx.emit(change, { action: `Profile ${change.profile} now has ${change.after.join(" ")}` });
    },
  },
  {
    name: "reduce-scopes",
    description: "remove scopes from the profile's 2-legged tokens",
    options: [{ flags: "--remove <list>", description: "scopes to remove", required: true }],
    examples: ["diazo auth reduce-scopes --remove bucket:delete"],
    run: async (ctx, _args, opts: { remove: string }) => {
      const { runReduceScopes } = await import("./scopes.ts");
      const change = await runReduceScopes(opts, ctx);
      await ctx.emit(change, { action: `Profile ${change.profile} now has ${change.after.join(" ")}` });
    },
  },
];
