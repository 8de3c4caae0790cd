/** The `alias` family: `alias list`, the same command as `plugin alias list`. */
import type { CommandDecl } from "../../command/decl.ts";

/** The front door's words, as the plugin and alias verbs need them. */
/** What counts as a built-in word (the front door's rules), loaded when a command needs them. */
export async function builtinRules() {
  const { commandWordIndex, isBuiltinWord } = await import("../../front/argv.ts");
  return { isBuiltin: isBuiltinWord, wordIndex: commandWordIndex };
}

/** `list` (alias `ls`): the aliases in effect, with a warning for those a built-in hides. */
export const ALIAS_LIST: CommandDecl = {
  name: "list",
  aliases: ["ls"],
  description: "list the aliases of plugins.json",
  examples: ["diazo alias list", "diazo alias list -o json --query '[].name'"],
  run: async (ctx) => {
    // The plugin and alias verbs reach node:path, which a declaration must not load.
    const { runAliasList } = await import("../../extend/verbs.ts");
    await ctx.emit(await runAliasList({ rules: await builtinRules() }, ctx), {
      columns: ["name", "expansion"],
    });
  },
};

/** The alias family. */
export const ALIAS: CommandDecl = {
  name: "alias",
  description: "list command aliases (add and remove them with `diazo plugin alias`)",
  examples: ["diazo alias list", 'diazo plugin alias add lsb "bucket list"'],
  commands: [ALIAS_LIST],
};
