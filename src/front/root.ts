/**
 * The front door's run: global flags, aliases and plugins, then the one parser over the declared
 * families (parse.ts), and every failure as one `error:` line, one `hint:` line and an exit code
 * (README.md, "Errors and exit codes").
 */
import { ExitCode } from "../core/errors.ts";
import { commandWord, commandWordIndex, loadFrontFiles, resolveRunGlobals } from "./argv.ts";
import { createContext, type Ctx, type GlobalFlags, type RunState } from "../command/context.ts";
import type { CommandDecl } from "../command/decl.ts";
import { createExtensions } from "./extend.ts";
import { type Io, processIo } from "../command/io.ts";
import { HELP_TOPICS } from "../command/global_options.ts";
import { CLOSED_OUTPUT_EXIT, guardedRun, isClosedOutput } from "./run_common.ts";
import { findCommand, unknownHelpSubject } from "./parse.ts";
import { programFor } from "./program.ts";
import { helpOf, runLine } from "./run_line.ts";
import { isProgramHelp, programHelp, rootHelp } from "./root_help.ts";

export { CLOSED_OUTPUT_EXIT, isClosedOutput };

/**
 * `diazo help [command...]`: the help of that command, or of a topic (help_topics.ts), on stdout,
 * exit 0 (as `gh help repo`); an unknown command is a usage error with a suggestion.
 */
async function showHelp(words: readonly string[], io: Io): Promise<number> {
  if (words.length === 1) {
    const topic = (await import("./help_topics.ts")).helpTopicText(words[0]);
    if (topic !== undefined) {
      io.stdout.write(topic);
      return ExitCode.ok;
    }
  }
  const program = await programFor(words[0]);
  const chain: CommandDecl[] = [program];
  for (const word of words) {
    const next = findCommand(chain[chain.length - 1], word);
    // `diazo help <word>` may also have meant a topic.
    if (!next) throw unknownHelpSubject(chain, word, chain.length === 1 ? Object.keys(HELP_TOPICS) : []);
    chain.push(next);
  }
  io.stdout.write(await helpOf(chain, io.stdout.isTerminal ? io.stdout.columns : undefined));
  return ExitCode.ok;
}

/**
 * A context as a run would build it for `flags` (the front door's globals resolved from this env,
 * cwd and their files), for callers that need a context without a command line (tests of verbs).
 */
export async function contextFor(
  io: Io,
  flags: GlobalFlags,
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<Ctx> {
  const argv = [
    ...(flags.output ? ["--output", flags.output] : []),
    ...(flags.profile ? ["--profile", flags.profile] : []),
  ];
  const files = await loadFrontFiles(env, cwd);
  const globals = resolveRunGlobals(argv, { env, files, stdoutIsTerminal: io.stdout.isTerminal });
  return createContext({ io, flags, env, cwd, state: { exitCode: 0, globals }, globals });
}

/** Options of one in-process run. */
export interface RunOptions {
  /** Receives the run's state (exit code, emitted result), e.g. for pipeline steps. */
  state?: RunState;
}

/** Runs diazo with the given arguments and returns the exit code. */
export async function runCli(
  argv: readonly string[],
  io: Io = processIo(),
  env: Record<string, string | undefined> = Deno.env.toObject(),
  cwd: string = Deno.cwd(),
  options: RunOptions = {},
): Promise<number> {
  if (isProgramHelp(argv)) return programHelp(argv, io);
  const state: RunState = options.state ?? { exitCode: 0 };
  const files = await loadFrontFiles(env, cwd);
  const front = (args: readonly string[], flagsEnd?: number) =>
    resolveRunGlobals(args, { env, files, stdoutIsTerminal: io.stdout.isTerminal, flagsEnd });
  // Resolved from argv as given (for an error in alias expansion), then again once aliases are expanded.
  let globals = state.globals = front(argv);
  const ext = createExtensions({ io, env, cwd, debug: globals.debug, state });
  return await guardedRun({ io, env, state, ext, globals: () => globals }, async () => {
    const expanded = await ext.expand(argv);
    const plugin = await ext.findPlugin(expanded);
    globals = state.globals = front(expanded, plugin?.at);
    if (plugin) return await ext.runPlugin(plugin, globals);
    const args = globals.args;
    if (args.length === 0) {
      io.stdout.write(rootHelp(io.stdout.isTerminal ? io.stdout.columns : undefined, false));
      return ExitCode.ok;
    }
    const word = commandWordIndex(args);
    if (args[word] === "help") {
      return await showHelp(args.slice(word + 1).filter((a) => !a.startsWith("-")), io);
    }
    const program = await programFor(commandWord(args));
    return await runLine(program, args, { io, env, cwd, state, ext, globals, files: files.reads });
  });
}

/** The same as `runCli` (kept for callers that name the command tree). */
export const runCommandTree = runCli;
