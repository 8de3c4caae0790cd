/**
 * The command tree: global flags, lazily loaded families, and the translation of every failure into
 * one `error:` line, one `hint:` line and an exit code (README.md, "Errors and exit codes").
 */
import { Command, CommanderError, Help, Option } from "@commander-js/extra-typings";
import { type DiazoError, ExitCode, usageError } from "../core/errors.ts";
import { compileQuery, isOutputFormat } from "../core/output.ts";
import { versionText } from "../core/version.ts";
import { commandWord, commandWordIndex, loadFrontFiles, outputFlagError, resolveRunGlobals } from "./argv.ts";
import { suggest } from "../core/suggest.ts";
import {
  addDeclared,
  type AnyCommand,
  type ContextFactory,
  examples,
  type FamilyModule,
} from "../command/command.ts";
import { createContext, type Ctx, type GlobalFlags, type RunState } from "../command/context.ts";
import { FAMILIES, type Family, HELP_GROUPS } from "./families.ts";
import { createExtensions } from "./extend.ts";
import { hookSubjectOf } from "./extend_hooks.ts";
import { type Io, processIo } from "../command/io.ts";
import {
  GLOBAL_OPTIONS,
  HELP_FLAGS,
  HELP_TOPICS,
  helpTopicsSection,
  OUTPUT_FLAGS,
  PROGRAM_DESCRIPTION,
  PROGRAM_EXAMPLES,
  VERSION_FLAGS,
} from "../command/global_options.ts";
import { globalFlagsOf, guardedRun } from "./run_common.ts";
import { runHot } from "./hot.ts";
import { programFor } from "./program.ts";
import { runLine } from "./run_line.ts";

export { CLOSED_OUTPUT_EXIT, isClosedOutput } from "./run_common.ts";

/**
 * A command's help lists the program's flags it inherits under "Inherited flags:" (as gh's
 * INHERITED FLAGS), without -V, --version, which is the program's own.
 */
const INHERITED_FLAGS_HELP: Partial<Help> = {
  showGlobalOptions: true,
  visibleGlobalOptions(cmd) {
    return Help.prototype.visibleGlobalOptions.call(this, cmd).filter((o) => o.long !== "--version");
  },
  formatItemList(heading, items, helper) {
    const title = heading === "Global Options:" ? "Inherited flags:" : heading;
    return Help.prototype.formatItemList.call(this, title, items, helper);
  },
};

/** Builds the program with its global options (global_options.ts); families are attached by `runCli`. */
export function buildProgram(io: Io): AnyCommand {
  const program = new Command("diazo").description(PROGRAM_DESCRIPTION);
  for (const o of GLOBAL_OPTIONS) {
    const option = new Option(o.flags, o.description);
    if (o.choices) option.choices(o.choices);
    if (o.parse) option.argParser(o.parse);
    // -o takes any word here: the preAction check reports a non-format with the command in view.
    if (o.flags === OUTPUT_FLAGS) option.argParser((v: string) => v);
    program.addOption(option);
  }
  program
    .version(versionText().trimEnd(), VERSION_FLAGS.flags, VERSION_FLAGS.description)
    .helpOption(HELP_FLAGS.flags, HELP_FLAGS.description)
    .showSuggestionAfterError(true)
    .configureHelp(INHERITED_FLAGS_HELP)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: () => {}, // reported once, in our format, by runCli
    });
  examples(program, PROGRAM_EXAMPLES);
  program.addHelpText("after", helpTopicsSection());
  return program;
}

/** Registers `family` (its module, or a stub for help and suggestions) under its help group. */
function attachFamily(
  program: AnyCommand,
  family: Family,
  mod?: FamilyModule,
  makeCtx?: ContextFactory,
): void {
  if (mod?.command && makeCtx) addDeclared(program, mod.command, makeCtx);
  else if (mod?.register && makeCtx) mod.register(program, makeCtx);
  else {
    const stub = program.command(family.name).description(family.summary);
    if (family.aliases) stub.aliases(family.aliases);
  }
  program.commands.find((c) => c.name() === family.name)?.helpGroup(HELP_GROUPS[family.group]);
}

