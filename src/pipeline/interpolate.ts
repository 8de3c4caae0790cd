/**
 * `${{ ... }}` interpolation in pipeline steps: `vars.<name>` and `steps.<id>.result[.<path>]` /
 * `.exit_code` / `.status`; `$${{` writes a literal `${{`. Command steps also take `${NAME}` and
 * `$NAME` (the variable syntax of the peer CLI's pipeline files) as synonyms of `${{ vars.NAME }}`.
 */
import { usageError } from "../core/errors.ts";
import { splitShellWords } from "../extend/shell_words.ts";
import { NAME_PATTERN, STEP_FIELDS } from "./schema.ts";

/** A field of a step that an expression can read. */
export type StepField = (typeof STEP_FIELDS)[number];

/** What one `${{ ... }}` refers to. */
export type Reference =
  | { kind: "var"; name: string }
  | { kind: "step"; id: string; field: StepField; path: (string | number)[] };

/** One `${{ ... }}` in a text, with its offsets there. */
export interface Expression {
  kind: "expr";
  start: number;
  end: number;
  ref: Reference;
}

/** Literal text between expressions (escapes already applied), with its offsets in the source text. */
export interface Literal {
  kind: "text";
  value: string;
  start: number;
  end: number;
}

/** A parsed text: literals and expressions in order. */
export type TemplatePart = Literal | Expression;

/** A mistake in a text, at an offset of it. */
export interface TemplateProblem {
  offset: number;
  length: number;
  message: string;
}

const SYNTAX_HINT = "use ${{ vars.<name> }} or ${{ steps.<id>.result.<path> }}; write $${{ for a literal ${{";

