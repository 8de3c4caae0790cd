/** The `plugin` family: list, enable, disable and create plugins; add, list and remove aliases. */
import path from "node:path";
import { aliasChain, validAliasName } from "../extend/aliases.ts";
import { DiazoError, usageError } from "../core/errors.ts";
import { listPlugins } from "../extend/plugins.ts";
import { scaffoldPlugin } from "../extend/plugin_scaffold.ts";
import {
  editPluginsFile,
  loadPluginsFile,
  pluginsFilePath,
  removeAlias,
  setAlias,
  setPluginEnabled,
} from "../extend/plugins_config.ts";
import { splitShellWords } from "../extend/shell_words.ts";
import { lookupOptions, pathDirs, PLUGIN_PREFIX } from "../platform/which.ts";
import { registerAliasList } from "./alias.ts";
import { type AnyCommand, type ContextFactory, examples } from "./command.ts";
import { commandWordIndex, isBuiltinWord } from "./argv.ts";

function registerToggle(plugin: AnyCommand, makeCtx: ContextFactory, enabled: boolean): void {
  const verb = enabled ? "enable" : "disable";
  const cmd = plugin.command(verb)
    .description(`${verb} a plugin in plugins.json (other content of the file is kept)`)
    .argument("<name>", "the plugin's name, without diazo-")
    .action(async (name, _opts, c) => {
      const ctx = makeCtx(c);
      if (isBuiltinWord(name)) ctx.warn(`'${name}' is a built-in command: a plugin of that name never runs`);
      await editPluginsFile(ctx.configDir, (raw) => setPluginEnabled(raw, name, enabled));
      ctx.info(`${enabled ? "Enabled" : "Disabled"} plugin ${name} in ${pluginsFilePath(ctx.configDir)}`);
      await ctx.emit({ name, enabled });
    });
  examples(cmd, [`diazo plugin ${verb} hello`]);
}

function registerAliases(plugin: AnyCommand, makeCtx: ContextFactory): void {
  const alias = plugin.command("alias").alias("aliases")
    .description("command aliases: a first word replaced by a diazo command line");
  registerAliasList(alias, makeCtx);

  const add = alias.command("add").alias("set")
    .description("add an alias; $1, $2... take arguments by position, the rest are appended")
    .argument("<name>", "the alias: letters, digits, '_', '-', '.'")
    .argument("<expansion>", "what it stands for, as one quoted argument")
    .option("--force", "replace an alias of that name")
    .action(async (name, expansion, opts, cmd) => {
      const ctx = makeCtx(cmd);
      if (!validAliasName(name)) {
        throw usageError(
          `invalid alias name '${name}'`,
          "Use letters, digits, '_', '-' and '.', e.g. `lsb`.",
        );
      }
      if (isBuiltinWord(name)) {
        throw usageError(
          `alias '${name}' would shadow the built-in command 'diazo ${name}'`,
          "Built-in commands always win: choose another name.",
        );
      }
      if (splitShellWords(expansion, `alias '${name}'`).length === 0) {
        throw usageError(
          `alias '${name}' expands to nothing`,
          `Example: diazo plugin alias add lsb "bucket list"`,
        );
      }
      const { config } = await loadPluginsFile(ctx.configDir);
      aliasChain(name, {
        aliases: { ...config.aliases, [name]: expansion },
        isBuiltin: isBuiltinWord,
        wordIndex: commandWordIndex,
      });
      if (Object.hasOwn(config.aliases, name) && !opts.force) {
        throw new DiazoError("conflict", {
          params: { detail: `alias '${name}' exists (${config.aliases[name]}); pass --force to replace it` },
        });
      }
      await editPluginsFile(ctx.configDir, (raw) => setAlias(raw, name, expansion));
      ctx.info(`Added alias ${name} → ${expansion}`);
      await ctx.emit({ name, expansion });
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
      await editPluginsFile(ctx.configDir, (raw) => {
        if (!removeAlias(raw, name)) {
          throw new DiazoError("not_found", { params: { what: `alias '${name}'` } });
        }
      });
      ctx.info(`Removed alias ${name}`);
      await ctx.emit({ name, removed: true });
    });
  examples(remove, ["diazo plugin alias remove lsb"]);
}

/** Registers the family's commands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const plugin = program.command("plugin")
    .description("list, enable, disable and create plugins (diazo-<name> on PATH); manage aliases");

  const list = plugin.command("list").alias("ls")
    .description("list discovered and configured plugins; warnings (not executable, shadowed, ...) on stderr")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      const { file, config } = await loadPluginsFile(ctx.configDir);
      const { plugins, warnings } = listPlugins(
        { config, configFile: file, lookup: lookupOptions(ctx.env), isBuiltin: isBuiltinWord },
        ctx.env,
      );
      for (const w of warnings) ctx.warn(w);
      await ctx.emit(plugins, { columns: ["name", "path", "enabled", "description", "source"] });
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
      if (isBuiltinWord(name)) {
        throw usageError(
          `'${name}' is a built-in command`,
          "A plugin with a built-in's name never runs: choose another name.",
        );
      }
      const os = Deno.build.os;
      const dir = path.resolve(ctx.cwd, opts.dir ?? ".");
      const files = await scaffoldPlugin(dir, name, os);
      const onPath = pathDirs(os, ctx.env.PATH ?? ctx.env.Path).some((d) => path.resolve(ctx.cwd, d) === dir);
      ctx.info(`Created ${files.join(" and ")}`);
      if (!onPath) {
        ctx.info(
          `To run it as \`diazo ${name}\`, put ${dir} on PATH, or set plugins.${name}.path to ${
            files.at(-1)
          } in ${pluginsFilePath(ctx.configDir)}.`,
        );
      }
      await ctx.emit({ name, files, onPath, executable: `${PLUGIN_PREFIX}${name}` });
    });
  examples(create, ["diazo plugin create hello --dir ~/bin", "diazo hello --output json"]);

  registerAliases(plugin, makeCtx);
}
