/**
 * The one parser of diazo's command lines, over the declarations (command/decl.ts): it walks the
 * command words from the program down, each level taking its own options wherever they stand (the
 * program's globals anywhere on the line), and checks what people get wrong with the wording of
 * commander-style tools: unknown options and commands with a did-you-mean, missing values and
 * arguments, choices, too many arguments.
 */
import type { ArgumentDecl, CommandDecl, NamedValue, NameKind, OptionDecl } from "../command/decl.ts";
import { type ParsedFlags, parseFlags } from "../command/global_options.ts";
import { type DiazoError, usageError } from "../core/errors.ts";
import { argumentName, hasHelpCommand, usageLine } from "./help.ts";
import { editDistance, suggest } from "../core/suggest.ts";

/** What a command line asks for. */
export type ParsedLine =
  | {
    kind: "run";
    /** The declarations from the program down to the command. */
    chain: readonly CommandDecl[];
    args: unknown[];
    /** The options of every level, by key; a deeper level's win. */
    opts: Record<string, unknown>;
    /** The command's own options only. */
    own: Record<string, unknown>;
    /** The program's (global) options. */
    globals: Record<string, unknown>;
    /** The words after the command's own (unknown options and extra arguments of a pass-through command). */
    rest: string[];
  }
  | { kind: "help"; chain: readonly CommandDecl[]; error: boolean }
  | { kind: "version" };

/** The hint of a parse error that has no suggestion. */
export const USAGE_HINT = "Run `diazo --help` (or `diazo <command> --help`) for usage.";

interface Known {
  decl: OptionDecl;
  flags: ParsedFlags;
  optional: boolean;
}

const knownCache = new WeakMap<CommandDecl, Known[]>();

function knownOptions(cmd: CommandDecl): Known[] {
  let known = knownCache.get(cmd);
  if (!known) {
    known = (cmd.options ?? []).map((decl) => ({
      decl,
      flags: parseFlags(decl.flags),
      optional: decl.flags.includes("["),
    }));
    knownCache.set(cmd, known);
  }
  return known;
}

function failure(message: string, suggestion = ""): DiazoError {
  return usageError(message, suggestion || USAGE_HINT);
}

/** The hint of a wrong line for a known command: its usage line and where its help is. */
function usageOf(chain: readonly CommandDecl[]): string {
  const words = chain.map((c) => c.name).join(" ");
  return `${usageLine(chain)} (see \`${words} --help\`).`;
}

const isOption = (arg: string) => arg.length > 1 && arg[0] === "-";

/** Edit distance (core/suggest.ts), counted only for words within 3 characters of each other's length. */
function distance(a: string, b: string): number {
  return Math.abs(a.length - b.length) > 3 ? Math.max(a.length, b.length) : editDistance(a, b);
}

/** "Did you mean …?" for `word` among `candidates` (options keep their `--`), or "". */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const options = word.startsWith("--");
  const bare = (w: string) => options ? w.slice(2) : w;
  let similar: string[] = [];
  let best = 3;
  for (const candidate of new Set(candidates)) {
    const c = bare(candidate);
    if (c.length <= 1) continue;
    const d = distance(bare(word), c);
    const length = Math.max(bare(word).length, c.length);
    if ((length - d) / length <= 0.4) continue;
    if (d < best) [best, similar] = [d, [c]];
    else if (d === best) similar.push(c);
  }
  similar.sort((a, b) => a.localeCompare(b));
  const shown = similar.map((c) => options ? `--${c}` : c);
  if (shown.length > 1) return `Did you mean one of ${shown.join(", ")}?`;
  return shown.length === 1 ? `Did you mean ${shown[0]}?` : "";
}

/** The subcommand of `cmd` that `word` names (by name or alias). */
export function findCommand(cmd: CommandDecl, word: string | undefined): CommandDecl | undefined {
  if (word === undefined) return undefined;
  return cmd.commands?.find((c) => c.name === word || (c.aliases ?? []).includes(word));
}

/** Reads one value of an option or argument: its choices, then its parser with the value so far. */
function valueOf(
  spec: {
    choices?: readonly string[];
    lenientChoices?: boolean;
    parse?: (v: string, previous: unknown) => unknown;
    names?: NameKind;
  },
  raw: string,
  previous: unknown,
  invalid: string,
): unknown {
  // A hub or project may be a name: front/names.ts reads it (by `parse` or through the platform).
  if (spec.names) return { named: spec.names, text: raw } satisfies NamedValue;
  if (spec.choices && !spec.lenientChoices && !spec.choices.includes(raw)) {
    throw failure(`${invalid} Allowed choices are ${spec.choices.join(", ")}.`);
  }
  return spec.parse ? spec.parse(raw, previous) : raw;
}

