/**
 * Loading and validating a pipeline file (YAML or JSON, one tree with offsets so positions work for both):
 * every problem in one pass, each with line, column and the offending line. Block-style files are read by
 * a small line parser (block_yaml.ts), plain JSON by json_tree.ts; anything else by the `yaml` library.
 */
import { parseBlockYaml, type StepHook } from "./block_yaml.ts";
import { parseJsonTree } from "./json_tree.ts";
import { fromYaml, type TreeMap, type TreeNode, type TreePair, type TreeScalar } from "./tree.ts";
import { suggest } from "../core/suggest.ts";
import { NAME_PATTERN, STEP_KEYS, TOP_LEVEL_KEYS } from "./schema.ts";
import {
  parseTemplate,
  splitTemplateWords,
  type TemplatePart,
  type TemplateProblem,
  type TemplateWord,
} from "./interpolate.ts";
import { checkCommandWords, type CommandSpec } from "./command.ts";
import type { StepExtensions } from "./alias.ts";

/** One problem of a pipeline file. Line and column are 1-based. */
export interface Problem {
  line: number;
  column: number;
  /** How many characters the problem spans on its line (for the caret underline). */
  length: number;
  message: string;
  /** The text of the offending line. */
  source: string;
}

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
  shell?: { text: string; parts: TemplatePart[] };
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
  /**
   * Check only: keep no command words or template parts in the steps (what `pipeline validate` prints
   * is the steps' names and texts; a run needs the rest). Keeps a 16 MiB file's result small.
   */
  checkOnly?: boolean;
}

type Yaml = typeof import("yaml");

