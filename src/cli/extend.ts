/**
 * What runs around the command tree (DESIGN.md §6): alias expansion and plugin dispatch before it,
 * pre_/post_ hooks around the action. `runCli` makes one `Extensions` per run.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expandAliases } from "../extend/aliases.ts";
import { resolve } from "../config/config.ts";
import { loadConfig, loadDotenv } from "../config/store.ts";
import { DiazoError } from "../core/errors.ts";
import { chooseFormat } from "../core/output.ts";
import { resolvePlugin } from "../extend/plugins.ts";
import { type LoadedPlugins, loadPluginsFile } from "../extend/plugins_config.ts";
import { knownSecrets, redact } from "../core/redact.ts";
import { configDirFor, stateDirFor } from "../platform/dirs.ts";
import { ensureShim, runPlugin } from "../platform/spawn.ts";
import { lookupOptions } from "../platform/which.ts";
import type { AnyCommand } from "./command.ts";
import type { RunState } from "./context.ts";
import { createHookRunner } from "./extend_hooks.ts";
import { FAMILIES } from "./families.ts";
import type { Io } from "./io.ts";

/** True for the words of built-in commands: every family, its aliases, and `help`. */
export function isBuiltinWord(word: string): boolean {
  return word === "help" || FAMILIES.some((f) => f.name === word || (f.aliases ?? []).includes(word));
}

/** The global options given before a plugin's name, as a plugin's environment carries them. */
export function globalsBeforeWord(
  before: readonly string[],
): { profile?: string; output?: string; debug: boolean; noColor: boolean } {
  const out: { profile?: string; output?: string; debug: boolean; noColor: boolean } = {
    debug: false,
    noColor: false,
  };
  for (let i = 0; i < before.length; i++) {
    const a = before[i];
    const [flag, inline] = a.startsWith("--") && a.includes("=")
      ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
      : [a, undefined];
    const value = () => inline ?? before[++i];
    if (flag === "--profile") out.profile = value();
    else if (flag === "-o" || flag === "--output") out.output = value();
    else if (/^-o./.test(flag)) out.output = flag.slice(2);
    else if (flag === "--debug") out.debug = true;
    else if (flag === "--no-color") out.noColor = true;
    else if (["--query", "--timeout", "--concurrency"].includes(flag) && inline === undefined) i++;
  }
  return out;
}

/** Where a run goes after aliases and plugins: on to the command tree, or done (a plugin ran). */
export type Route = { args: string[] } | { exitCode: number };

/** The per-run extension points `runCli` calls. */
export interface Extensions {
  /** Expands aliases and runs a plugin when the command word names one. */
  route(argv: readonly string[]): Promise<Route>;
  /** Runs the pre hooks of the command about to act (commander's preAction). */
  beforeAction(actionCommand: AnyCommand): Promise<void>;
  /** Runs the post hooks once the command has ended with `exitCode` (never changes it). */
  afterAction(exitCode: number, result: unknown): Promise<void>;
}

/** What a run's extensions need to know. */
export interface ExtensionsInput {
  io: Io;
  env: Record<string, string | undefined>;
  cwd: string;
  debug: boolean;
  /** The index of the command word in argv (root.ts's commandWordIndex); -1 if none. */
  wordIndex(args: readonly string[]): number;
  /** The run's state: a running plugin takes over Ctrl-C (it gets the signal from the terminal). */
  state?: RunState;
}