/** The initial option values of a level: defaults, and `--no-x` alone makes `x` true. */
function defaults(cmd: CommandDecl): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const known = knownOptions(cmd);
  for (const k of known) {
    if (k.decl.default !== undefined) values[k.flags.key] = k.decl.default;
    else if (k.flags.negate && !known.some((o) => !o.flags.negate && o.flags.key === k.flags.key)) {
      values[k.flags.key] = true;
    }
  }
  return values;
}

/** Sets option `k` from its raw value (undefined for a flag without one). */
function setOption(values: Record<string, unknown>, k: Known, raw: string | undefined): void {
  const key = k.flags.key;
  if (raw === undefined) {
    values[key] = k.flags.negate ? false : true;
    return;
  }
  values[key] = valueOf(
    k.decl,
    raw,
    values[key],
    `option '${k.decl.flags}' argument '${raw}' is invalid.`,
  );
}

/** One level's scan: its options taken out of `args`, the operands, and from the first unknown option on, the rest. */
function scan(cmd: CommandDecl, args: readonly string[], values: Record<string, unknown>) {
  // long: one pass over the words with every form of an option: --x v, --x=v, -x v, -xv, -abc, --
  const known = knownOptions(cmd);
  const byName = (name: string) => known.find((k) => k.flags.long === name || k.flags.short === name);
  const operands: string[] = [];
  const unknown: string[] = [];
  let dest = operands;
  let group: string | undefined;
  let i = 0;
  while (i < args.length || group !== undefined) {
    const arg = group ?? args[i++];
    group = undefined;
    if (arg === "--") {
      if (dest === unknown) dest.push(arg);
      dest.push(...args.slice(i));
      break;
    }
    if (isOption(arg)) {
      const k = byName(arg);
      if (k) {
        if (k.flags.takesValue && !k.optional) {
          const value = args[i++];
          if (value === undefined) throw failure(`option '${k.decl.flags}' argument missing`);
          setOption(values, k, value);
        } else if (k.optional) {
          setOption(values, k, i < args.length && !isOption(args[i]) ? args[i++] : undefined);
        } else setOption(values, k, undefined);
        continue;
      }
    }
    if (arg.length > 2 && arg[0] === "-" && arg[1] !== "-") {
      const k = byName(arg.slice(0, 2));
      if (k) {
        if (k.flags.takesValue && !k.optional) setOption(values, k, arg.slice(2));
        else {
          setOption(values, k, undefined);
          group = `-${arg.slice(2)}`;
        }
        continue;
      }
    }
    if (arg.startsWith("--") && arg.indexOf("=") > 2) {
      const eq = arg.indexOf("=");
      const k = byName(arg.slice(0, eq));
      if (k && k.flags.takesValue) {
        setOption(values, k, arg.slice(eq + 1));
        continue;
      }
    }
    if (dest === operands && isOption(arg)) dest = unknown;
    dest.push(arg);
  }
  return { operands, unknown };
}

/** The long flags a misspelt option may have meant: the command's and its ancestors' shown options. */
function optionCandidates(chain: readonly CommandDecl[]): string[] {
  const out: string[] = [];
  for (const c of [...chain].reverse()) {
    for (const k of knownOptions(c)) if (!k.decl.hidden) out.push(k.flags.long);
    out.push("--help");
  }
  return out;
}

function unknownOption(flag: string, chain: readonly CommandDecl[]): DiazoError {
  const guess = flag.startsWith("--") ? didYouMean(flag, optionCandidates(chain)) : "";
  return failure(`unknown option '${flag}'`, guess);
}

function unknownCommand(cmd: CommandDecl, word: string): DiazoError {
  const names = (cmd.commands ?? []).filter((c) => !c.hidden).flatMap((c) =>
    c.aliases?.[0] ? [c.name, c.aliases[0]] : [c.name]
  );
  if (hasHelpCommand(cmd)) names.push("help");
  return failure(`unknown command '${word}'`, didYouMean(word, names));
}

/**
 * The error of `diazo help <words>` (or `diazo <group> help <word>`) naming no command: the whole path
 * it asked for, a close name, and the help that lists the commands. `also`: other names it may have
 * meant (the help topics, at the program).
 */
export function unknownHelpSubject(
  chain: readonly CommandDecl[],
  word: string,
  also: readonly string[] = [],
): DiazoError {
  const cmd = chain[chain.length - 1];
  const path = chain.slice(1).map((c) => c.name);
  const guess = suggest(word, [...(cmd.commands ?? []).map((c) => c.name), ...also]);
  const where = ["diazo", ...path].join(" ");
  const topics = also.length > 0 ? ` Help topics (\`diazo help <topic>\`): ${also.join(", ")}.` : "";
  return usageError(
    `unknown ${also.length > 0 ? "command or help topic" : "command"} '${[...path, word].join(" ")}'`,
    (guess ? `Did you mean '${guess}'? ` : "") + `Run \`${where} --help\` for the commands.` + topics,
  );
}

