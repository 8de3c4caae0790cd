/**
 * Loading and validating a pipeline file (YAML or JSON, read by the `yaml` library alone; README.md
 * "Pipelines" caps the file at 1 MiB): every problem in one pass, each with line, column and the offending
 * line, from the nodes' ranges and the parser's line counter.
 */
import type { Node, Pair, Scalar, YAMLMap } from "yaml";
import { suggest } from "../core/suggest.ts";
import { NAME_PATTERN, STEP_KEYS, TOP_LEVEL_KEYS } from "./schema.ts";
import {
  parseTemplate,
  type Reference,
  renderParts,
  splitTemplateWords,
  type TemplateProblem,
  type TemplateWord,
} from "./interpolate.ts";
import { checkCommandWords, type CommandSpec } from "./command.ts";
import type { StepExtensions } from "./alias.ts";
import { shellEnvHint } from "./shell_env.ts";

/** One problem of a pipeline file. Line and column are 1-based. */
export interface Problem {
  line: number;
  column: number;
  /** How many characters the problem spans on its line (for the caret underline). */
  length: number;
  message: string;
  /** The offending line, cut to at most SOURCE_WIDTH characters around the column (`…` marks a cut). */
  source: string;
  /** The 1-based column of the problem in `source` (the column itself unless the line was cut). */
  sourceColumn: number;
}

/** The most characters of a source line a problem quotes. */
export const SOURCE_WIDTH = 200;

/** A validated step. */
export interface PipelineStep {
  /** 1-based position in the file. */
  index: number;
  name: string;
  id?: string;
  continueOnError: boolean;
  /** The line the step starts on. */
  line: number;
  command?: { text: string; words: TemplateWord[]; path: string[] };
  /** A shell step: its text as written, and the script it runs (`$${{` escapes applied, nothing pasted in). */
  shell?: { text: string; script: string };
}

/** A validated pipeline. */
export interface Pipeline {
  name: string;
  /** The file's variables, as text. */
  variables: Record<string, string>;
  steps: PipelineStep[];
}

/** What validation needs besides the text. */
export interface ValidateOptions {
  /** The command tree the steps' commands are checked against. */
  tree: CommandSpec;
  /** Whether `shell` steps are allowed (`--allow-shell`). */
  allowShell: boolean;
  /** Names of variables given on the command line (`--var`), defined even when the file lacks them. */
  extraVariables?: readonly string[];
  /** The aliases and plugins a step's command word may name. */
  extensions?: StepExtensions;
  /** Check only: keep no command words in the steps (what `pipeline validate` prints is names and texts). */
  checkOnly?: boolean;
}

type Yaml = typeof import("yaml");

/** The part of `line` a problem at 1-based `column` quotes, and the column there. */
export function excerpt(line: string, column: number): { source: string; sourceColumn: number } {
  if (line.length <= SOURCE_WIDTH) return { source: line, sourceColumn: column };
  const width = SOURCE_WIDTH - 2; // room for a `…` at each end
  const start = Math.max(0, Math.min(column - 1 - Math.floor(width / 2), line.length - width));
  const end = start + width;
  const source = (start > 0 ? "…" : "") + line.slice(start, end) + (end < line.length ? "…" : "");
  return { source, sourceColumn: column - start + (start > 0 ? 1 : 0) };
}

