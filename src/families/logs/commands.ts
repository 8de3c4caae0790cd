/** `diazo logs`: the local logs diazo keeps (the scope-usage log), over families/auth/report.ts. */
import { runLogs } from "../auth/report.ts";
import { type AnyCommand, type ContextFactory, examples } from "../../command/command.ts";

/** Registers `diazo logs`. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const logs = program.command("logs").description("local logs: which scopes each command used")
    .option("--scope-usage", "show the scope-usage log")
    .option("--last <period>", "only the last period, e.g. 7d, 12h", "7d")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runLogs(opts, ctx), {
        columns: ["time", "command", "profile", "mode", "scopes", "exit"],
      });
    });
  examples(logs, [
    "diazo logs --scope-usage --last 7d",
    "diazo logs --scope-usage -o json --query '[].command'",
  ]);
}
