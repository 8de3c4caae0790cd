/**
 * The `version` command word, which holds two things: diazo's own version (./report.ts) and the
 * verbs `version describe|rename` on a version of a data management file (families/dm/write_commands.ts).
 */
import type { CommandDecl } from "../../command/decl.ts";
import { VERSION_VERBS } from "../dm/write_commands.ts";
import { VERSION_REPORT } from "./report.ts";

/** The version family: the report, with the data management verbs as subcommands. */
export const VERSION: CommandDecl = { ...VERSION_REPORT, commands: VERSION_VERBS };
