/**
 * `--from-file body.json|yaml` (or `-` for stdin): a request body written by a person, read and
 * checked before any request. Every mistake is one usage error naming the file and the position
 * (line:column), so a CI log points at the line to fix.
 */
import * as yaml from "yaml";
import { DiazoError, usageError } from "../core/errors.ts";
import { readInputText } from "../core/input_file.ts";

/** The kind of value a body field takes. */
export type FieldKind =
  | "string"
  | "number"
  | "integer"
  | "boolean"
  | "date"
  | "string[]"
  | "object"
  | "array";

/** The fields a body may carry, by name; any other field is an error. */
export type BodyShape = Readonly<Record<string, FieldKind>>;

/** Where the body's text comes from. */
export interface BodySource {
  /** The path given (`-` for stdin), resolved from `cwd`. */
  path: string;
  cwd: string;
  /** Reads all of stdin (used for `-`). */
  readStdin(): Promise<string>;
}

/** Reads and checks a body: malformed JSON/YAML, an unknown field or a wrong type is a usage error with its position. */
export async function readBodyFile(source: BodySource, shape: BodyShape): Promise<Record<string, unknown>> {
  const name = source.path === "-" ? "<stdin>" : source.path;
  let text: string;
  try {
    text = source.path === "-"
      ? await source.readStdin()
      : (await readInputText(resolve(source), "body", { shown: name }))!;
  } catch (e) {
    if (e instanceof DiazoError) throw e;
    throw usageError(
      `cannot read ${name}`,
      "Check the path; relative paths are resolved from the current directory.",
    );
  }
  return parseBody(text, name, shape);
}

/** Parses body text (JSON or YAML) and checks it against `shape`; `name` labels positions in errors. */
export function parseBody(text: string, name: string, shape: BodyShape): Record<string, unknown> {
  const counter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number | undefined) => {
    const { line, col } = counter.linePos(offset ?? 0);
    return `${name}:${line}:${col}`;
  };
  const fields = Object.keys(shape).join(", ");
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    throw usageError(
      `${at(e.pos[0])}: not valid JSON or YAML (${e.message.split("\n")[0]})`,
      "Fix the syntax at that position; the body is a JSON object or a YAML mapping.",
    );
  }
  if (!yaml.isMap(doc.contents)) {
    throw usageError(`${at(doc.contents?.range?.[0])}: the body must be an object`, `Fields: ${fields}.`);
  }
  const body: Record<string, unknown> = {};
  for (const pair of doc.contents.items) {
    const keyNode = pair.key as yaml.Node | null;
    const key = String(yaml.isScalar(keyNode) ? keyNode.value : keyNode);
    const kind = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!kind) throw usageError(`${at(keyNode?.range?.[0])}: unknown field '${key}'`, `Fields: ${fields}.`);
    const valueNode = pair.value as yaml.Node | null;
    const empty = !valueNode ||
      (yaml.isScalar(valueNode) && valueNode.value === null && valueNode.range?.[0] === valueNode.range?.[1]);
    if (!valueNode || empty) {
      // `"status": }` or `status:` with nothing after: valid YAML (null), but never what was meant.
      throw usageError(
        `${at(keyNode?.range?.[1])}: field '${key}' has no value`,
        `Give it ${article(kind)}, or leave the field out.`,
      );
    }
    const value = valueNode.toJSON();
    if (!fits(kind, value)) {
      throw usageError(
        `${at(valueNode?.range?.[0] ?? keyNode?.range?.[0])}: field '${key}' must be ${article(kind)}`,
        `Got ${describe(value)}; fix the value or leave the field out.`,
      );
    }
    body[key] = value instanceof Date ? value.toISOString().slice(0, 10) : value;
  }
  return body;
}

function resolve(source: BodySource): string {
  return source.path.startsWith("/") ? source.path : `${source.cwd}/${source.path}`;
}

const DATE = /^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

function fits(kind: FieldKind, value: unknown): boolean {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "date":
      return (typeof value === "string" && DATE.test(value)) || value instanceof Date;
    case "string[]":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
  }
}

function article(kind: FieldKind): string {
  const words: Record<FieldKind, string> = {
    string: "a string",
    number: "a number",
    integer: "an integer",
    boolean: "true or false",
    date: "a date (YYYY-MM-DD)",
    "string[]": "a list of strings",
    object: "an object",
    array: "a list",
  };
  return words[kind];
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return `${typeof value} ${JSON.stringify(value)}`.slice(0, 60);
}
