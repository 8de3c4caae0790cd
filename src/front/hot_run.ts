/**
 * Runs a command line the hot path matched (hot.ts) through the same steps as the command tree's
 * run (root.ts): config.json and .env read once, the alias warning, the --query check and the pre
 * hooks before the action, the post hooks and the scope-usage record after it, one reported error.
 */
import { compileQuery } from "../core/output.ts";
import { loadFrontFiles, resolveRunGlobals } from "./argv.ts";
import { createContext, type Ctx, type RunState } from "../command/context.ts";
import { createExtensions } from "./extend.ts";
import type { ParsedFlags } from "../command/global_options.ts";
import type { Io } from "../command/io.ts";
import { globalFlagsOf, guardedRun } from "./run_common.ts";

/** An option of a hot command. */
export interface HotOption extends ParsedFlags {
  choices?: readonly string[];
  parse?: (value: string) => unknown;
}

/** A leaf command the hot path serves. */
export interface HotCommand {
  /** The command's path by canonical names (what `state.command` and the hooks see). */
  path: readonly string[];
  /** Each word with its aliases, e.g. [["bucket"], ["list", "ls"]]. */
  words: readonly (readonly string[])[];
  /** Required positional arguments, in order. */
  args: readonly { name: string; parse: (value: string) => unknown }[];
  options: readonly HotOption[];
  /** False for parsed options only the command tree serves (the hot path then leaves the line to it). */
  serves?: (opts: Record<string, unknown>) => boolean;
  /** Starts loading the modules `run` uses (before the run's files are read). */
  preload?: () => Promise<unknown>;
  run(ctx: Ctx, args: unknown[], opts: Record<string, unknown>): Promise<void>;
}

/** A command line the hot path serves: the command, its parsed arguments and options, the globals. */
export interface HotMatch {
  command: HotCommand;
  args: unknown[];
  options: Record<string, unknown>;
  globals: Record<string, unknown>;
}

/** Where a hot run runs. */
export interface HotRunInput {
  io: Io;
  env: Record<string, string | undefined>;
  cwd: string;
  state: RunState;
}

/** Runs `match` (parsed from `argv`); its exit code. */
export async function runHotMatch(
  match: HotMatch,
  argv: readonly string[],
  input: HotRunInput,
): Promise<number> {
  const { io, env, cwd, state } = input;
  // plugins.json is read alongside config.json and .env; the extensions learn --debug once it is known.
  let debug = false;
  const ext = createExtensions({
    io,
    env,
    cwd,
    state,
    get debug() {
      return debug;
    },
  });
  const expanded = ext.expand(argv); // a built-in word: only the warning about an alias it hides
  expanded.catch(() => {}); // awaited in the run below, which reports a failure
  const files = await loadFrontFiles(env, cwd);
  const globals = state.globals = resolveRunGlobals(argv, {
    env,
    files,
    stdoutIsTerminal: io.stdout.isTerminal,
  });
  debug = globals.debug;
  return await guardedRun({ io, env, state, ext, globals: () => globals }, async () => {
    await expanded;
    const { command, args, options } = match;
    state.command ??= command.path.join(" ");
    const flags = globalFlagsOf(match.globals);
    if (flags.query !== undefined) await compileQuery(flags.query);
    await ext.beforeAction({
      commandPath: [...command.path],
      args: Object.fromEntries(command.args.map((a, i) => [a.name, args[i]])),
      options,
      noHooks: match.globals.hooks === false,
    });
    if (globals.debug) flags.debug = true;
    const ctx = createContext({ io, flags, env, cwd, state, globals, files: files.reads });
    await command.run(ctx, args, options);
    return undefined;
  });
}
