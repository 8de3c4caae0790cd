/**
 * `diazo acc ...`: the construction cloud's families spelled under `acc` — assets,
 * submittals and checklists (acc_build.ts) and the account-administration spellings (acc_admin.ts).
 */
import { registerAccAdmin } from "./acc_admin.ts";
import { registerAccBuild } from "./acc_build.ts";
import type { AnyCommand, ContextFactory } from "./command.ts";

/** Registers `acc` and its subcommands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const acc = program.command("acc")
    .description("construction cloud: assets, submittals, checklists; accounts and projects");
  registerAccBuild(acc, makeCtx);
  registerAccAdmin(acc, makeCtx);
}