/** The positional values of `cmd` from `args`: counted, then each read by its declaration. */
function processArguments(chain: readonly CommandDecl[], args: readonly string[]): unknown[] {
  const cmd = chain[chain.length - 1];
  const declared: readonly ArgumentDecl[] = cmd.args ?? [];
  declared.forEach((a, i) => {
    if (a.spec.startsWith("<") && args[i] === undefined) {
      throw failure(`missing required argument '${argumentName(a)}'`, usageOf(chain));
    }
  });
  const variadic = declared.length > 0 && declared[declared.length - 1].spec.includes("...");
  if (!variadic && args.length > declared.length && !cmd.passThrough) {
    const s = declared.length === 1 ? "" : "s";
    throw failure(
      `too many arguments for '${cmd.name}'. Expected ${declared.length} argument${s} but got ${args.length}: ${
        args.join(", ")
      }.`,
      usageOf(chain),
    );
  }
  return declared.map((a, i) => {
    const invalid = (v: string) =>
      `command-argument value '${v}' is invalid for argument '${argumentName(a)}'.`;
    if (a.spec.includes("...")) {
      if (i >= args.length) return a.default ?? [];
      if (!a.parse && !a.choices) return args.slice(i);
      return args.slice(i).reduce<unknown>((prev, v) => valueOf(a, v, prev, invalid(v)), a.default);
    }
    if (i >= args.length) return a.default;
    return a.parse || a.choices ? valueOf(a, args[i], a.default, invalid(args[i])) : args[i];
  });
}

function missingMandatory(chain: readonly CommandDecl[], levels: readonly Record<string, unknown>[]): void {
  chain.forEach((c, n) => {
    for (const k of knownOptions(c)) {
      // A hub or project option may take its default: front/names.ts checks it once applied.
      if (k.decl.required && !k.decl.names && levels[n][k.flags.key] === undefined) {
        throw failure(`required option '${k.decl.flags}' not specified`, usageOf(chain));
      }
    }
  });
}

const isHelpFlag = (a: string) => a === "-h" || a === "--help";

/**
 * Parses `args` (after the program's name) against `program`, whose families are declared (stubs
 * where not loaded). Throws a usage error with the tools' wording when the line is wrong.
 */
export function parseCommandLine(program: CommandDecl, args: readonly string[]): ParsedLine {
  // long: the walk down the command words, level by level, then the leaf's checks in their order
  const chain: CommandDecl[] = [program];
  const levels: Record<string, unknown>[] = [defaults(program)];
  let remaining: readonly string[] = args;
  for (;;) {
    const cmd = chain[chain.length - 1];
    const values = levels[levels.length - 1];
    if (cmd === program) {
      const end = remaining.indexOf("--");
      const flags = end < 0 ? remaining : remaining.slice(0, end);
      if (flags.some((a) => a === "-V" || a === "--version")) return { kind: "version" };
    }
    const { operands, unknown } = scan(cmd, remaining, values);
    const sub = findCommand(cmd, operands[0]);
    if (sub) {
      chain.push(sub);
      levels.push(defaults(sub));
      remaining = [...operands.slice(1), ...unknown];
      continue;
    }
    if (hasHelpCommand(cmd) && operands[0] === "help") {
      const asked = findCommand(cmd, operands[1]);
      if (operands[1] === undefined) return { kind: "help", chain, error: false };
      if (asked) return { kind: "help", chain: [...chain, asked], error: false };
      throw unknownHelpSubject(chain, operands[1]);
    }
    const all = [...operands, ...unknown];
    if ((cmd.commands ?? []).length && all.length === 0 && !cmd.run) {
      return { kind: "help", chain, error: true };
    }
    if (unknown.some(isHelpFlag)) return { kind: "help", chain, error: false };
    missingMandatory(chain, levels);
    if (cmd.run) {
      if (unknown.length > 0 && !cmd.passThrough) throw unknownOption(unknown[0], chain);
      const positional = cmd.passThrough ? all : operands;
      return {
        kind: "run",
        chain,
        args: processArguments(chain, positional),
        opts: Object.assign({}, ...levels.slice(1)),
        own: values,
        globals: levels[0],
        rest: all,
      };
    }
    if (operands.length > 0 && (cmd.commands ?? []).length) throw unknownCommand(cmd, operands[0]);
    if (unknown.length > 0) throw unknownOption(unknown[0], chain);
    return { kind: "help", chain, error: true };
  }
}
