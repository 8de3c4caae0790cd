/**
 * The `version` command word, which holds two things: diazo's own version (version_report.ts) and
 * the verbs `version describe|rename` on a version of a data management file (dm_write.ts).
 */
import type { AnyCommand, ContextFactory } from "../../command/command.ts";
import { registerVersionVerbs } from "../dm/write_commands.ts";
import { defineVersionReport } from "./report.ts";

/** Registers `version` and its subcommands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  registerVersionVerbs(defineVersionReport(program, makeCtx), makeCtx);
}
