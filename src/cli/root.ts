/**
 * The command tree: global flags, lazily loaded families, and the translation of every failure into
 * one `error:` line, one `hint:` line and an exit code (DESIGN.md §4).
 */
import { Command, CommanderError, Option } from "@commander-js/extra-typings";
import { DiazoError, ExitCode, isDiazoError, usageError } from "../core/errors.ts";
import { visible } from "../core/sanitize.ts";
import { compileQuery, OUTPUT_FORMATS } from "../core/output.ts";
import { knownSecrets, redact } from "../core/redact.ts";
import { versionText } from "../core/version.ts";
import { appendScopeUse } from "../config/scope_usage.ts";
import { stateDirFor } from "../platform/dirs.ts";
import { commandWord, commandWordIndex, loadFrontFiles, resolveRunGlobals, type RunGlobals } from "./argv.ts";
import { suggest } from "../core/suggest.ts";
import {
  type AnyCommand,
  type ContextFactory,
  examples,
  type FamilyModule,
  positiveNumber,
  timerOption,
} from "./command.ts";
import { createContext, type Ctx, type GlobalFlags, type RunState } from "./context.ts";
import { FAMILIES, type Family, HELP_GROUPS } from "./families.ts";
import { createExtensions } from "./extend.ts";
import { type Io, processIo } from "./io.ts";

function globalFlags(cmd: AnyCommand): GlobalFlags {
  const o = cmd.optsWithGlobals() as Record<string, unknown>;
  return {
    output: o.output as string | undefined,
    query: o.query as string | undefined,
    profile: o.profile as string | undefined,
    debug: Boolean(o.debug),
    quiet: Boolean(o.quiet),
    nonInteractive: Boolean(o.nonInteractive),
    yes: Boolean(o.yes || o.confirm),
    wait: Boolean(o.wait),
    timeout: o.timeout as number | undefined,
    concurrency: o.concurrency as number | undefined,
    color: o.color !== false,
  };
}

/** Builds the program with its global options; families are attached by `runCli`. */
export function buildProgram(io: Io): AnyCommand {
  const program = new Command("diazo")
    .description("Command-line client for Autodesk Platform Services, with a built-in offline sandbox.")
    .addOption(new Option("-o, --output <format>", "output format").choices(OUTPUT_FORMATS))
    .option("--query <jmespath>", "filter the JSON result with a JMESPath expression")
    .option("--profile <name>", "configuration profile to use")
    .option("--debug", "log HTTP traffic (secrets redacted) and hook/plugin runs to stderr")
    .option("--quiet", "print only data and errors")
    .option("--non-interactive", "never prompt; a missing value is an error (implied by CI or no terminal)")
    .option("-y, --yes", "confirm destructive actions")
    .option("--confirm", "same as --yes")
    .option("--wait", "wait for asynchronous work to finish")
    .option(
      "--timeout <seconds>",
      "request timeout and limit of --wait, in seconds",
      timerOption("--timeout", "seconds"),
    )
    .option("--concurrency <n>", "parallel transfers", positiveNumber("--concurrency", true))
    .option("--no-color", "disable colours")
    .option("--no-hooks", "do not run the pre_/post_ hooks of plugins.json (also DIAZO_NO_HOOKS=1)")
    .version(versionText().trimEnd(), "-V, --version", "print version, Deno version and target")
    .helpOption("-h, --help", "show help")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: () => {}, // reported once, in our format, by runCli
    });
  examples(program, [
    "diazo demo",
    "diazo auth test",
    "diazo bucket list -o json --query '[].bucketKey'",
    "diazo config profile create work --client-id ID --use",
  ]);
  return program;
}

