/** The `plugin` family: list, enable, disable and create plugins; add, list and remove aliases (extend/verbs.ts). */
import {
  runAliasAdd,
  runAliasRemove,
  runPluginCreate,
  runPluginList,
  runPluginToggle,
} from "../../extend/verbs.ts";
import { BUILTIN_RULES as rules, registerAliasList } from "../alias/commands.ts";
import { type AnyCommand, type ContextFactory, examples } from "../../command/command.ts";

function registerToggle(plugin: AnyCommand, makeCtx: ContextFactory, enabled: boolean): void {
  const verb = enabled ? "enable" : "disable";
  const cmd = plugin.command(verb)
    .description(`${verb} a plugin in plugins.json (other content of the file is kept)`)
    .argument("<name>", "the plugin's name, without diazo-")
    .action(async (name, _opts, c) => {
      const ctx = makeCtx(c);
      await ctx.emit(await runPluginToggle({ name, enabled, rules }, ctx));
    });
  examples(cmd, [`diazo plugin ${verb} hello`]);
}

function registerAliases(plugin: AnyCommand, makeCtx: ContextFactory): void {
  const alias = plugin.command("alias").alias("aliases")
    .description("command aliases: a first word replaced by a diazo command line");
  examples(alias, ["diazo plugin alias list"]);
  registerAliasList(alias, makeCtx);

  const add = alias.command("add").alias("set")
    .description("add an alias; $1, $2... take arguments by position, the rest are appended")
    .argument("<name>", "the alias: letters, digits, '_', '-', '.'")
    .argument("<expansion>", "what it stands for, as one quoted argument")
    .option("--force", "replace an alias of that name")
    .action(async (name, expansion, opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runAliasAdd({ name, expansion, force: opts.force, rules }, ctx));
    });
  examples(add, [
    `diazo plugin alias add lsb "bucket list"`,
    `diazo plugin alias add up "object upload $1 --resume"   # diazo up my-bucket a.obj b.obj`,
    `diazo plugin alias add hi "hello --output json"         # an alias to a plugin`,
  ]);

  const remove = alias.command("remove").alias("rm")
    .description("remove an alias")
    .argument("<name>", "the alias")
    .action(async (name, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runAliasRemove({ name }, ctx));
    });
  examples(remove, ["diazo plugin alias remove lsb"]);
}

/** Registers the family's commands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const plugin = program.command("plugin")
    .description("list, enable, disable and create plugins (diazo-<name> on PATH); manage aliases");
  examples(plugin, ["diazo plugin list", "diazo plugin create hello"]);

  const list = plugin.command("list").alias("ls")
    .description("list discovered and configured plugins; warnings (not executable, shadowed, ...) on stderr")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runPluginList({ rules }, ctx), {
        columns: ["name", "path", "enabled", "description", "source"],
      });
    });
  examples(list, ["diazo plugin list", "diazo plugin list -o json --query '[?enabled].name'"]);

  registerToggle(plugin, makeCtx, true);
  registerToggle(plugin, makeCtx, false);

  const create = plugin.command("create")
    .description("write a new plugin script that follows diazo's conventions")
    .argument("<name>", "the plugin's name: it runs as `diazo <name>`")
    .option("--dir <dir>", "where to write it (default: the current directory)")
    .action(async (name, opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runPluginCreate({ name, dir: opts.dir, rules }, ctx));
    });
  examples(create, ["diazo plugin create hello --dir ~/bin", "diazo hello --output json"]);

  registerAliases(plugin, makeCtx);
}
