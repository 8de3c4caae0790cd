/** The `plugin` family: list, enable, disable and create plugins; add, list and remove aliases (extend/verbs.ts). */
import { ALIAS_LIST, builtinRules } from "../alias/commands.ts";
import type { CommandDecl } from "../../command/decl.ts";

/** The plugin and alias verbs, loaded when a command runs (they reach node:path, which a declaration must not load). */
const verbs = () => import("../../extend/verbs.ts");

/** `plugin enable` or `plugin disable`. */
function toggleCommand(enabled: boolean): CommandDecl {
  const verb = enabled ? "enable" : "disable";
  return {
    name: verb,
    description: `${verb} a plugin in plugins.json (other content of the file is kept)`,
    args: [{ spec: "<name>", description: "the plugin's name, without diazo-" }],
    examples: [`diazo plugin ${verb} hello`],
    run: async (ctx, [name]: string[]) => {
      const { runPluginToggle } = await verbs();
      await ctx.emit(await runPluginToggle({ name, enabled, rules: await builtinRules() }, ctx));
    },
  };
}

/** `plugin alias ...`: list, add and remove aliases. */
const ALIASES: CommandDecl = {
  name: "alias",
  aliases: ["aliases"],
  description: "command aliases: a first word replaced by a diazo command line",
  examples: ["diazo plugin alias list"],
  commands: [
    ALIAS_LIST,
    {
      name: "add",
      aliases: ["set"],
      description: "add an alias; $1, $2... take arguments by position, the rest are appended",
      args: [
        { spec: "<name>", description: "the alias: letters, digits, '_', '-', '.'" },
        { spec: "<expansion>", description: "what it stands for, as one quoted argument" },
      ],
      options: [{ flags: "--force", description: "replace an alias of that name" }],
      examples: [
        `diazo plugin alias add lsb "bucket list"`,
        `diazo plugin alias add up "object upload $1 --resume"   # diazo up my-bucket a.obj b.obj`,
        `diazo plugin alias add hi "hello --output json"         # an alias to a plugin`,
      ],
      run: async (ctx, [name, expansion]: string[], opts: { force?: boolean }) => {
        const { runAliasAdd } = await verbs();
        await ctx.emit(
          await runAliasAdd({ name, expansion, force: opts.force, rules: await builtinRules() }, ctx),
        );
      },
    },
    {
      name: "remove",
      aliases: ["rm"],
      description: "remove an alias",
      args: [{ spec: "<name>", description: "the alias" }],
      examples: ["diazo plugin alias remove lsb"],
      run: async (ctx, [name]: string[]) => {
        const { runAliasRemove } = await verbs();
        await ctx.emit(await runAliasRemove({ name }, ctx));
      },
    },
  ],
};

/** The plugin family. */
export const PLUGIN: CommandDecl = {
  name: "plugin",
  description: "list, enable, disable and create plugins (diazo-<name> on PATH); manage aliases",
  examples: ["diazo plugin list", "diazo plugin create hello"],
  commands: [
    {
      name: "list",
      aliases: ["ls"],
      description:
        "list discovered and configured plugins; warnings (not executable, shadowed, ...) on stderr",
      examples: ["diazo plugin list", "diazo plugin list -o json --query '[?enabled].name'"],
      run: async (ctx) => {
        const { runPluginList } = await verbs();
        await ctx.emit(await runPluginList({ rules: await builtinRules() }, ctx), {
          columns: ["name", "path", "enabled", "description", "source"],
        });
      },
    },
    toggleCommand(true),
    toggleCommand(false),
    {
      name: "create",
      description: "write a new plugin script that follows diazo's conventions",
      args: [{ spec: "<name>", description: "the plugin's name: it runs as `diazo <name>`" }],
      options: [{ flags: "--dir <dir>", description: "where to write it (default: the current directory)" }],
      examples: ["diazo plugin create hello --dir ~/bin", "diazo hello --output json"],
      run: async (ctx, [name]: string[], opts: { dir?: string }) => {
        const { runPluginCreate } = await verbs();
        await ctx.emit(await runPluginCreate({ name, dir: opts.dir, rules: await builtinRules() }, ctx));
      },
    },
    ALIASES,
  ],
};
