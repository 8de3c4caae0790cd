/**
 * `diazo auth diagnose|support-report|migrate-from-forge|scope-report`: declared as data over
 * families/auth/report.ts, which each loads when it runs (`auth status` loads none of it).
 */
import type { CommandDecl } from "../../command/decl.ts";

/** The report commands of `auth`, in help order. */
export const REPORT_COMMANDS: readonly CommandDecl[] = [
  {
    name: "diagnose",
    description: "check credentials, callback URL, token store, connectivity and clock skew",
    examples: ["diazo auth diagnose"],
    run: async (ctx) => {
      const { runDiagnose } = await import("./report.ts");
      const checks = await runDiagnose({}, ctx);
      // Each check is said once: in the result (a table on a terminal), not again on stderr.
      if (checks.some((c) => !c.ok)) ctx.setExitCode(1);
      await ctx.emit(checks, { columns: ["check", "ok", "detail"] });
    },
  },
  {
    name: "support-report",
    description: "a report to share when asking for help; never contains secrets",
    options: [{ flags: "--sanitize", description: "also mask client ids, user ids and local paths" }],
    examples: ["diazo auth support-report --sanitize -o json > report.json"],
    run: async (ctx, _args, opts: { sanitize?: boolean }) => {
      const { runSupportReport } = await import("./report.ts");
      await ctx.emit(await runSupportReport(opts, ctx));
    },
  },
  {
    name: "migrate-from-forge",
    description: "copy legacy FORGE_* credentials into a profile; scope names are unchanged",
    options: [
      {
        flags: "--verify-scopes",
        description: "request a token with the profile's scopes to prove they are granted",
      },
      { flags: "--scopes <list>", description: "legacy scope list to carry over (default: the profile's)" },
    ],
    examples: ["FORGE_CLIENT_ID=... FORGE_CLIENT_SECRET=... diazo auth migrate-from-forge --verify-scopes"],
    run: async (ctx, _args, opts: { verifyScopes?: boolean; scopes?: string }) => {
      const { runMigrateFromForge } = await import("./report.ts");
      const result = await runMigrateFromForge(opts, ctx);
      if (result.verified === false) ctx.setExitCode(3);
      await ctx.emit(result, {
        action: result.moved.length
          ? `Moved ${result.moved.join(", ")} into profile ${result.profile}`
          : "No FORGE_* variables to move (already configured or not set).",
      });
    },
  },
  {
    name: "scope-report",
    description: "which scopes your commands used in a period, and granted ones never used",
    options: [{ flags: "--period <period>", description: "period, e.g. 7d, 24h", default: "30d" }],
    examples: ["diazo auth scope-report --period 7d"],
    run: async (ctx, _args, opts: { period: string }) => {
      const { runScopeReport } = await import("./report.ts");
      const result = await runScopeReport(opts, ctx);
      if (result.unused_granted.length) {
        ctx.info(
          `Granted but unused in ${opts.period}: ${
            result.unused_granted.join(", ")
          } (consider \`diazo auth reduce-scopes\`)`,
        );
      }
      await ctx.emit(result);
    },
  },
];