/** Validates pipeline text; `pipeline` is set only when there is no problem. */
export async function validatePipelineText(
  text: string,
  opts: ValidateOptions,
): Promise<{ pipeline?: Pipeline; problems: Problem[] }> {
  const yaml: Yaml = await import("yaml");
  const lineCounter = new yaml.LineCounter();
  lineCounter.addNewLine(0);
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineCounter.addNewLine(i + 1);
  // Split only when a problem is shown.
  let lines: string[] | undefined;
  const problems: Problem[] = [];
  const report = (offset: number, length: number, message: string) => {
    const { line, col } = lineCounter.linePos(Math.max(0, Math.min(offset, text.length)));
    lines ??= text.split(/\r?\n|\r/);
    const whole = lines[line - 1] ?? "";
    const cut = excerpt(whole, col);
    const room = cut.source.length - cut.sourceColumn + 1 - (cut.source.endsWith("…") ? 1 : 0);
    problems.push({ line, column: col, length: Math.max(1, Math.min(length, room)), message, ...cut });
  };
  const sorted = () => problems.sort((a, b) => a.line - b.line || a.column - b.column);
  const nul = text.indexOf("\0");
  if (nul >= 0) {
    report(nul, 1, "the file contains a NUL byte: a pipeline is text (is this a binary file?)");
    return { problems };
  }
  // Parsed once: the syntax tree is checked for depth, then composed (as parseDocument would).
  const tokens = Array.from(new yaml.Parser().parse(text));
  const tooDeep = deepCollection(tokens, MAX_NESTING);
  if (tooDeep !== undefined) {
    report(tooDeep, 1, `nesting deeper than ${MAX_NESTING} levels: a pipeline needs a few`);
    return { problems };
  }
  const doc = composeDocument(yaml, tokens, text.length);
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      report(e.pos[0], e.pos[1] - e.pos[0], e.message.replace(/ at line \d+, column \d+:[\s\S]*$/, ""));
    }
    return { problems: sorted() };
  }
  const c: Check = { yaml, text, report, opts, lineOf: (offset) => lineCounter.linePos(offset).line };
  const pipeline = checkPipeline(c, doc.contents);
  return problems.length > 0 ? { problems: sorted() } : { pipeline, problems };
}

/** The deepest nesting of collections accepted (a pipeline needs 4; the parser recurses per level). */
export const MAX_NESTING = 64;

const COLLECTIONS = new Set(["block-map", "block-seq", "flow-collection"]);

/**
 * The offset of the first collection nested deeper than `max` in the text's syntax tree, or
 * undefined. The tree is walked with a stack, not recursion: 3,000 levels used to overflow the
 * call stack of the parser's later stages.
 */
function deepCollection(tokens: readonly unknown[], max: number): number | undefined {
  const stack: [unknown, number][] = tokens.map((token) => [token, 0]);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (Array.isArray(node)) {
      for (const item of node) if (item && typeof item === "object") stack.push([item, depth]);
      continue;
    }
    const token = node as { type?: string; offset?: number };
    const level = COLLECTIONS.has(token.type ?? "") ? depth + 1 : depth;
    if (level > max) return token.offset ?? 0;
    for (const value of Object.values(token)) {
      if (value && typeof value === "object") stack.push([value, level]);
    }
  }
  return undefined;
}

/**
 * The first document of the syntax tree, with an error when more follow (as `yaml.parseDocument`).
 * Duplicate keys are found by the checks below with a set: the library's own check compares each key
 * with every earlier one, minutes for a 1 MiB flow mapping.
 */
function composeDocument(yaml: Yaml, tokens: Iterable<unknown>, length: number) {
  const composer = new yaml.Composer({ uniqueKeys: false });
  let doc: ReturnType<typeof yaml.parseDocument> | undefined;
  // deno-lint-ignore no-explicit-any
  for (const next of composer.compose(tokens as any, true, length)) {
    if (!doc) doc = next as ReturnType<typeof yaml.parseDocument>;
    else {
      const [start, end] = next.range;
      doc.errors.push(
        new yaml.YAMLParseError([start, end], "MULTIPLE_DOCS", "Source contains multiple documents"),
      );
      break;
    }
  }
  return doc!;
}

type Report = (offset: number, length: number, message: string) => void;

/** What the checks share: the library, the text and where problems go. */
interface Check {
  yaml: Yaml;
  text: string;
  report: Report;
  opts: ValidateOptions;
  /** The 1-based line of an offset (a binary search). */
  lineOf(offset: number): number;
}

