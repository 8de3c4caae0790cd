/**
 * Checks a step's command line against the plain description of diazo's command tree (front/describe.ts
 * builds it from the real tree; completions read the same), so that unknown commands, flags and
 * arguments fail before anything runs.
 */
import { expandStepAlias, type StepExtensions } from "./alias.ts";
import { suggest } from "../core/suggest.ts";
import type { CompletionSource } from "../core/completion_sources.ts";
import type { TemplateProblem, TemplateWord } from "./interpolate.ts";

/** One option of a command. */
export interface OptionSpec {
  /** e.g. `--format` */
  long?: string;
  /** e.g. `-f` */
  short?: string;
  /** True when the option takes a value (`<v>` or `[v]`). */
  takesValue: boolean;
  /** True when the value may be left out (`[v]`). */
  optionalValue?: boolean;
  /** True when the option must be given (commander's requiredOption). */
  mandatory?: boolean;
  /** The values the option accepts, when it accepts only some. */
  choices?: readonly string[];
  /** The choices are offered, but any value is taken: the run reports a wrong one (command/decl.ts). */
  lenientChoices?: boolean;
  /** Its help line. */
  description?: string;
  /** Accepted, but not shown in help or offered by completion. */
  hidden?: boolean;
  /** Where completion takes its values from, beside `choices`. */
  complete?: CompletionSource;
}

/** One positional argument of a command. */
export interface ArgumentSpec {
  name: string;
  required: boolean;
  variadic: boolean;
  /** The values the argument accepts, when it accepts only some. */
  choices?: readonly string[];
  /** Where completion takes its values from, beside `choices`. */
  complete?: CompletionSource;
}

/** A command, its options, arguments and subcommands. The root is the program itself. */
export interface CommandSpec {
  name: string;
  aliases: string[];
  /** Its one-line summary. */
  description?: string;
  /** Runs, but is not shown in help or offered by completion. */
  hidden?: boolean;
  options: OptionSpec[];
  arguments: ArgumentSpec[];
  subcommands: CommandSpec[];
  /** The command passes options it does not know on (e.g. a shorthand of a subcommand). */
  allowUnknownOptions: boolean;
  allowExcessArguments: boolean;
}

/** Commands a step may not run. */
const FORBIDDEN: Record<string, string> = {
  pipeline: "a step cannot run `pipeline` (pipelines do not nest)",
};

/** What checking a command line found. */
export interface CommandCheck {
  /** The command words, e.g. ["object", "upload"]. */
  path: string[];
  problems: TemplateProblem[];
}

function findSub(cmd: CommandSpec, word: string): CommandSpec | undefined {
  return cmd.subcommands.find((s) => s.name === word || s.aliases.includes(word));
}

function findOption(chain: readonly CommandSpec[], flag: string): OptionSpec | undefined {
  for (let i = chain.length - 1; i >= 0; i--) {
    const o = chain[i].options.find((x) => x.long === flag || x.short === flag);
    if (o) return o;
  }
  return undefined;
}

function optionNames(chain: readonly CommandSpec[]): string[] {
  return chain.flatMap((c) => c.options.flatMap((o) => [o.long, o.short])).filter((x): x is string => !!x);
}

function argName(a: ArgumentSpec): string {
  return a.required ? `<${a.name}${a.variadic ? "..." : ""}>` : `[${a.name}${a.variadic ? "..." : ""}]`;
}

/**
 * Checks words (already split, expressions kept whole) as argv of diazo without the leading `diazo`.
 * With `ext`, a command word that is an alias is checked as what it expands to.
 */
