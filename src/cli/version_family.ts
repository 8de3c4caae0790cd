/**
 * The `version` command word, which holds two things: diazo's own version (version_report.ts) and
 * the verbs `version describe|rename` on a version of a data management file (dm_write.ts).
 */
import type { AnyCommand, ContextFactory } from "./command.ts";
import { registerVersionVerbs } from "./dm_write.ts";
import { defineVersionReport } from "./version_report.ts";

/** Registers `version` and its subcommands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  registerVersionVerbs(defineVersionReport(program, makeCtx), makeCtx);
}