/** Where a composed node starts and ends in the text (the start of the file when it has no place). */
function span(node: unknown): { start: number; end: number } {
  const range = (node as Node | null | undefined)?.range;
  return range ? { start: range[0], end: range[1] } : { start: 0, end: 1 };
}

function at(node: unknown, c: Check, message: string): void {
  const { start, end } = span(node);
  c.report(start, end - start, message);
}

/** The node as a scalar, or undefined. */
function scalar(c: Check, node: unknown): Scalar | undefined {
  return c.yaml.isScalar(node) ? node : undefined;
}

/** A mapping's keys: the allowed ones by name; unknown and repeated keys are problems. */
function keysOf(c: Check, map: YAMLMap, allowed: readonly string[], where: string): Map<string, Pair> {
  const pairs = new Map<string, Pair>();
  const seen = new Set<string>();
  for (const pair of map.items) {
    const keyNode = scalar(c, pair.key);
    const key = keyNode ? String(keyNode.value) : "";
    if (keyNode && seen.has(key)) {
      at(pair.key, c, `duplicate key '${key}' ${where} (keys of a mapping are unique)`);
      continue;
    }
    seen.add(key);
    if (!allowed.includes(key)) {
      const guess = suggest(key, allowed);
      at(pair.key, c, `unknown key '${key}' ${where}${guess ? ` (did you mean '${guess}'?)` : ""}`);
    } else pairs.set(key, pair);
  }
  return pairs;
}

function stringValue(c: Check, pair: Pair | undefined, what: string): string | undefined {
  if (!pair) return undefined;
  const v = scalar(c, pair.value);
  if (typeof v?.value !== "string") {
    at(pair.value ?? pair.key, c, `${what} must be a string`);
    return undefined;
  }
  if (v.value.trim() === "") {
    at(v, c, `${what} is empty`);
    return undefined;
  }
  return v.value;
}

/** Checks the whole file. */
function checkPipeline(c: Check, root: unknown): Pipeline | undefined {
  if (!c.yaml.isMap(root)) {
    at(root, c, root ? "a pipeline file must be a mapping with `name` and `steps`" : "the file is empty");
    return undefined;
  }
  const top = keysOf(c, root, TOP_LEVEL_KEYS, "at the top level");
  const version = top.get("version")?.value;
  if (version && scalar(c, version)?.value !== 1) at(version, c, "version must be 1");
  if (top.has("$schema")) stringValue(c, top.get("$schema"), "$schema");
  const name = stringValue(c, top.get("name"), "name");
  if (!top.has("name")) at(root, c, "missing `name` (the pipeline's name)");
  const variables = checkVariables(c, top.get("variables")?.value);
  const stepsPair = top.get("steps");
  if (!stepsPair) {
    at(root, c, "missing `steps` (a list of steps)");
    return undefined;
  }
  const stepsNode = stepsPair.value;
  if (!c.yaml.isSeq(stepsNode)) {
    at(stepsNode ?? stepsPair.key, c, "`steps` must be a list of steps");
    return undefined;
  }
  if (stepsNode.items.length === 0) at(stepsNode, c, "`steps` is empty");
  const names = [...Object.keys(variables), ...(c.opts.extraVariables ?? [])];
  const steps = stepsNode.items.map(stepChecker(c));
  const ids = stepIds(steps.map((s) => s?.step.id));
  const known = { ids, vars: new Set(names), varNames: names };
  steps.forEach((s, i) => s && checkTemplates(c, s, i, known));
  return { name: name ?? "", variables, steps: steps.filter((s) => s !== undefined).map((s) => s.step) };
}

