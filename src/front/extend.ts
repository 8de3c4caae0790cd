/**
 * What runs around the command tree (README.md, "Plugins, hooks and aliases"): alias expansion and plugin
 * dispatch before it, pre_/post_ hooks around the action. `runCli` makes one `Extensions` per run.
 */
import { absentPlugins, type LoadedPlugins, readPluginsFile } from "../extend/plugins_file.ts";
import { knownSecrets, redact } from "../core/redact.ts";
import { configDirFor } from "../platform/dirs.ts";
import type { RunState } from "../command/context.ts";
import type { HookRunner, HookSubject } from "./extend_hooks.ts";
import type { PluginCall } from "./extend_plugin.ts";
import { commandWordIndex, isBuiltinWord, type RunGlobals } from "./argv.ts";
import type { Io } from "../command/io.ts";

/** The per-run extension points `runCli` calls. */
export interface Extensions {
  /** Expands the aliases of plugins.json (warning about those a built-in hides). */
  expand(argv: readonly string[]): Promise<string[]>;
  /** The plugin the command word of `args` names, if it names no built-in but a plugin. */
  findPlugin(args: readonly string[]): Promise<PluginCall | undefined>;
  /** Runs a plugin with the run's globals in its environment; its exit code. */
  runPlugin(call: PluginCall, globals: RunGlobals): Promise<number>;
  /** Runs the pre hooks of the command about to act (commander's preAction, or the hot path's). */
  beforeAction(subject: HookSubject): Promise<void>;
  /** Runs the post hooks once the command has ended with `exitCode` (never changes it). */
  afterAction(exitCode: number, result: unknown): Promise<void>;
}

/** What a run's extensions need to know. */
export interface ExtensionsInput {
  io: Io;
  env: Record<string, string | undefined>;
  cwd: string;
  debug: boolean;
  /** The run's state: a running plugin takes over Ctrl-C (it gets the signal from the terminal). */
  state?: RunState;
}

/** Creates a run's extensions; plugins.json is read at most once per run. */
export function createExtensions(input: ExtensionsInput): Extensions {
  // long: a factory whose length is the closures it returns, which share the run's lazily loaded plugins.json
  const { io, env, cwd } = input;
  const wordIndex = commandWordIndex;
  const os = Deno.build.os;
  const configDir = configDirFor((k) => env[k], os);
  type Loaded = { ok?: LoadedPlugins; error?: unknown };
  let loaded: Promise<Loaded> | undefined;
  // Without plugins.json (most runs) neither its parser nor the hook runner loads.
  const loadFile = async () => {
    const { file, text } = readPluginsFile(configDir);
    return text === undefined
      ? absentPlugins(file)
      : (await import("../extend/plugins_config.ts")).parsedPlugins(text, file);
  };
  const load = () =>
    loaded ??= loadFile().then(
      (ok): Loaded => ({ ok }),
      (error: unknown): Loaded => ({ error }),
    );
  const debug = (line: string) => {
    if (input.debug) io.stderr.write(`debug: ${redact(line, knownSecrets())}\n`);
  };
  const warn = (line: string) => io.stderr.write(`warning: ${line}\n`);
  let hooks: Promise<HookRunner | undefined> | undefined;
  const hookRunner = () =>
    hooks ??= load().then(async ({ ok }) =>
      ok && !ok.exists
        ? undefined
        : (await import("./extend_hooks.ts")).createHookRunner({ io, env, cwd, os, debug, warn, load })
    );

  return {
    async expand(argv) {
      const at = wordIndex(argv);
      const word = at < 0 ? undefined : argv[at];
      if (word === undefined || isBuiltinWord(word)) {
        const { ok } = await load();
        if (word !== undefined && ok && Object.hasOwn(ok.config.aliases, word)) {
          warn(`alias '${word}' in ${ok.file} is ignored: '${word}' is a built-in command`);
        }
        return [...argv];
      }
      const { ok, error } = await load();
      if (!ok) throw error;
      const { expandAliases } = await import("../extend/aliases.ts"); // not for a built-in's run
      const expanded = expandAliases(argv, {
        aliases: ok.config.aliases,
        isBuiltin: isBuiltinWord,
        wordIndex,
      });
      if (expanded.chain.length > 0) {
        debug(`alias ${expanded.chain.join(" → ")}: ${expanded.args.join(" ")}`);
      }
      return expanded.args;
    },
    async findPlugin(args) {
      const at = wordIndex(args);
      const name = at < 0 ? undefined : args[at];
      if (name === undefined || isBuiltinWord(name)) return undefined;
      const { ok, error } = await load();
      if (!ok) throw error;
      // Plugin lookup (node:path) loaded only for a word no built-in has: not on a built-in's start-up.
      const [{ resolvePlugin }, { lookupOptions }] = await Promise.all([
        import("../extend/plugins.ts"),
        import("../platform/which.ts"),
      ]);
      const file = resolvePlugin(name, {
        config: ok.config,
        configFile: ok.file,
        lookup: lookupOptions(env, os),
      }, env);
      return file ? { name, file, at, args: [...args] } : undefined;
    },
    // The plugin runner loads only when a plugin runs.
    runPlugin: async (call, globals) =>
      await (await import("./extend_plugin.ts")).runPluginCall(call, globals, {
        env,
        cwd,
        os,
        state: input.state,
        debug,
      }),
    beforeAction: async (subject) => await (await hookRunner())?.before(subject),
    afterAction: async (exitCode, result) => await (await hookRunner())?.after(exitCode, result),
  };
}