// long: one pass over a step's words, with the command and the option awaiting a value as shared state
export function checkCommandWords(
  stepWords: readonly TemplateWord[],
  root: CommandSpec,
  ext?: StepExtensions,
): CommandCheck {
  let words = stepWords;
  const aliasChain: string[] = [];
  const problems: TemplateProblem[] = [];
  const path: string[] = [];
  const at = (w: TemplateWord, message: string) =>
    problems.push({ offset: w.offset, length: w.length, message });
  if (words.length === 0) return { path, problems: [{ offset: 0, length: 1, message: "empty command" }] };
  if (words[0].literal === "diazo") {
    at(words[0], "write the command without the leading `diazo`, e.g. `bucket list`");
    return { path, problems };
  }
  const chain: CommandSpec[] = [root];
  let cmd = root;
  const positionals: TemplateWord[] = [];
  const seen = new Set<OptionSpec>();
  let endOfOptions = false;
  let unsure = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const lit = w.literal;
    if (!endOfOptions && lit === "--") {
      endOfOptions = true;
      continue;
    }
    if (!endOfOptions && lit !== undefined && lit.startsWith("-") && lit !== "-") {
      const before = problems.length;
      i += checkOption(words, i, chain, cmd.allowUnknownOptions, seen, at);
      // An unknown option may or may not take a value: count no arguments against it.
      if (problems.length > before) unsure = true;
      continue;
    }
    if (positionals.length === 0 && cmd.subcommands.length > 0) {
      const sub = lit === undefined ? undefined : findSub(cmd, lit);
      if (sub) {
        if (cmd === root && FORBIDDEN[sub.name]) {
          at(w, FORBIDDEN[sub.name]);
          return { path, problems };
        }
        cmd = sub;
        chain.push(sub);
        path.push(sub.name);
        continue;
      }
      if (cmd === root && ext && lit !== undefined && Object.hasOwn(ext.aliases, lit)) {
        if (aliasChain.includes(lit)) {
          at(w, `alias loop: ${[...aliasChain, lit].join(" → ")}`);
          return { path, problems };
        }
        aliasChain.push(lit);
        const expanded = expandStepAlias(words, i, ext.aliases[lit]);
        if ("problem" in expanded) {
          at(w, expanded.problem);
          return { path, problems };
        }
        words = expanded.words;
        i--;
        continue;
      }
      if (cmd === root && ext && lit !== undefined && ext.isPlugin(lit)) {
        at(
          w,
          `'${lit}'${aliasChain.length ? ` (through alias ${aliasChain.join(" → ")})` : ""} is a plugin: ` +
            "steps run diazo's own commands in-process; " +
            `run it as a shell step (shell: diazo ${lit} ...) with --allow-shell`,
        );
        return { path, problems };
      }
      if (cmd.arguments.length === 0) {
        if (lit === undefined) {
          at(w, "a command name cannot come from an expression: write it literally");
        } else {
          const guess = suggest(lit, cmd.subcommands.flatMap((s) => [s.name, ...s.aliases]));
          const what = path.length
            ? `unknown command '${[...path, lit].join(" ")}'`
            : `unknown command '${lit}'`;
          at(w, guess ? `${what} (did you mean '${[...path, guess].join(" ")}'?)` : what);
        }
        return { path, problems };
      }
    }
    positionals.push(w);
  }
  const last = words[words.length - 1];
  const end = { offset: last.offset + last.length, length: 1 };
  const name = path.join(" ");
  if (path.length === 0) {
    problems.push({ ...end, message: "no command: write e.g. `bucket list`" });
    return { path, problems };
  }
  if (cmd.subcommands.length > 0 && cmd.arguments.length === 0) {
    const subs = cmd.subcommands.map((s) => s.name).join(", ");
    problems.push({ ...end, message: `'${name}' needs a subcommand: ${subs}` });
    return { path, problems };
  }
  for (const o of cmd.options) {
    if (o.mandatory && !seen.has(o)) {
      problems.push({ ...end, message: `missing required option ${o.long ?? o.short} of '${name}'` });
    }
  }
  if (unsure) return { path, problems };
  cmd.arguments.forEach((a, n) => {
    if (a.required && positionals[n] === undefined) {
      problems.push({ ...end, message: `missing argument ${argName(a)} of '${name}'` });
    }
  });
  const variadic = cmd.arguments.at(-1)?.variadic ?? false;
  if (!variadic && !cmd.allowExcessArguments && positionals.length > cmd.arguments.length) {
    const extra = positionals[cmd.arguments.length];
    const expected = cmd.arguments.map(argName).join(" ") || "none";
    at(extra, `too many arguments for '${name}' (expected: ${expected})`);
  }
  return { path, problems };
}

/** Checks the option at `words[i]`; returns how many following words it consumed as its value. */
function checkOption(
  words: readonly TemplateWord[],
  i: number,
  chain: readonly CommandSpec[],
  allowUnknown: boolean,
  seen: Set<OptionSpec>,
  at: (w: TemplateWord, message: string) => void,
): number {
  const w = words[i];
  const lit = w.literal!;
  const next = words[i + 1];
  const takesNext = (o: OptionSpec) =>
    o.takesValue && next !== undefined &&
    !(o.optionalValue && next.literal !== undefined && next.literal.startsWith("-"));
  const unknown = (flag: string) => {
    if (allowUnknown) return;
    const guess = suggest(
      flag,
      optionNames(chain).filter((n) => n.startsWith("--") === flag.startsWith("--")),
    );
    at(w, `unknown option '${flag}'${guess ? ` (did you mean '${guess}'?)` : ""}`);
  };
  // A value written literally must be one of the option's choices; an expression is checked when it runs.
  const checkChoice = (o: OptionSpec, flag: string, value: string | undefined, word: TemplateWord) => {
    if (!o.choices || o.lenientChoices || value === undefined || o.choices.includes(value)) return;
    const guess = suggest(value, [...o.choices]);
    at(
      word,
      `'${value}' is not a value of ${flag}: ${o.choices.join(", ")}${
        guess ? ` (did you mean '${guess}'?)` : ""
      }`,
    );
  };
  if (lit.startsWith("--")) {
    const eq = lit.indexOf("=");
    const flag = eq < 0 ? lit : lit.slice(0, eq);
    const o = findOption(chain, flag);
    if (!o) return (unknown(flag), 0);
    seen.add(o);
    if (eq >= 0) {
      if (!o.takesValue) at(w, `option '${flag}' takes no value`);
      else checkChoice(o, flag, lit.slice(eq + 1), w);
      return 0;
    }
    if (o.takesValue && !o.optionalValue && next === undefined) {
      at(w, `option '${flag}' needs a value`);
      return 0;
    }
    if (!takesNext(o)) return 0;
    checkChoice(o, flag, next.literal, next);
    return 1;
  }
  // Short options, possibly combined (-abc) or with the value attached (-ojson).
  for (let c = 1; c < lit.length; c++) {
    const flag = `-${lit[c]}`;
    const o = findOption(chain, flag);
    if (!o) return (unknown(flag), 0);
    seen.add(o);
    if (o.takesValue) {
      if (c + 1 < lit.length) return (checkChoice(o, flag, lit.slice(c + 1), w), 0);
      if (!o.optionalValue && next === undefined) {
        at(w, `option '${flag}' needs a value`);
        return 0;
      }
      if (!takesNext(o)) return 0;
      checkChoice(o, flag, next.literal, next);
      return 1;
    }
  }
  return 0;
}