function checkVariables(c: Check, node: unknown): Record<string, string> {
  const vars: Record<string, string> = {};
  if (node === undefined || node === null || (c.yaml.isScalar(node) && node.value === null)) return vars;
  if (!c.yaml.isMap(node)) {
    at(node, c, "`variables` must be a mapping of names to values");
    return vars;
  }
  for (const pair of node.items) {
    const name = String(scalar(c, pair.key)?.value ?? "");
    if (!NAME_PATTERN.test(name)) {
      at(
        pair.key,
        c,
        `invalid variable name '${name}' (letters, digits, _ and -; not starting with a digit)`,
      );
    } else if (Object.hasOwn(vars, name)) {
      at(pair.key, c, `duplicate variable '${name}' (keys of a mapping are unique)`);
      continue;
    }
    const v = scalar(c, pair.value);
    if (!v || v.value === null || typeof v.value === "object") {
      at(pair.value ?? pair.key, c, `variable '${name}' must be a string, number or boolean`);
      continue;
    }
    vars[name] = String(v.value);
  }
  return vars;
}

/** The empty words and path of every step of a check-only run (frozen: nothing may fill it). */
const NOTHING = Object.freeze([]) as unknown as never[];

/** A step and the node of its command (or shell) text, for placing its problems. */
type CheckedStep = { step: PipelineStep; value: Scalar | undefined };

/** Checks steps one at a time, in order (the ids seen so far are kept for duplicates). */
function stepChecker(c: Check): (node: unknown, i: number) => CheckedStep | undefined {
  const seenIds = new Map<string, number>();
  const none = (): never[] => c.opts.checkOnly ? NOTHING : [];
  return (node, i) => {
    const index = i + 1;
    if (!c.yaml.isMap(node)) {
      at(node, c, `step ${index} must be a mapping with \`name\` and \`command\``);
      return undefined;
    }
    const keys = keysOf(c, node, STEP_KEYS, `in step ${index}`);
    const name = stringValue(c, keys.get("name"), `name of step ${index}`);
    if (!keys.has("name")) at(node, c, `step ${index} has no \`name\``);
    let id = stringValue(c, keys.get("id"), `id of step ${index}`);
    const idNode = keys.get("id")?.value;
    if (id !== undefined && !NAME_PATTERN.test(id)) {
      at(idNode, c, `invalid step id '${id}' (letters, digits, _ and -; not starting with a digit)`);
      id = undefined;
    } else if (id !== undefined && seenIds.has(id)) {
      at(idNode, c, `duplicate step id '${id}' (also step ${seenIds.get(id)})`);
      id = undefined;
    } else if (id !== undefined) seenIds.set(id, index);
    const coe = keys.get("continue_on_error")?.value;
    if (coe !== undefined && typeof scalar(c, coe)?.value !== "boolean") {
      at(coe, c, "continue_on_error must be true or false");
    }
    const command = keys.get("command");
    const shell = keys.get("shell");
    if (command && shell) {
      at(shell.key, c, `step ${index} has both \`command\` and \`shell\`: keep one`);
    } else if (!command && !shell) at(node, c, `step ${index} has no \`command\``);
    if (shell && !command && !c.opts.allowShell) {
      at(shell.key, c, "a `shell` step runs only with `pipeline run --allow-shell`");
    }
    const step: PipelineStep = {
      index,
      name: name ?? `step ${index}`,
      id,
      continueOnError: scalar(c, coe)?.value === true,
      line: c.lineOf(span(node).start),
    };
    const commandText = stringValue(c, command, `command of step ${index}`);
    const shellText = command ? undefined : stringValue(c, shell, `shell of step ${index}`);
    if (commandText !== undefined) step.command = { text: commandText, words: none(), path: none() };
    if (shellText !== undefined) step.shell = { text: shellText, script: shellText };
    return { step, value: scalar(c, (command ?? shell)?.value) };
  };
}

/** Step ids by name (the first step of each) and in order, so that a reference is found in constant time. */
interface StepIds {
  list: readonly (string | undefined)[];
  index: ReadonlyMap<string, number>;
}

