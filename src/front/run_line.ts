/**
 * Runs a parsed command line (parse.ts): the help it asks for, or its command's `run` after the
 * checks every command shares (the output format, the --query, the pre hooks), with the run's
 * context. Help goes to stdout; a group named without a subcommand prints its help on stderr and fails.
 */
import { ExitCode, usageError } from "../core/errors.ts";
import { isOutputFormat } from "../core/output.ts";
import { versionText } from "../core/version.ts";
import { type CommandDecl, isNamedValue } from "../command/decl.ts";
import { type ContextFiles, createContext, type RunState } from "../command/context.ts";
import type { Io } from "../command/io.ts";
import { outputFlagError, type RunGlobals } from "./argv.ts";
import type { Extensions } from "./extend.ts";
import { argumentName } from "./help.ts";
import { resolveNames } from "./names.ts";
import { parseCommandLine } from "./parse.ts";
import { rootHelp } from "./root_help.ts";
import { globalFlagsOf } from "./run_common.ts";

/** Where a command line runs. */
export interface LineInput {
  io: Io;
  env: Record<string, string | undefined>;
  cwd: string;
  state: RunState;
  ext: Extensions;
  globals: RunGlobals;
  files?: ContextFiles;
}

function helpWidth(io: Io, toStderr: boolean): number | undefined {
  const sink = toStderr ? io.stderr : io.stdout;
  return sink.isTerminal ? sink.columns : undefined;
}

/** The help page of `chain` (the program's own for the program). */
export async function helpOf(chain: readonly CommandDecl[], width: number | undefined): Promise<string> {
  if (chain.length === 1) return rootHelp(width, true);
  // A command's page loads only when it is printed: a run of the command never draws it.
  return (await import("./command_help.ts")).commandHelp(chain, width);
}

/** The error of a group named without (a known) subcommand. */
function needsSubcommand(chain: readonly CommandDecl[]) {
  const cmd = chain[chain.length - 1];
  const where = ["diazo", ...chain.slice(1).map((c) => c.name)].join(" ");
  const names = (cmd.commands ?? []).filter((c) => !c.hidden).map((c) => c.name);
  return usageError(
    `'${where}' needs a subcommand: ${names.join(", ")}`,
    `Run \`${where} --help\` for what each does.`,
  );
}

/** A value as the hooks see it: a hub or project still to be resolved (names.ts) as typed. */
function asTyped(value: unknown): unknown {
  return isNamedValue(value) ? value.text : value;
}

/** Parses `args` against `program` and runs what they ask for; the exit code, or undefined when the command ran. */
export async function runLine(
  program: CommandDecl,
  args: readonly string[],
  input: LineInput,
): Promise<number | undefined> {
  const { io, env, cwd, state, ext, globals } = input;
  const parsed = parseCommandLine(program, args);
  if (parsed.kind === "version") {
    io.stdout.write(versionText());
    return ExitCode.ok;
  }
  if (parsed.kind === "help") {
    if (!parsed.error) {
      io.stdout.write(await helpOf(parsed.chain, helpWidth(io, false)));
      return ExitCode.ok;
    }
    io.stderr.write(await helpOf(parsed.chain, helpWidth(io, true)));
    throw needsSubcommand(parsed.chain);
  }
  const cmd = parsed.chain[parsed.chain.length - 1];
  const path = parsed.chain.slice(1).map((c) => c.name);
  state.command ??= path.join(" ");
  const flags = globalFlagsOf(parsed.globals);
  if (flags.output !== undefined && !isOutputFormat(flags.output)) {
    throw outputFlagError(flags.output, (cmd.options ?? []).some((o) => o.flags.includes("--out ")));
  }
  if (flags.query !== undefined) await (await import("../core/output_query.ts")).compileQuery(flags.query);
  await ext.beforeAction({
    commandPath: path,
    args: Object.fromEntries((cmd.args ?? []).map((a, i) => [argumentName(a), asTyped(parsed.args[i])])),
    options: Object.fromEntries(Object.entries(parsed.own).map(([k, v]) => [k, asTyped(v)])),
    noHooks: parsed.globals.hooks === false,
  });
  if (globals.debug) flags.debug = true;
  const ctx = createContext({ io, flags, env, cwd, state, globals, files: input.files });
  await resolveNames(parsed, ctx);
  await cmd.run!(ctx, parsed.args, parsed.opts, {
    path,
    rest: parsed.rest,
    help: () => helpOf(parsed.chain, helpWidth(io, false)),
  });
  return undefined;
}