/** Parses the expression inside `${{ }}`, or says what is wrong with it. */
export function parseReference(inner: string): Reference | string {
  const text = inner.trim();
  if (text === "") return `empty expression: ${SYNTAX_HINT}`;
  const [head, ...rest] = text.split(".");
  if (head === "vars") {
    if (rest.length !== 1 || !NAME_PATTERN.test(rest[0])) {
      return `'${text}' is not a variable reference: write vars.<name>, e.g. vars.bucket`;
    }
    return { kind: "var", name: rest[0] };
  }
  if (head === "steps") {
    const m = /^steps\.([^.\s\[]+)(?:\.([^.\s\[]+))?(.*)$/.exec(text);
    if (!m || !NAME_PATTERN.test(m[1])) return `'${text}' is not a step reference: write steps.<id>.result`;
    const [, id, field, tail] = m;
    if (field === undefined) {
      return `'${text}' needs a field: steps.${id}.result, steps.${id}.exit_code or steps.${id}.status`;
    }
    if (!(STEP_FIELDS as readonly string[]).includes(field)) {
      return `unknown step field '${field}' in '${text}': use result, exit_code or status`;
    }
    const path = parsePath(tail);
    if (typeof path === "string") return `${path} in '${text}'`;
    if (field !== "result" && path.length > 0) return `steps.${id}.${field} has no fields ('${text}')`;
    return { kind: "step", id, field: field as StepField, path };
  }
  return `unknown expression '${text}': ${SYNTAX_HINT}`;
}

/** Parses `.name`, `[0]` segments after `result`. */
function parsePath(tail: string): (string | number)[] | string {
  const path: (string | number)[] = [];
  const segment = /^(?:\.([^.\[\]\s]+)|\[(\d+)\])/;
  let rest = tail;
  while (rest !== "") {
    const m = segment.exec(rest);
    if (!m) return `bad path '${rest}' (use .name or [index])`;
    path.push(m[1] !== undefined ? m[1] : Number(m[2]));
    rest = rest.slice(m[0].length);
  }
  return path;
}

/**
 * The variable syntax of pipeline files written for other tools: `${NAME}` is always a variable
 * reference (so an undefined one is reported), `$NAME` only when NAME is one of `vars` (so a `$` of
 * a query or a price stays text); `$${NAME}` and `$$NAME` are the literal texts.
 */
export interface PeerSyntax {
  vars: readonly string[];
}

const BRACED = /^\$\{([^{}\s]*)\}/;
const BARE = /^\$([A-Za-z_][A-Za-z0-9_]*)/;

/**
 * Splits a text into literals and `${{ }}` expressions, collecting every malformed expression; with
 * `peer`, `${NAME}` and `$NAME` are variable references too (see PeerSyntax).
 */
export function parseTemplate(
  text: string,
  peer?: PeerSyntax,
): { parts: TemplatePart[]; problems: TemplateProblem[] } {
  const parts: TemplatePart[] = [];
  const problems: TemplateProblem[] = [];
  let literal = "";
  let literalStart = 0;
  let i = 0;
  const flush = (end: number) => {
    if (literal !== "") parts.push({ kind: "text", value: literal, start: literalStart, end });
    literal = "";
  };
  const reference = (start: number, end: number, ref: Reference) => {
    flush(start);
    parts.push({ kind: "expr", start, end, ref });
    literalStart = end;
  };
  while (i < text.length) {
    const p = text.indexOf("$", i);
    if (p < 0) break;
    literal += text.slice(i, p);
    const rest = text.slice(p);
    if (rest.startsWith("$${{")) {
      literal += "${{"; // the escape $${{
      i = p + 4;
      continue;
    }
    if (rest.startsWith("${{")) {
      const close = text.indexOf("}}", p + 3);
      if (close < 0) {
        problems.push({
          offset: p,
          length: 3,
          message: "unclosed ${{ (expected }}); write $${{ for a literal ${{",
        });
        literal += rest;
        i = text.length;
        break;
      }
      const ref = parseReference(text.slice(p + 3, close));
      if (typeof ref === "string") {
        problems.push({ offset: p, length: close + 2 - p, message: ref });
        literal += text.slice(p, close + 2);
      } else reference(p, close + 2, ref);
      i = close + 2;
      continue;
    }
    const peerRef = peer ? peerReference(rest, peer) : undefined;
    if (peerRef?.kind === "escaped") {
      literal += peerRef.text;
      i = p + peerRef.length;
    } else if (peerRef?.kind === "ref") {
      reference(p, p + peerRef.length, { kind: "var", name: peerRef.name });
      i = p + peerRef.length;
    } else {
      literal += "$";
      i = p + 1;
    }
  }
  literal += text.slice(i);
  flush(text.length);
  return { parts, problems };
}

/** A `${NAME}` / `$NAME` at the start of `rest` (or its `$$` escape), or undefined when there is none. */
function peerReference(
  rest: string,
  peer: PeerSyntax,
):
  | { kind: "ref"; name: string; length: number }
  | { kind: "escaped"; text: string; length: number }
  | undefined {
  const escaped = rest.startsWith("$$") ? peerReference(rest.slice(1), peer) : undefined;
  if (escaped) {
    return { kind: "escaped", text: rest.slice(1, 1 + escaped.length), length: 1 + escaped.length };
  }
  const braced = BRACED.exec(rest);
  if (braced && NAME_PATTERN.test(braced[1])) {
    return { kind: "ref", name: braced[1], length: braced[0].length };
  }
  const bare = BARE.exec(rest);
  if (bare && peer.vars.includes(bare[1])) return { kind: "ref", name: bare[1], length: bare[0].length };
  return undefined;
}

/** The canonical text of a reference, e.g. `steps.up.result.urn`. */
export function referenceText(ref: Reference): string {
  if (ref.kind === "var") return `vars.${ref.name}`;
  const path = ref.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("");
  return `steps.${ref.id}.${ref.field}${path}`;
}

/** What a finished step offers to later expressions. */
export interface StepOutcome {
  status: "ok" | "failed";
  exitCode: number;
  result: unknown;
}

/** Values that expressions read at run time. */
export interface Scope {
  vars: Readonly<Record<string, string>>;
  steps: ReadonlyMap<string, StepOutcome>;
}

/** The text of a value as an argument: strings as they are, other JSON compactly. */
export function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** Resolves a reference; a missing variable, step result or field is a usage error, never "". */
export function resolveReference(ref: Reference, scope: Scope): string {
  const where = `\${{ ${referenceText(ref)} }}`;
  if (ref.kind === "var") {
    if (!(ref.name in scope.vars)) {
      throw usageError(`${where}: variable '${ref.name}' is not defined`, varHint);
    }
    return scope.vars[ref.name];
  }
  const step = scope.steps.get(ref.id);
  if (!step) throw usageError(`${where}: step '${ref.id}' has not run`, "Reference only earlier steps.");
  if (ref.field === "exit_code") return String(step.exitCode);
  if (ref.field === "status") return step.status;
  if (step.status === "failed") {
    throw usageError(`${where}: step '${ref.id}' failed and has no result`, "Check the failed step's error.");
  }
  let value: unknown = step.result;
  for (const [n, key] of ref.path.entries()) {
    const next = value !== null && typeof value === "object"
      ? (value as Record<string | number, unknown>)[key]
      : undefined;
    if (next === undefined || next === null) {
      const at = referenceText({ ...ref, path: ref.path.slice(0, n + 1) });
      throw usageError(
        `${where}: the result of step '${ref.id}' has no ${at.slice(at.indexOf(".result") + 1)}`,
        `Look at the step's result with \`-o json\` and fix the path.`,
      );
    }
    value = next;
  }
  if (value === undefined || value === null) {
    throw usageError(
      `${where}: step '${ref.id}' emitted no result`,
      "Reference a step that prints a result.",
    );
  }
  return valueText(value);
}

const varHint = "Define it under `variables:` or pass --var name=value.";

/** Joins parts into text, resolving each expression with `resolve`. */
export function renderParts(parts: readonly TemplatePart[], resolve: (e: Expression) => string): string {
  return parts.map((p) => (p.kind === "text" ? p.value : resolve(p))).join("");
}

/** One word of a command line, with its offsets in the command text. */
export interface TemplateWord {
  parts: TemplatePart[];
  /** The word's text when it holds no expression. */
  literal?: string;
  offset: number;
  length: number;
}

const PLACEHOLDER = /\uE000(\d+)\uE001/g;

/**
 * Splits a command text into shell words (quoting as `splitShellWords`), expressions kept whole: a
 * value never splits into more words nor gets re-quoted.
 */
export function splitTemplateWords(parts: readonly TemplatePart[], what: string): TemplateWord[] {
  const exprs: Expression[] = [];
  const pieces: { tokStart: number; tokEnd: number; start: number; end: number }[] = [];
  let tok = "";
  for (const p of parts) {
    const text = p.kind === "text" ? p.value : `\uE000${exprs.push(p) - 1}\uE001`;
    pieces.push({ tokStart: tok.length, tokEnd: tok.length + text.length, start: p.start, end: p.end });
    tok += text;
  }
  const sourceAt = (t: number, end: boolean): number => {
    const i = pieces.findIndex((x) => t >= x.tokStart && t < x.tokEnd);
    if (i < 0) return pieces.length ? pieces[pieces.length - 1].end : 0;
    const x = pieces[i];
    if (parts[i].kind === "expr") return end ? x.end : x.start;
    return Math.min(x.start + (t - x.tokStart) + (end ? 1 : 0), x.end);
  };
  let cursor = 0;
  return splitShellWords(tok, what).map((word) => {
    let at = word === "" ? -1 : tok.indexOf(word, cursor);
    if (at < 0) at = cursor + (/^\s*/.exec(tok.slice(cursor))?.[0].length ?? 0);
    cursor = Math.min(at + Math.max(word.length, 1), tok.length);
    const start = sourceAt(at, false);
    const end = sourceAt(Math.max(cursor - 1, at), true);
    const wordParts: TemplatePart[] = [];
    let last = 0;
    for (const m of word.matchAll(PLACEHOLDER)) {
      if (m.index > last) wordParts.push(textPart(word.slice(last, m.index)));
      wordParts.push(exprs[Number(m[1])]);
      last = m.index + m[0].length;
    }
    if (last < word.length || wordParts.length === 0) wordParts.push(textPart(word.slice(last)));
    const literal = wordParts.every((p) => p.kind === "text") ? word : undefined;
    return { parts: wordParts, literal, offset: start, length: Math.max(end - start, 1) };
  });
}

function textPart(value: string): Literal {
  return { kind: "text", value, start: 0, end: 0 };
}
