/** The `alias` family: `alias list`, the same command as `plugin alias list`. */
import { runAliasList } from "../../extend/verbs.ts";
import { commandWordIndex, isBuiltinWord } from "../../front/argv.ts";
import { type AnyCommand, type ContextFactory, examples } from "../../command/command.ts";

/** The front door's words, as the plugin and alias verbs need them. */
export const BUILTIN_RULES = { isBuiltin: isBuiltinWord, wordIndex: commandWordIndex };

/** Adds `list` (alias `ls`) under `parent`: the aliases in effect, with a warning for those a built-in hides. */
export function registerAliasList(parent: AnyCommand, makeCtx: ContextFactory): void {
  const list = parent.command("list").alias("ls")
    .description("list the aliases of plugins.json")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runAliasList({ rules: BUILTIN_RULES }, ctx), { columns: ["name", "expansion"] });
    });
  examples(list, ["diazo alias list", "diazo alias list -o json --query '[].name'"]);
}

/** Registers the family's commands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const alias = program.command("alias")
    .description("list command aliases (add and remove them with `diazo plugin alias`)");
  registerAliasList(alias, makeCtx);
  examples(alias, ["diazo alias list", 'diazo plugin alias add lsb "bucket list"']);
}
