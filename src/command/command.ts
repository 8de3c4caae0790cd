/** Types and helpers shared by the command families. */
import { Argument, type Command, Option } from "@commander-js/extra-typings";
import type { Ctx } from "./context.ts";
import type { BodySource } from "../session/body_file.ts";
import { usageError } from "../core/errors.ts";
import { timerNumber, type TimerUnit } from "../core/bounds.ts";

/** A command whose options are not statically known here. */
// deno-lint-ignore no-explicit-any
export type AnyCommand = Command<any, any, any>;

/** Builds the context of the command being run; families call it inside their actions. */
export type ContextFactory = (cmd: AnyCommand) => Ctx;

/** What a family module exports: its declaration (decl.ts), or (until every family is data) a registration. */
export interface FamilyModule {
  register?(program: AnyCommand, makeCtx: ContextFactory): void;
  command?: CommandTree;
}

/** A family's declaration (decl.ts). */
export type CommandTree = import("./decl.ts").CommandDecl;

/** Adds an "Examples:" section to a command's help. */
export function examples<C extends AnyCommand>(cmd: C, lines: readonly string[]): C {
  cmd.addHelpText("after", "\nExamples:\n" + lines.map((l) => `  $ ${l}`).join("\n") + "\n");
  return cmd;
}

/** An option parser for a number that becomes a timer: positive and within the timer range. */
export function timerOption(name: string, unit: TimerUnit): (value: string) => number {
  return (value: string): number => timerNumber(name, value, unit);
}

/** An option parser accepting a positive number (an integer when `integer`), else a usage error. */
export function positiveNumber(name: string, integer: boolean): (value: string) => number {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
      throw usageError(
        `${name} must be a positive ${integer ? "integer" : "number"}, got '${value}'`,
        `Example: ${name} 10`,
      );
    }
    return n;
  };
}

/** Where a `--from-file` body is read from (`-`: stdin), or undefined without the flag. */
export function bodySource(ctx: Ctx, path: string | undefined): BodySource | undefined {
  return path === undefined ? undefined : { path, cwd: ctx.cwd, readStdin: () => ctx.io.stdin.readText() };
}

/**
 * The parser of a repeatable option: each value (read by `parse`; with `commas`, each comma-separated
 * part of it) is added to the values given before, e.g. `--var a=1 --var b=2` -> ["a=1", "b=2"].
 */
export function collect<T = string>(
  parse: (value: string) => T = (v) => v as T,
  commas = false,
): (value: string, previous?: T[]) => T[] {
  return (value, previous = []) => {
    const parts = commas ? value.split(",").map((v) => v.trim()).filter(Boolean) : [value];
    return [...previous, ...parts.map(parse)];
  };
}

/** An option parser for a TCP port on this machine: a whole number 0-65535 (0: any free port). */
export function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65535) {
    throw usageError(`--port must be 0-65535, got '${value}'`, "Use --port 0 for any free port.");
  }
  return n;
}

/** One option of a command as data: commander's flags string, its help line, how its value is read. */
export interface OptionDecl {
  /** e.g. "--limit <n>" or "-k, --key <objectKey>". */
  flags: string;
  description: string;
  /** Reads the value (a usage error when it is not valid). */
  parse?: (value: string) => unknown;
}

/** One positional argument as data. */
export interface ArgumentDecl {
  /** As commander takes it: "<bucketKey>", "[objectKeys...]". */
  spec: string;
  description: string;
  parse?: (value: string) => unknown;
}

/**
 * A command declared once as data: commander's tree is built from it (`declareCommand`) and the fast
 * start (hot.ts) parses from it, so neither holds a second list of its options.
 */
export interface CommandDecl {
  name: string;
  aliases?: readonly string[];
  description: string;
  args?: readonly ArgumentDecl[];
  options: readonly OptionDecl[];
  /** The examples of its help, given the word of the family it is declared under. */
  examples(family: string): readonly string[];
}

/** Adds the command `decl` declares under `parent`, running `action` (commander's arguments: args, opts, cmd). */
export function declareCommand(
  parent: AnyCommand,
  decl: CommandDecl,
  // deno-lint-ignore no-explicit-any
  action: (...args: any[]) => void | Promise<void>,
): AnyCommand {
  const cmd = parent.command(decl.name).description(decl.description) as AnyCommand;
  if (decl.aliases) cmd.aliases([...decl.aliases]);
  for (const a of decl.args ?? []) {
    if (a.parse) cmd.argument(a.spec, a.description, a.parse);
    else cmd.argument(a.spec, a.description);
  }
  for (const o of decl.options) {
    if (o.parse) cmd.option(o.flags, o.description, o.parse);
    else cmd.option(o.flags, o.description);
  }
  cmd.action(action);
  return examples(cmd, decl.examples(parent.name()));
}

/**
 * Adds the command a data declaration (decl.ts) describes under `parent`, with its subcommands; its
 * action makes the context and calls the declaration's `run` with the arguments, the options (the
 * ancestors' included) and the invocation.
 */
export function addDeclared(parent: AnyCommand, decl: CommandTree, makeCtx: ContextFactory): AnyCommand {
  // long: every field of a declaration mapped to commander's builder, one by one
  const cmd = parent.command(decl.name, decl.hidden ? { hidden: true } : {}).description(
    decl.description,
  ) as AnyCommand;
  if (decl.aliases) cmd.aliases([...decl.aliases]);
  for (const a of decl.args ?? []) {
    const arg = new Argument(a.spec, a.description);
    if (a.parse) arg.argParser(a.parse);
    if (a.default !== undefined) arg.default(a.default);
    if (a.choices) arg.choices(a.choices);
    cmd.addArgument(arg);
  }
  for (const o of decl.options ?? []) {
    const option = new Option(o.flags, o.description);
    if (o.parse) option.argParser(o.parse);
    if (o.default !== undefined) option.default(o.default);
    if (o.choices) option.choices(o.choices);
    if (o.required) option.makeOptionMandatory();
    if (o.hidden) option.hideHelp();
    cmd.addOption(option);
  }
  for (const sub of decl.commands ?? []) addDeclared(cmd, sub, makeCtx);
  // After the subcommands: commander copies allowExcessArguments to the subcommands added later.
  if (decl.passThrough) cmd.allowUnknownOption().allowExcessArguments();
  const run = decl.run;
  if (run) {
    cmd.action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as AnyCommand;
      const values = params.slice(0, decl.args?.length ?? 0);
      const opts: Record<string, unknown> = {};
      const chain: AnyCommand[] = [];
      for (let c: AnyCommand | null = self; c && c.parent; c = c.parent as AnyCommand | null) {
        chain.unshift(c);
      }
      for (const c of chain) Object.assign(opts, c.opts());
      await run(makeCtx(self), values, opts, {
        path: chain.map((c) => c.name()),
        rest: self.args,
        help: () => self.helpInformation(),
      });
    });
  }
  if (decl.helpText) cmd.addHelpText("after", decl.helpText);
  if (decl.examples?.length) examples(cmd, decl.examples);
  return cmd;
}
