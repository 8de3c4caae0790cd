/**
 * The plugin and alias verbs, front-end free, in the `run<Verb>(opts, deps)` shape of ops/: list,
 * enable, disable and create plugins; list, add and remove aliases in plugins.json. They live here
 * because ops/ may not import extend/ (ARCHITECTURE.md). What is a built-in word and where argv's
 * command word is are the front end's knowledge, so they come in as `BuiltinRules`.
 */
import path from "node:path";
import { aliasChain, shadowedAliases, validAliasName } from "./aliases.ts";
import { DiazoError, usageError } from "../core/errors.ts";
import { listPlugins } from "./plugins.ts";
import { scaffoldPlugin } from "./plugin_scaffold.ts";
import {
  editPluginsFile,
  loadPluginsFile,
  pluginsFilePath,
  removeAlias,
  setAlias,
  setPluginEnabled,
} from "./plugins_config.ts";
import { splitShellWords } from "./shell_words.ts";
import { lookupOptions, pathDirs, PLUGIN_PREFIX } from "../platform/which.ts";

/** What the plugin verbs need: where plugins.json lives, the environment (PATH), stderr lines. */
export interface PluginDeps {
  readonly cwd: string;
  readonly configDir: string;
  readonly env: Record<string, string | undefined>;
  info(message: string): void;
  warn(message: string): void;
}

/** The front end's words: built-in commands (never shadowed) and where argv's command word is. */
export interface BuiltinRules {
  isBuiltin(word: string): boolean;
  wordIndex(args: readonly string[]): number;
}

/** Discovered and configured plugins; problems (not executable, shadowed, ...) are warnings. */
export async function runPluginList(opts: { rules: BuiltinRules }, deps: PluginDeps) {
  const { file, config } = await loadPluginsFile(deps.configDir);
  const { plugins, warnings } = listPlugins(
    { config, configFile: file, lookup: lookupOptions(deps.env), isBuiltin: opts.rules.isBuiltin },
    deps.env,
  );
  for (const w of warnings) deps.warn(w);
  return plugins;
}

/** Enables or disables a plugin in plugins.json (the rest of the file is kept). */
export async function runPluginToggle(
  opts: { name: string; enabled: boolean; rules: BuiltinRules },
  deps: PluginDeps,
) {
  const { name, enabled } = opts;
  if (opts.rules.isBuiltin(name)) {
    deps.warn(`'${name}' is a built-in command: a plugin of that name never runs`);
  }
  await editPluginsFile(deps.configDir, (raw) => setPluginEnabled(raw, name, enabled));
  deps.info(`${enabled ? "Enabled" : "Disabled"} plugin ${name} in ${pluginsFilePath(deps.configDir)}`);
  return { name, enabled };
}

/** Writes a new plugin script in `dir` (default: the working directory) and says how to run it. */
export async function runPluginCreate(
  opts: { name: string; dir?: string; rules: BuiltinRules },
  deps: PluginDeps,
) {
  const { name } = opts;
  if (opts.rules.isBuiltin(name)) {
    throw usageError(
      `'${name}' is a built-in command`,
      "A plugin with a built-in's name never runs: choose another name.",
    );
  }
  const os = Deno.build.os;
  const dir = path.resolve(deps.cwd, opts.dir ?? ".");
  const files = await scaffoldPlugin(dir, name, os);
  const onPath = pathDirs(os, deps.env.PATH ?? deps.env.Path).some((d) => path.resolve(deps.cwd, d) === dir);
  deps.info(`Created ${files.join(" and ")}`);
  if (!onPath) {
    deps.info(
      `To run it as \`diazo ${name}\`, put ${dir} on PATH, or set plugins.${name}.path to ${
        files.at(-1)
      } in ${pluginsFilePath(deps.configDir)}.`,
    );
  }
  return { name, files, onPath, executable: `${PLUGIN_PREFIX}${name}` };
}

/** The aliases in effect, by name; those a built-in hides are left out with a warning. */
export async function runAliasList(opts: { rules: BuiltinRules }, deps: PluginDeps) {
  const { file, config } = await loadPluginsFile(deps.configDir);
  const hidden = shadowedAliases(config.aliases, opts.rules.isBuiltin);
  for (const name of hidden) {
    deps.warn(`alias '${name}' in ${file} is ignored: '${name}' is a built-in command`);
  }
  return Object.entries(config.aliases)
    .filter(([name]) => !hidden.includes(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, expansion]) => ({ name, expansion }));
}

/** Adds an alias (replacing one only with `force`), refusing a built-in's name and an expansion loop. */
export async function runAliasAdd(
  opts: { name: string; expansion: string; force?: boolean; rules: BuiltinRules },
  deps: PluginDeps,
) {
  const { name, expansion, rules } = opts;
  if (!validAliasName(name)) {
    throw usageError(`invalid alias name '${name}'`, "Use letters, digits, '_', '-' and '.', e.g. `lsb`.");
  }
  if (rules.isBuiltin(name)) {
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
  const { config } = await loadPluginsFile(deps.configDir);
  aliasChain(name, {
    aliases: { ...config.aliases, [name]: expansion },
    isBuiltin: rules.isBuiltin,
    wordIndex: rules.wordIndex,
  });
  if (Object.hasOwn(config.aliases, name) && !opts.force) {
    throw new DiazoError("conflict", {
      params: { detail: `alias '${name}' exists (${config.aliases[name]}); pass --force to replace it` },
    });
  }
  await editPluginsFile(deps.configDir, (raw) => setAlias(raw, name, expansion));
  deps.info(`Added alias ${name} → ${expansion}`);
  return { name, expansion };
}

/** Removes an alias; not found when there is none. */
export async function runAliasRemove(opts: { name: string }, deps: PluginDeps) {
  await editPluginsFile(deps.configDir, (raw) => {
    if (!removeAlias(raw, opts.name)) {
      throw new DiazoError("not_found", { params: { what: `alias '${opts.name}'` } });
    }
  });
  deps.info(`Removed alias ${opts.name}`);
  return { name: opts.name, removed: true };
}
