/** `diazo logs`: the local logs diazo keeps (the scope-usage log), over families/auth/report.ts. */
import { runLogs } from "../auth/report.ts";
import type { CommandDecl } from "../../command/decl.ts";

/** The logs family: one command. */
export const LOGS: CommandDecl = {
  name: "logs",
  description: "local logs: which scopes each command used",
  options: [
    { flags: "--scope-usage", description: "show the scope-usage log" },
    { flags: "--last <period>", description: "only the last period, e.g. 7d, 12h", default: "7d" },
  ],
  examples: ["diazo logs --scope-usage --last 7d", "diazo logs --scope-usage -o json --query '[].command'"],
  run: async (ctx, _args, opts: { scopeUsage?: boolean; last: string }) => {
    await ctx.emit(await runLogs(opts, ctx), {
      columns: ["time", "command", "profile", "mode", "scopes", "exit"],
    });
  },
};
