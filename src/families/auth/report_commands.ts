/** `diazo auth diagnose|support-report|migrate-from-forge|scope-report`: adapters over families/auth/report.ts. */
import { runDiagnose, runMigrateFromForge, runScopeReport, runSupportReport } from "./report.ts";
import { type AnyCommand, type ContextFactory, examples } from "../../command/command.ts";

/** Registers the report commands on `auth`. */
export function registerReportCommands(auth: AnyCommand, makeCtx: ContextFactory): void {
  const diag = auth.command("diagnose").description(
    "check credentials, callback URL, token store, connectivity and clock skew",
  )
    .action(async (_o, cmd) => {
      const ctx = makeCtx(cmd);
      const checks = await runDiagnose({}, ctx);
      // Each check is said once: in the result (a table on a terminal), not again on stderr.
      if (checks.some((c) => !c.ok)) ctx.setExitCode(1);
      await ctx.emit(checks, { columns: ["check", "ok", "detail"] });
    });
  examples(diag, ["diazo auth diagnose"]);

  const report = auth.command("support-report").description(
    "a report to share when asking for help; never contains secrets",
  )
    .option("--sanitize", "also mask client ids, user ids and local paths")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runSupportReport(opts, ctx));
    });
  examples(report, ["diazo auth support-report --sanitize -o json > report.json"]);

  const migrate = auth.command("migrate-from-forge")
    .description("copy legacy FORGE_* credentials into a profile; scope names are unchanged")
    .option("--verify-scopes", "request a token with the profile's scopes to prove they are granted")
    .option("--scopes <list>", "legacy scope list to carry over (default: the profile's)")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const result = await runMigrateFromForge(opts, ctx);
      if (result.verified === false) ctx.setExitCode(3);
      await ctx.emit(result, {
        action: result.moved.length
          ? `Moved ${result.moved.join(", ")} into profile ${result.profile}`
          : "No FORGE_* variables to move (already configured or not set).",
      });
    });
  examples(migrate, [
    "FORGE_CLIENT_ID=... FORGE_CLIENT_SECRET=... diazo auth migrate-from-forge --verify-scopes",
  ]);

  const scopeReport = auth.command("scope-report").description(
    "which scopes your commands used in a period, and granted ones never used",
  )
    .option("--period <period>", "period, e.g. 7d, 24h", "30d")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const result = await runScopeReport(opts, ctx);
      if (result.unused_granted.length) {
        ctx.info(
          `Granted but unused in ${opts.period}: ${
            result.unused_granted.join(", ")
          } (consider \`diazo auth reduce-scopes\`)`,
        );
      }
      await ctx.emit(result);
    });
  examples(scopeReport, ["diazo auth scope-report --period 7d"]);
}
