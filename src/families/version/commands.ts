/**
 * The `version` command word: diazo's own version (./report.ts). The data management verbs on a file's
 * version are `item version describe|rename` (families/dm/write_commands.ts); their old spellings
 * `version describe|get|rename` stay, hidden, and say on stderr which command replaces them.
 */
import type { CommandDecl } from "../../command/decl.ts";
import { VERSION_VERBS } from "../dm/write_commands.ts";
import { VERSION_REPORT } from "./report.ts";

/** The one `warning:` line of an old spelling: the command that replaces it. */
export function deprecationNote(verb: string): string {
  return `'diazo version ${verb}' is deprecated and will be removed; use 'diazo item version ${verb}'`;
}

/** `version describe|get|rename`, the old spellings: hidden, each warning once, then running the new command. */
const DEPRECATED_VERBS: readonly CommandDecl[] = VERSION_VERBS.map((verb) => ({
  ...verb,
  hidden: true,
  // The help of an old spelling shows the new command: its description and examples.
  description: `deprecated: use \`diazo item version ${verb.name}\``,
  run: (ctx, args, opts, call) => {
    ctx.warn(deprecationNote(verb.name));
    return verb.run?.(ctx, args, opts, call);
  },
}));

/** The version family: the report; the hidden old spellings of the data management verbs. */
export const VERSION: CommandDecl = { ...VERSION_REPORT, commands: DEPRECATED_VERBS };