/** Registers `family` (its module, or a stub for help and suggestions) under its help group. */
function attachFamily(
  program: AnyCommand,
  family: Family,
  mod?: FamilyModule,
  makeCtx?: ContextFactory,
): void {
  if (mod && makeCtx) mod.register(program, makeCtx);
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

/**
 * The exit code of a run whose reader went away (`diazo ... | head -c1`): 128 + SIGPIPE, what `cat`,
 * `git` and Go programs end with there, so that `set -o pipefail` sees the cut, and nothing printed.
 */
export const CLOSED_OUTPUT_EXIT = 141;

/** True when `e` (or an error it wraps) is a write to a pipe whose reader has closed it. */
export function isClosedOutput(e: unknown): boolean {
  for (let c: unknown = e, depth = 0; c && depth < 8; c = (c as Error).cause, depth++) {
    if (c instanceof Deno.errors.BrokenPipe) return true;
  }
  return false;
}

/** Writes `e` as `error:`/`hint:` lines (and the JSON object when the run's format is json); its exit code. */
function reportError(e: unknown, io: Io, globals: RunGlobals): number {
  // The JSON object only when json is asked for (flag, DIAZO_OUTPUT, setting), not for a mere pipe.
  const asked = globals.outputSource !== "terminal" && globals.outputError === undefined;
  const opts = { json: asked && globals.output === "json", debug: globals.debug };
  if (e instanceof CommanderError) {
    if (["commander.helpDisplayed", "commander.version", "commander.help"].includes(e.code)) {
      return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    const [first, ...rest] = e.message.replace(/^error: /, "").split("\n");
    const suggestion = rest.join(" ").trim().replace(/^\(|\)$/g, "");
    e = usageError(first, suggestion || "Run `diazo --help` (or `diazo <command> --help`) for usage.");
  }
  if (!isDiazoError(e)) {
    const err = e as Error;
    const wrapped = new DiazoError("failure", {
      params: {
        detail: `unexpected error: ${err?.message ?? String(e)}`,
        hint: "Run again with --debug for details, and report it if it persists.",
      },
    });
    if (opts.debug && err?.stack) io.stderr.write(redact(err.stack, knownSecrets()) + "\n");
    e = wrapped;
  }
  const de = e as DiazoError;
  const secrets = knownSecrets();
  const message = redact(de.message, secrets);
  const hint = redact(de.hint, secrets);
  // Messages quote platform text (keys, answers): no raw control character reaches the terminal.
  const shown = (text: string) => visible(text, { keepLines: true });
  io.stderr.write(`error: ${shown(message)}\nhint: ${shown(hint)}\n`);
  if (opts.json) {
    io.stderr.write(
      JSON.stringify({ error: { code: de.code, message, hint, status: de.status ?? null } }) + "\n",
    );
  }
  if (opts.debug && de.cause instanceof Error && de.cause.stack) {
    io.stderr.write(redact(de.cause.stack, secrets) + "\n");
  }
  return de.exitCode;
}

/** `reportError`, except that a closed stderr cannot turn one failure into a crash. */
function reportErrorSafely(e: unknown, io: Io, globals: RunGlobals): number {
  try {
    return reportError(e, io, globals);
  } catch (writeError) {
    if (!isClosedOutput(writeError)) throw writeError;
    return isDiazoError(e) ? e.exitCode : ExitCode.failure;
  }
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
function unknownCommand(cmd: AnyCommand, path: readonly string[], word: string) {
  const names = cmd.commands.map((c) => c.name());
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
 * `diazo help [command...]`: the help of that command on stdout, exit 0 (as `gh help repo`); an
 * unknown command is a usage error with a suggestion.
 */
async function showHelp(
  program: AnyCommand,
  words: readonly string[],
  makeCtx: ContextFactory,
): Promise<number> {
  await attachFamilies(program, words[0], makeCtx);
  const { cmd, path, rest } = walkCommands(program, words);
  if (rest.length > 0) throw unknownCommand(cmd, path, rest[0]);
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

/** Appends the run's scope use to the local log; a log that cannot be written never fails a command. */
async function recordUsage(
  state: RunState,
  exit: number,
  env: Record<string, string | undefined>,
): Promise<void> {
  if (!state.usage || state.usage.scopes.size === 0 || !state.command) return;
  try {
    await appendScopeUse(stateDirFor((k) => env[k], Deno.build.os), {
      time: new Date().toISOString(),
      command: state.command,
      profile: state.usage.profile,
      mode: state.usage.mode,
      scopes: [...state.usage.scopes].sort(),
      exit,
    });
  } catch { /* best effort */ }
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

/** Runs diazo with the given arguments and returns the exit code. */
export async function runCli(
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
    const flags = globalFlags(cmd);
    if (globals.debug) flags.debug = true;
    return createContext({ io, flags, env, cwd, state, globals });
  };
  // Global checks before any command runs, so that bad input fails before any request.
  program.hook("preAction", async (_this, actionCommand) => {
    const q = (actionCommand.optsWithGlobals() as { query?: string }).query;
    if (q !== undefined) await compileQuery(q);
    await ext.beforeAction(actionCommand);
  });
  const onSigint = () => {
    if (state.interruptHandler) return state.interruptHandler();
    io.stderr.write("\nerror: Interrupted\n");
    Deno.exit(ExitCode.interrupted);
  };
  try {
    Deno.addSignalListener("SIGINT", onSigint);
  } catch { /* not supported here (e.g. some Windows consoles) */ }
  try {
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
      return await showHelp(program, args.slice(word + 1).filter((a) => !a.startsWith("-")), makeCtx);
    }
    await attachFamilies(program, commandWord(args), makeCtx);
    try {
      await program.parseAsync([...args], { from: "user" });
    } catch (e) {
      const failedHelp = e instanceof CommanderError && e.code === "commander.help" && e.exitCode !== 0;
      throw failedHelp ? incompleteCommand(program, args) : e;
    }
    await ext.afterAction(state.exitCode, state.result);
    await recordUsage(state, state.exitCode, env);
    return state.exitCode;
  } catch (e) {
    const code = isClosedOutput(e) ? CLOSED_OUTPUT_EXIT : reportErrorSafely(e, io, globals);
    await ext.afterAction(code, state.result);
    await recordUsage(state, code, env);
    return code;
  } finally {
    try {
      Deno.removeSignalListener("SIGINT", onSigint);
    } catch { /* ignore */ }
  }
}
