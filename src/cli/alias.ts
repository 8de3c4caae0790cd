/** The `alias` family: `alias list`, the same command as `plugin alias list`. */
import { shadowedAliases } from "../extend/aliases.ts";
import { loadPluginsFile } from "../extend/plugins_config.ts";
import { type AnyCommand, type ContextFactory, examples } from "./command.ts";
import { isBuiltinWord } from "./argv.ts";

/** Adds `list` (alias `ls`) under `parent`: the aliases in effect, with a warning for those a built-in hides. */
export function registerAliasList(parent: AnyCommand, makeCtx: ContextFactory): void {
  const list = parent.command("list").alias("ls")
    .description("list the aliases of plugins.json")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      const { file, config } = await loadPluginsFile(ctx.configDir);
      const hidden = shadowedAliases(config.aliases, isBuiltinWord);
      for (const name of hidden) {
        ctx.warn(`alias '${name}' in ${file} is ignored: '${name}' is a built-in command`);
      }
      const rows = Object.entries(config.aliases)
        .filter(([name]) => !hidden.includes(name))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, expansion]) => ({ name, expansion }));
      await ctx.emit(rows, { columns: ["name", "expansion"] });
    });
  examples(list, ["diazo alias list", "diazo alias list -o json --query '[].name'"]);
}

/** Registers the family's commands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const alias = program.command("alias")
    .description("list command aliases (add and remove them with `diazo plugin alias`)");
  registerAliasList(alias, makeCtx);
}