/** Creates a run's extensions; plugins.json is read at most once per run. */
export function createExtensions(input: ExtensionsInput): Extensions {
  const { io, env, cwd, wordIndex } = input;
  const os = Deno.build.os;
  const configDir = configDirFor((k) => env[k], os);
  type Loaded = { ok?: LoadedPlugins; error?: unknown };
  let loaded: Promise<Loaded> | undefined;
  const load = () =>
    loaded ??= loadPluginsFile(configDir).then(
      (ok): Loaded => ({ ok }),
      (error: unknown): Loaded => ({ error }),
    );
  const debug = (line: string) => {
    if (input.debug) io.stderr.write(`debug: ${redact(line, knownSecrets())}\n`);
  };
  const warn = (line: string) => io.stderr.write(`warning: ${line}\n`);
  const hooks = createHookRunner({ io, env, cwd, os, debug, warn, load });

  async function pluginEnv(before: readonly string[]): Promise<Record<string, string>> {
    const g = globalsBeforeWord(before);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
    let profile = g.profile ?? env.DIAZO_PROFILE;
    let baseUrl = env.DIAZO_BASE_URL;
    let setting: string | undefined;
    try {
      const [config, dotenv] = await Promise.all([loadConfig(configDir), loadDotenv(cwd)]);
      const resolved = resolve({ flags: { profile: g.profile }, env, dotenv, config });
      profile = resolved.profileName;
      baseUrl = resolved.baseUrl.value;
      setting = resolved.outputSetting;
    } catch (e) {
      debug(`plugin: configuration not resolved (${(e as Error).message}); passing what the environment has`);
    }
    out.DIAZO_OUTPUT = chooseFormat(g.output, env.DIAZO_OUTPUT, setting, io.stdout.isTerminal);
    if (profile) out.DIAZO_PROFILE = profile;
    if (baseUrl) out.DIAZO_BASE_URL = baseUrl;
    if (g.debug) out.DIAZO_DEBUG = "1";
    if (g.noColor) out.NO_COLOR = "1";
    out.DIAZO_BIN = await diazoBin();
    return out;
  }

  async function diazoBin(): Promise<string> {
    if (Deno.build.standalone) return Deno.execPath();
    // Under `deno run`, a shim in the state dir re-runs this same program with this run's permissions.
    const main = Deno.mainModule.startsWith("file:") ? fileURLToPath(Deno.mainModule) : undefined;
    if (!main) return Deno.execPath();
    const config = path.join(path.dirname(path.dirname(main)), "deno.json");
    const hasConfig = await Deno.stat(config).then(() => true, () => false);
    const runArgs = ["run", ...grantedPermissions(), ...(hasConfig ? ["--config", config] : []), main];
    try {
      return await ensureShim(path.join(stateDirFor((k) => env[k], os), "bin"), Deno.execPath(), runArgs, os);
    } catch (e) {
      debug(`plugin: DIAZO_BIN shim not written (${(e as Error).message}); using ${Deno.execPath()}`);
      return Deno.execPath();
    }
  }

  return {
    async route(argv) {
      const at = wordIndex(argv);
      const word = at < 0 ? undefined : argv[at];
      if (word === undefined || isBuiltinWord(word)) {
        const { ok } = await load();
        if (word !== undefined && ok && Object.hasOwn(ok.config.aliases, word)) {
          warn(`alias '${word}' in ${ok.file} is ignored: '${word}' is a built-in command`);
        }
        return { args: [...argv] };
      }
      const { ok, error } = await load();
      if (!ok) throw error;
      const expanded = expandAliases(argv, {
        aliases: ok.config.aliases,
        isBuiltin: isBuiltinWord,
        wordIndex,
      });
      if (expanded.chain.length > 0) {
        debug(`alias ${expanded.chain.join(" → ")}: ${expanded.args.join(" ")}`);
      }
      const at2 = wordIndex(expanded.args);
      const name = at2 < 0 ? undefined : expanded.args[at2];
      if (name === undefined || isBuiltinWord(name)) return { args: expanded.args };
      const lookup = lookupOptions(env, os);
      const file = resolvePlugin(name, { config: ok.config, configFile: ok.file, lookup }, env);
      if (!file) return { args: expanded.args };
      const pluginArgs = expanded.args.slice(at2 + 1);
      const penv = await pluginEnv(expanded.args.slice(0, at2));
      const started = performance.now();
      const previous = input.state?.interruptHandler;
      if (input.state) input.state.interruptHandler = () => {};
      let code: number;
      try {
        code = await runPlugin(file, pluginArgs, { env: penv, cwd, os });
      } catch (e) {
        throw new DiazoError("failure", {
          params: {
            detail: `cannot run plugin '${name}' (${file}): ${(e as Error).message}`,
            hint: "Check that the file is executable and, for a script, starts with a #! line.",
          },
          cause: e,
        });
      } finally {
        if (input.state) input.state.interruptHandler = previous;
      }
      debug(
        `plugin ${name}: ${[file, ...pluginArgs].join(" ")} → exit ${code} in ${
          Math.round(performance.now() - started)
        } ms`,
      );
      return { exitCode: code };
    },
    beforeAction: (cmd) => hooks.before(cmd),
    afterAction: (exitCode, result) => hooks.after(exitCode, result),
  };
}

/** The `--allow-*` flags this run was granted, so that the shim runs with the same. */
function grantedPermissions(): string[] {
  const names = ["net", "read", "write", "env", "run", "sys", "ffi"] as const;
  return names.filter((name) => {
    try {
      return Deno.permissions.querySync({ name }).state === "granted";
    } catch {
      return false;
    }
  }).map((name) => `--allow-${name}`);
}
