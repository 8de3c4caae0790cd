/**
 * A plugin's run (README.md, "Plugins, hooks and aliases"): its environment (the run's globals and
 * DIAZO_BIN), the child process and its exit code. Loaded only when the command word names a plugin
 * (front/extend.ts), so that a built-in command's start-up carries none of it.
 */
import { DiazoError } from "../core/errors.ts";
import { stateDirFor } from "../platform/dirs.ts";
import { osPath } from "../platform/path.ts";
import type { RunState } from "../command/context.ts";
import type { RunGlobals } from "./argv.ts";

/** A plugin the command word names, found after alias expansion. */
export interface PluginCall {
  name: string;
  file: string;
  /** The index of the plugin's name in the expanded args. */
  at: number;
  /** The expanded args (global flags before the name, the plugin's own arguments after it). */
  args: string[];
}

/** What a plugin's run takes from the run's extensions. */
export interface PluginRunInput {
  env: Record<string, string | undefined>;
  cwd: string;
  /** A `Deno.build.os` value. */
  os: string;
  /** The run's state: a running plugin takes over Ctrl-C (it gets the signal from the terminal). */
  state?: RunState;
  /** A debug line (shown with --debug only, redacted). */
  debug: (line: string) => void;
}

/** Runs a plugin with the run's globals in its environment; its exit code. */
export async function runPluginCall(
  call: PluginCall,
  globals: RunGlobals,
  input: PluginRunInput,
): Promise<number> {
  const { cwd, os, debug } = input;
  const { name, file } = call;
  const pluginArgs = call.args.slice(call.at + 1);
  const penv = await pluginEnv(globals, input);
  const started = performance.now();
  const previous = input.state?.interruptHandler;
  if (input.state) input.state.interruptHandler = () => {};
  let code: number;
  try {
    const { runPlugin } = await import("../platform/spawn.ts");
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
  return code;
}

/** What a plugin finds in its environment: the run's profile, output format and address, DIAZO_BIN. */
async function pluginEnv(g: RunGlobals, input: PluginRunInput): Promise<Record<string, string>> {
  const { env, debug } = input;
  const out = (await import("../extend/child_env.ts")).childEnv(env);
  if (g.configError !== undefined) {
    debug(
      `plugin: configuration not resolved (${
        (g.configError as Error).message
      }); passing what the environment has`,
    );
  }
  if (g.outputError !== undefined) throw g.outputError;
  out.DIAZO_OUTPUT = g.output;
  if (g.profile) out.DIAZO_PROFILE = g.profile;
  if (g.baseUrl) out.DIAZO_BASE_URL = g.baseUrl;
  // DIAZO_DEBUG of the environment passes as it is; --debug alone sets it.
  if (g.debug && !(env.DIAZO_DEBUG && env.DIAZO_DEBUG !== "0")) out.DIAZO_DEBUG = "1";
  if (g.noColor) out.NO_COLOR = "1";
  out.DIAZO_BIN = await diazoBin(input);
  return out;
}

async function diazoBin(input: PluginRunInput): Promise<string> {
  const { env, os, debug } = input;
  if (Deno.build.standalone) return Deno.execPath();
  // Under `deno run`, a shim in the state dir re-runs this same program with this run's permissions.
  // node:url loaded here only: it is a large part of Node compatibility for every run otherwise.
  const { fileURLToPath } = await import("node:url");
  const main = Deno.mainModule.startsWith("file:") ? fileURLToPath(Deno.mainModule) : undefined;
  if (!main) return Deno.execPath();
  const path = osPath(os);
  const config = path.join(path.dirname(path.dirname(main)), "deno.json");
  const hasConfig = await Deno.stat(config).then(() => true, () => false);
  const runArgs = ["run", ...grantedPermissions(), ...(hasConfig ? ["--config", config] : []), main];
  try {
    const { ensureShim } = await import("../platform/spawn.ts");
    return await ensureShim(path.join(stateDirFor((k) => env[k], os), "bin"), Deno.execPath(), runArgs, os);
  } catch (e) {
    debug(`plugin: DIAZO_BIN shim not written (${(e as Error).message}); using ${Deno.execPath()}`);
    return Deno.execPath();
  }
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