async function attachFamilies(
  program: AnyCommand,
  word: string | undefined,
  makeCtx: ContextFactory,
): Promise<void> {
  const wanted: Family | undefined = FAMILIES.find((f) => f.name === word || f.aliases?.includes(word ?? ""));
  for (const family of FAMILIES) {
    // Only the family named by the command word is loaded; the others are stubs.
    attachFamily(program, family, family === wanted ? await family.load() : undefined, makeCtx);
  }
}

/** A commander failure as the usage error diazo reports, or undefined for help and version (exit code). */
function commanderFailure(e: CommanderError): DiazoError | number {
  if (["commander.helpDisplayed", "commander.version", "commander.help"].includes(e.code)) {
    return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  const [first, ...rest] = e.message.replace(/^error: /, "").split("\n");
  const suggestion = rest.join(" ").trim().replace(/^\(|\)$/g, "");
  return usageError(first, suggestion || "Run `diazo --help` (or `diazo <command> --help`) for usage.");
}

/** The deepest command that `words` name from `program`, its path, and the words left over. */
function walkCommands(
  program: AnyCommand,
  words: readonly string[],
): { cmd: AnyCommand; path: string[]; rest: string[] } {
  let cmd = program;
  const path: string[] = [];
  let i = 0;
  for (; i < words.length; i++) {
    const next = cmd.commands.find((c) => c.name() === words[i] || c.aliases().includes(words[i]));
    if (!next) break;
    cmd = next as AnyCommand;
    path.push(next.name());
  }
  return { cmd, path, rest: words.slice(i) };
}

/** A usage error for a word that names no subcommand of `cmd` (at `path`), with a suggestion. */
function unknownCommand(
  cmd: AnyCommand,
  path: readonly string[],
  word: string,
  also: readonly string[] = [],
) {
  const names = [...cmd.commands.map((c) => c.name()), ...also];
  const guess = suggest(word, names);
  const where = ["diazo", ...path].join(" ");
  return usageError(
    `unknown command '${[...path, word].join(" ")}'`,
    guess
      ? `Did you mean '${guess}'? Run \`${where} --help\` for the commands.`
      : `Run \`${where} --help\` for the commands.`,
  );
}

/**
 * `diazo help [command...]`: the help of that command, or of a topic (help_topics.ts), on stdout,
 * exit 0 (as `gh help repo`); an unknown command is a usage error with a suggestion.
 */
async function showHelp(
  program: AnyCommand,
  words: readonly string[],
  makeCtx: ContextFactory,
  io: Io,
): Promise<number> {
  if (words.length === 1) {
    const topic = (await import("./help_topics.ts")).helpTopicText(words[0]);
    if (topic !== undefined) {
      io.stdout.write(topic);
      return ExitCode.ok;
    }
  }
  await attachFamilies(program, words[0], makeCtx);
  const { cmd, path, rest } = walkCommands(program, words);
  // `diazo help <word>` may also have meant a topic.
  if (rest.length > 0) {
    throw unknownCommand(cmd, path, rest[0], path.length === 0 ? Object.keys(HELP_TOPICS) : []);
  }
  cmd.outputHelp();
  return ExitCode.ok;
}

/**
 * The one-line error of a help that commander printed on stderr as a failure (`diazo bucket` without
 * a subcommand, `diazo bucket help nosuch`): commander itself adds no `error:` line there.
 */
function incompleteCommand(program: AnyCommand, args: readonly string[]) {
  const words = args.filter((a) => !a.startsWith("-"));
  const { cmd, path, rest } = walkCommands(program, words);
  const asked = rest[0] === "help" ? rest[1] : rest[0];
  if (asked !== undefined) return unknownCommand(cmd, path, asked);
  const names = cmd.commands.map((c) => c.name());
  return usageError(
    `'${["diazo", ...path].join(" ")}' needs a subcommand: ${names.join(", ")}`,
    `Run \`${["diazo", ...path].join(" ")} --help\` for what each does.`,
  );
}

function commandPath(cmd: AnyCommand): string {
  const names: string[] = [];
  for (let c: AnyCommand | null = cmd; c && c.parent; c = c.parent as AnyCommand | null) {
    names.unshift(c.name());
  }
  return names.join(" ");
}

/** The program as `diazo --help` shows it: every family a stub (what root_help.ts must print the same as). */
export function stubProgram(io: Io): AnyCommand {
  const program = buildProgram(io);
  for (const family of FAMILIES) attachFamily(program, family);
  return program;
}

/** The whole command tree with every family loaded, for validation and completion; its actions must not run. */
export async function buildFullProgram(io: Io): Promise<AnyCommand> {
  const program = buildProgram(io);
  const notRunnable: ContextFactory = () => {
    throw new Error("buildFullProgram's command tree is for inspection only");
  };
  for (const family of FAMILIES) attachFamily(program, family, await family.load(), notRunnable);
  return program;
}

/**
 * A context as a run would build it for `flags` (the front door's globals resolved from this env,
 * cwd and their files), for callers that need a context without a command line (tests of ops/).
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

/** Runs diazo with the given arguments and returns the exit code: the hot path when it serves them, else the tree. */
export async function runCli(
  argv: readonly string[],
  io: Io = processIo(),
  env: Record<string, string | undefined> = Deno.env.toObject(),
  cwd: string = Deno.cwd(),
  options: RunOptions = {},
): Promise<number> {
  return await runHot(argv, io, env, cwd, options) ?? await runCommandTree(argv, io, env, cwd, options);
}

/** Runs diazo through the full command tree (commander), whatever the arguments. */
export async function runCommandTree(
  argv: readonly string[],
  io: Io = processIo(),
  env: Record<string, string | undefined> = Deno.env.toObject(),
  cwd: string = Deno.cwd(),
  options: RunOptions = {},
): Promise<number> {
  const program = buildProgram(io);
  const state: RunState = options.state ?? { exitCode: 0 };
  const files = await loadFrontFiles(env, cwd);
  const front = (args: readonly string[], flagsEnd?: number) =>
    resolveRunGlobals(args, { env, files, stdoutIsTerminal: io.stdout.isTerminal, flagsEnd });
  // Resolved from argv as given (for an error in alias expansion), then again once aliases are expanded.
  let globals = state.globals = front(argv);
  const ext = createExtensions({ io, env, cwd, debug: globals.debug, state });
  const makeCtx: ContextFactory = (cmd) => {
    state.command ??= commandPath(cmd);
    const flags = globalFlagsOf(cmd.optsWithGlobals() as Record<string, unknown>);
    if (globals.debug) flags.debug = true;
    return createContext({ io, flags, env, cwd, state, globals });
  };
  // Global checks before any command runs, so that bad input fails before any request.
  program.hook("preAction", async (_this, actionCommand) => {
    const { query, output } = actionCommand.optsWithGlobals() as { query?: string; output?: string };
    if (output !== undefined && !isOutputFormat(output)) {
      throw outputFlagError(output, actionCommand.options.some((o) => o.long === "--out"));
    }
    if (query !== undefined) await compileQuery(query);
    await ext.beforeAction(hookSubjectOf(actionCommand));
  });
  return await guardedRun({ io, env, state, ext, globals: () => globals }, async () => {
    const expanded = await ext.expand(argv);
    const plugin = await ext.findPlugin(expanded);
    globals = state.globals = front(expanded, plugin?.at);
    if (plugin) return await ext.runPlugin(plugin, globals);
    const args = globals.args;
    if (args.length === 0) {
      await attachFamilies(program, undefined, makeCtx);
      io.stdout.write(program.helpInformation());
      return ExitCode.ok;
    }
    const word = commandWordIndex(args);
    if (args[word] === "help") {
      return await showHelp(program, args.slice(word + 1).filter((a) => !a.startsWith("-")), makeCtx, io);
    }
    const declared = await programFor(commandWord(args));
    if (declared) {
      return await runLine(declared, args, { io, env, cwd, state, ext, globals, files: files.reads });
    }
    await attachFamilies(program, commandWord(args), makeCtx);
    try {
      await program.parseAsync([...args], { from: "user" });
    } catch (e) {
      if (!(e instanceof CommanderError)) throw e;
      if (e.code === "commander.help" && e.exitCode !== 0) throw incompleteCommand(program, args);
      const failure = commanderFailure(e);
      if (typeof failure === "number") return failure;
      throw failure;
    }
    return undefined;
  });
}