/** Validates pipeline text; `pipeline` is set only when there is no problem. */
export async function validatePipelineText(
  text: string,
  opts: ValidateOptions,
): Promise<{ pipeline?: Pipeline; problems: Problem[] }> {
  const yaml: Yaml = await import("yaml");
  const lineCounter = new yaml.LineCounter();
  lineCounter.addNewLine(0);
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineCounter.addNewLine(i + 1);
  // Split only when a problem is shown: a line array of a 16 MiB file costs ~5x the file.
  let lines: string[] | undefined;
  const problems: Problem[] = [];
  const report = (offset: number, length: number, message: string) => {
    const { line, col } = lineCounter.linePos(Math.max(0, Math.min(offset, text.length)));
    lines ??= text.split(/\r?\n|\r/);
    const source = lines[line - 1] ?? "";
    problems.push({
      line,
      column: col,
      length: Math.max(1, Math.min(length, source.length - col + 1)),
      message,
      source,
    });
  };
  const sorted = () => problems.sort((a, b) => a.line - b.line || a.column - b.column);
  const nul = text.indexOf("\0");
  if (nul >= 0) {
    report(nul, 1, "the file contains a NUL byte: a pipeline is text (is this a binary file?)");
    return { problems };
  }
  const lineOf = (offset: number) => lineCounter.linePos(offset).line;
  const c: Check = { text, report, opts, lineOf };
  // Steps are checked as a reader (block_yaml.ts, json_tree.ts) reads them: their trees never all exist.
  const checked: (CheckedStep | undefined)[] = [];
  let checkStep = stepChecker(c);
  // What the steps' checks found in a reader that then gave up is found again in the next one's tree.
  const restart = (): undefined => {
    problems.length = 0;
    checked.length = 0;
    checkStep = stepChecker(c);
  };
  const onStep: StepHook = (item, i) => {
    checked.push(checkStep(item, i));
    return null;
  };
  const fast = parseBlockYaml(text, onStep) ?? restart() ?? parseJsonTree(text, onStep);
  if (fast !== undefined) {
    const pipeline = checkPipeline(c, fast, checked);
    return problems.length > 0 ? { problems: sorted() } : { pipeline, problems };
  }
  restart();
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
  const pipeline = checkPipeline(c, fromYaml(yaml, doc.contents));
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

/** The first document of the syntax tree, with an error when more follow (as `yaml.parseDocument`). */
function composeDocument(yaml: Yaml, tokens: Iterable<unknown>, length: number) {
  const composer = new yaml.Composer({ uniqueKeys: true });
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

/** What the checks share: the text and where problems go. */
interface Check {
  text: string;
  report: Report;
  opts: ValidateOptions;
  /** The 1-based line of an offset (a binary search: slicing the text per step was quadratic). */
  lineOf(offset: number): number;
}

function at(c: Check, node: TreeNode | null | undefined, message: string): void {
  const { start, end } = node ?? { start: 0, end: 1 };
  c.report(start, end - start, message);
}

function keysOf(
  c: Check,
  map: TreeMap,
  allowed: readonly string[],
  where: string,
): Map<string, TreePair> {
  const pairs = new Map<string, TreePair>();
  for (const pair of map.items) {
    const keyNode = pair.key;
    const key = keyNode?.kind === "scalar" ? String(keyNode.value) : "";
    if (!allowed.includes(key)) {
      const guess = suggest(key, allowed);
      at(c, keyNode, `unknown key '${key}' ${where}${guess ? ` (did you mean '${guess}'?)` : ""}`);
    } else pairs.set(key, pair);
  }
  return pairs;
}

function stringValue(c: Check, pair: TreePair | undefined, what: string): string | undefined {
  if (!pair) return undefined;
  const v = pair.value;
  if (v?.kind !== "scalar" || typeof v.value !== "string") {
    at(c, v ?? pair.key, `${what} must be a string`);
    return undefined;
  }
  if (v.value.trim() === "") {
    at(c, v, `${what} is empty`);
    return undefined;
  }
  return v.value;
}

/** Checks the whole file; `checked` holds its steps when the block parser checked them as it read. */
function checkPipeline(
  c: Check,
  root: TreeNode | null,
  checked?: (CheckedStep | undefined)[],
): Pipeline | undefined {
  if (root?.kind !== "map") {
    at(c, root, root ? "a pipeline file must be a mapping with `name` and `steps`" : "the file is empty");
    return undefined;
  }
  const top = keysOf(c, root, TOP_LEVEL_KEYS, "at the top level");
  const version = top.get("version")?.value;
  if (version && !(version.kind === "scalar" && version.value === 1)) at(c, version, "version must be 1");
  if (top.has("$schema")) stringValue(c, top.get("$schema"), "$schema");
  const name = stringValue(c, top.get("name"), "name");
  if (!top.has("name")) at(c, root, "missing `name` (the pipeline's name)");
  const variables = checkVariables(c, top.get("variables")?.value);
  const stepsPair = top.get("steps");
  if (!stepsPair) {
    at(c, root, "missing `steps` (a list of steps)");
    return undefined;
  }
  const stepsNode = stepsPair.value;
  if (stepsNode?.kind !== "seq") {
    at(c, stepsNode ?? stepsPair.key, "`steps` must be a list of steps");
    return undefined;
  }
  if (stepsNode.items.length === 0) at(c, stepsNode, "`steps` is empty");
  const names = [...Object.keys(variables), ...(c.opts.extraVariables ?? [])];
  const steps = checked ?? stepsNode.items.map(stepChecker(c));
  // The steps keep only their command's node from here: the rest of the tree can go.
  stepsNode.items = [];
  const ids = stepIds(steps.map((s) => s?.step.id));
  const known = { ids, vars: new Set(names), varNames: names };
  steps.forEach((s, i) => s && checkTemplates(c, s, i, known));
  return { name: name ?? "", variables, steps: steps.filter((s) => s !== undefined).map((s) => s.step) };
}

function checkVariables(c: Check, node: TreeNode | null | undefined): Record<string, string> {
  const vars: Record<string, string> = {};
  if (node === undefined || node === null || (node.kind === "scalar" && node.value === null)) return vars;
  if (node.kind !== "map") {
    at(c, node, "`variables` must be a mapping of names to values");
    return vars;
  }
  for (const pair of node.items) {
    const key = pair.key as TreeScalar;
    const name = String(key.value);
    if (!NAME_PATTERN.test(name)) {
      at(c, key, `invalid variable name '${name}' (letters, digits, _ and -; not starting with a digit)`);
    }
    const v = pair.value;
    if (v?.kind !== "scalar" || v.value === null || typeof v.value === "object") {
      at(c, v ?? key, `variable '${name}' must be a string, number or boolean`);
      continue;
    }
    vars[name] = String(v.value);
  }
  return vars;
}

/** The empty words, path and parts of every step of a check-only run (frozen: nothing may fill it). */
const NOTHING = Object.freeze([]) as unknown as never[];

/** A step and the node of its command (or shell) text, for placing its problems. */
type CheckedStep = { step: PipelineStep; value: TreeScalar | undefined };

/** Checks steps one at a time, in order (the ids seen so far are kept for duplicates). */
function stepChecker(c: Check): (node: TreeNode | null, i: number) => CheckedStep | undefined {
  const seenIds = new Map<string, number>();
  // A check-only run shares one empty list (nothing fills it): two arrays a step add ~15 MB at 16 MiB.
  const none = (): never[] => c.opts.checkOnly ? NOTHING : [];
  return (node, i) => {
    const index = i + 1;
    if (node?.kind !== "map") {
      at(c, node, `step ${index} must be a mapping with \`name\` and \`command\``);
      return undefined;
    }
    const keys = keysOf(c, node, STEP_KEYS, `in step ${index}`);
    const name = stringValue(c, keys.get("name"), `name of step ${index}`);
    if (!keys.has("name")) at(c, node, `step ${index} has no \`name\``);
    let id = stringValue(c, keys.get("id"), `id of step ${index}`);
    const idNode = keys.get("id")?.value;
    if (id !== undefined && !NAME_PATTERN.test(id)) {
      at(c, idNode, `invalid step id '${id}' (letters, digits, _ and -; not starting with a digit)`);
      id = undefined;
    } else if (id !== undefined && seenIds.has(id)) {
      at(c, idNode, `duplicate step id '${id}' (also step ${seenIds.get(id)})`);
      id = undefined;
    } else if (id !== undefined) seenIds.set(id, index);
    const coe = keys.get("continue_on_error")?.value;
    if (coe !== undefined && !(coe?.kind === "scalar" && typeof coe.value === "boolean")) {
      at(c, coe, "continue_on_error must be true or false");
    }
    const command = keys.get("command");
    const shell = keys.get("shell");
    if (command && shell) {
      at(c, shell.key, `step ${index} has both \`command\` and \`shell\`: keep one`);
    } else if (!command && !shell) at(c, node, `step ${index} has no \`command\``);
    if (shell && !command && !c.opts.allowShell) {
      at(c, shell.key, "a `shell` step runs only with `pipeline run --allow-shell`");
    }
    const step: PipelineStep = {
      index,
      name: name ?? `step ${index}`,
      id,
      continueOnError: coe?.kind === "scalar" && coe.value === true,
      line: c.lineOf(node.start),
    };
    const commandText = stringValue(c, command, `command of step ${index}`);
    const shellText = command ? undefined : stringValue(c, shell, `shell of step ${index}`);
    if (commandText !== undefined) step.command = { text: commandText, words: none(), path: none() };
    if (shellText !== undefined) step.shell = { text: shellText, parts: none() };
    const value = (command ?? shell)?.value;
    return { step, value: value?.kind === "scalar" ? value : undefined };
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
  const { varNames } = known;
  const { step, value: valueNode } = s;
  const text = step.command?.text ?? step.shell?.text;
  if (text === undefined || !valueNode) return;
  const here = (p: TemplateProblem) => {
    const { offset, length } = locate(c.text, valueNode, text, p.offset, p.length);
    c.report(offset, length, p.message);
  };
  // Shell steps leave `$NAME` to the shell (the variables are in its environment).
  const { parts, problems } = parseTemplate(text, step.shell ? undefined : { vars: varNames });
  problems.forEach(here);
  for (const part of parts) {
    if (part.kind !== "expr") continue;
    const ref = part.ref;
    const span = { offset: part.start, length: part.end - part.start };
    if (ref.kind === "var") {
      if (!known.vars.has(ref.name)) {
        const guess = suggest(ref.name, varNames);
        here({
          ...span,
          message: `undefined variable '${ref.name}'${guess ? ` (did you mean '${guess}'?)` : ""}`,
        });
      }
      continue;
    }
    const target = known.ids.index.get(ref.id) ?? -1;
    if (target < 0) {
      const guess = suggest(ref.id, known.ids.list.filter((x): x is string => !!x));
      here({ ...span, message: `no step has id '${ref.id}'${guess ? ` (did you mean '${guess}'?)` : ""}` });
    } else if (target === i) {
      here({ ...span, message: `step '${ref.id}' cannot use its own ${ref.field}` });
    } else if (target > i) {
      here({
        ...span,
        message: `step '${ref.id}' runs later (step ${target + 1}): reference only earlier steps`,
      });
    }
  }
  if (step.shell) {
    if (!c.opts.checkOnly) step.shell.parts = parts;
    return;
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

/** Maps an offset inside a scalar's value to the file (quotes, escapes and block scalars included). */
function locate(
  text: string,
  node: TreeScalar,
  value: string,
  offset: number,
  length: number,
): { offset: number; length: number } {
  const { start, end } = node;
  const raw = text.slice(start, end);
  const whole = raw.indexOf(value);
  if (whole >= 0) return { offset: start + whole + offset, length };
  const needle = value.slice(offset, offset + length);
  const found = needle === "" ? -1 : raw.indexOf(needle);
  if (found >= 0) return { offset: start + found, length };
  return { offset: start, length: 1 };
}