function stepIds(list: readonly (string | undefined)[]): StepIds {
  const index = new Map<string, number>();
  list.forEach((id, i) => id !== undefined && !index.has(id) && index.set(id, i));
  return { list, index };
}

/** What a step's references may name: the steps' ids and the variables. */
interface Known {
  ids: StepIds;
  vars: ReadonlySet<string>;
  varNames: readonly string[];
}

/** Checks a step's expressions and, for a command step, its command line. */
function checkTemplates(c: Check, s: CheckedStep, i: number, known: Known): void {
  const { step, value: valueNode } = s;
  const text = step.command?.text ?? step.shell?.text;
  if (text === undefined || !valueNode) return;
  const here = (p: TemplateProblem) => {
    const { offset, length } = locate(c.text, valueNode, text, p.offset, p.length);
    c.report(offset, length, p.message);
  };
  // Shell steps leave `$NAME` to the shell (the variables are in its environment).
  const { parts, problems } = parseTemplate(text, step.shell ? undefined : { vars: known.varNames });
  problems.forEach(here);
  if (step.shell) {
    // A value pasted into shell text is code: `${{ }}` is refused, the environment carries the values.
    for (const part of parts) {
      if (part.kind !== "expr") continue;
      here({ offset: part.start, length: part.end - part.start, message: shellExpression(part.ref) });
    }
    step.shell.script = renderParts(parts, () => "");
    return;
  }
  for (const part of parts) {
    if (part.kind === "expr") {
      checkReference(part.ref, i, known, (message) => here({ ...spanOf(part), message }));
    }
  }
  let words: TemplateWord[];
  try {
    words = splitTemplateWords(parts, `the command of step ${step.index}`);
  } catch (e) {
    here({ offset: 0, length: text.length, message: (e as Error).message });
    return;
  }
  const check = checkCommandWords(words, c.opts.tree, c.opts.extensions);
  check.problems.forEach(here);
  if (!c.opts.checkOnly) step.command = { text, words, path: check.path };
}

function spanOf(part: { start: number; end: number }): { offset: number; length: number } {
  return { offset: part.start, length: part.end - part.start };
}

/** The problem of a `${{ }}` in a shell step, with the environment variable that carries its value. */
function shellExpression(ref: Reference): string {
  return `a shell step cannot use \${{ }}: values reach the shell only through its environment; ` +
    `write ${shellEnvHint(ref)}`;
}

/** Checks that a command step's reference names a known variable or an earlier step. */
function checkReference(ref: Reference, i: number, known: Known, problem: (message: string) => void): void {
  if (ref.kind === "var") {
    if (!known.vars.has(ref.name)) {
      const guess = suggest(ref.name, known.varNames);
      problem(`undefined variable '${ref.name}'${guess ? ` (did you mean '${guess}'?)` : ""}`);
    }
    return;
  }
  const target = known.ids.index.get(ref.id) ?? -1;
  if (target < 0) {
    const guess = suggest(ref.id, known.ids.list.filter((x): x is string => !!x));
    problem(`no step has id '${ref.id}'${guess ? ` (did you mean '${guess}'?)` : ""}`);
  } else if (target === i) {
    problem(`step '${ref.id}' cannot use its own ${ref.field}`);
  } else if (target > i) {
    problem(`step '${ref.id}' runs later (step ${target + 1}): reference only earlier steps`);
  }
}

/** Maps an offset inside a scalar's value to the file (quotes, escapes and block scalars included). */
function locate(
  text: string,
  node: Scalar,
  value: string,
  offset: number,
  length: number,
): { offset: number; length: number } {
  const { start, end } = span(node);
  const raw = text.slice(start, end);
  const whole = raw.indexOf(value);
  if (whole >= 0) return { offset: start + whole + offset, length };
  const needle = value.slice(offset, offset + length);
  const found = needle === "" ? -1 : raw.indexOf(needle);
  if (found >= 0) return { offset: start + found, length };
  return { offset: start, length: 1 };
}
