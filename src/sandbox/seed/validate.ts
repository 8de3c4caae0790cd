/**
 * Reads a world file (YAML or JSON) and checks it against WORLD_SCHEMA (schema.ts) node by node, so
 * that every problem has its `file:line:col`. The schema keywords checked are the ones it uses: type,
 * properties, additionalProperties, required, items, $ref, enum, const, pattern and minLength.
 */

import * as yaml from "yaml";
import { suggest } from "../../core/suggest.ts";
import { dirname, isAbsolute, join } from "node:path";
import { DiazoError, usageError } from "../../core/errors.ts";
import { readInputText } from "../../core/input_file.ts";
import type { World } from "./apply.ts";
import { FILE, WORLD_SCHEMA, WORLD_SCHEMA_PATH } from "./schema.ts";

/** One problem of a world file, at a position. */
export interface WorldProblem {
  line: number;
  column: number;
  message: string;
}

// deno-lint-ignore no-explicit-any
type Schema = any;

interface Walk {
  report(node: yaml.Node | null | undefined, message: string): void;
  /** How many problems were reported so far. */
  readonly problems: number;
  /** Where a relative `file` starts. */
  base: string;
}

/** A `file` field names a regular file (relative to the world file's folder). */
function checkFile(w: Walk, node: yaml.Node | null, where: string): void {
  const name = String((node as yaml.Scalar).value);
  const path = isAbsolute(name) ? name : join(w.base, name);
  let info: Deno.FileInfo | undefined;
  try {
    info = Deno.statSync(path);
  } catch {
    info = undefined;
  }
  if (!info?.isFile) w.report(node, `${where}: no file ${name}${isAbsolute(name) ? "" : ` (in ${w.base})`}`);
}

function resolveRef(s: Schema): Schema {
  return s.$ref ? (WORLD_SCHEMA.$defs as Schema)[s.$ref.replace("#/$defs/", "")] : s;
}

function typeOf(node: yaml.Node | null): string {
  if (yaml.isMap(node)) return "object";
  if (yaml.isSeq(node)) return "array";
  const v = yaml.isScalar(node) ? node.value : null;
  if (v === null) return "null";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

const WORDS: Record<string, string> = {
  object: "a mapping",
  array: "a list",
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
};

function check(w: Walk, node: yaml.Node | null, schema: Schema, where: string): void {
  const s = resolveRef(schema);
  const t = typeOf(node);
  const value = yaml.isScalar(node) ? node.value : undefined;
  if (s.const !== undefined && value !== s.const) {
    return w.report(node, `${where} must be ${JSON.stringify(s.const)}`);
  }
  if (s.enum && !s.enum.includes(value)) {
    return w.report(node, `${where} must be one of ${s.enum.join(", ")}; got ${JSON.stringify(value ?? t)}`);
  }
  if (s.type && !(s.type === t || (s.type === "number" && t === "integer"))) {
    return w.report(node, `${where} must be ${WORDS[s.type] ?? s.type}, not ${WORDS[t] ?? t}`);
  }
  if (t === "string") {
    const text = value as string;
    if (s.minLength !== undefined && text.length < s.minLength) w.report(node, `${where} must not be empty`);
    else if (s.pattern && !new RegExp(s.pattern).test(text)) {
      w.report(node, `${where} must match ${s.pattern}`);
    }
  }
  if (yaml.isSeq(node) && s.items) {
    node.items.forEach((n, i) => check(w, n as yaml.Node, s.items, `${where}[${i}]`));
  }
  if (yaml.isMap(node)) {
    const props: Record<string, Schema> = s.properties ?? {};
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = String((pair.key as yaml.Scalar)?.value ?? pair.key);
      seen.add(key);
      const sub = props[key];
      if (!sub) {
        const near = suggest(key, Object.keys(props));
        w.report(
          pair.key as yaml.Node,
          `unknown field '${key}' in ${where}${near ? ` (did you mean '${near}'?)` : ""}`,
        );
        continue;
      }
      const before = w.problems;
      check(w, pair.value as yaml.Node | null, sub, `${where}.${key}`);
      if (sub === FILE && w.problems === before) {
        checkFile(w, pair.value as yaml.Node | null, `${where}.${key}`);
      }
    }
    for (const r of s.required ?? []) if (!seen.has(r)) w.report(node, `${where} needs '${r}'`);
  }
}

/** Parses world text and checks it (files relative to `base`); `world` is set only when there is no problem. */
export function validateWorldText(text: string, base: string): { world?: World; problems: WorldProblem[] } {
  const counter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const problems: WorldProblem[] = [];
  const at = (offset: number, message: string) => {
    const { line, col } = counter.linePos(offset);
    problems.push({ line, column: col, message });
  };
  for (const e of doc.errors) {
    at(e.pos[0], e.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, ""));
  }
  if (problems.length) return { problems };
  const walk: Walk = {
    report: (node, message) => at(node?.range?.[0] ?? 0, message),
    get problems() {
      return problems.length;
    },
    base,
  };
  check(walk, doc.contents as yaml.Node | null, WORLD_SCHEMA, "world");
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return problems.length ? { problems } : { world: doc.toJSON() as World, problems };
}

/**
 * Reads and checks a world file before the sandbox starts: a usage error (exit 2) at the first
 * problem's `file:line:col` when it is not a valid world.
 */
export async function readWorldFile(file: string, cwd: string): Promise<{ world: World; file: string }> {
  const path = isAbsolute(file) ? file : join(cwd, file);
  let text: string;
  try {
    text = (await readInputText(path, "world", { shown: file }))!;
  } catch (e) {
    if (e instanceof DiazoError) throw e;
    throw usageError(
      `cannot read ${file}`,
      "Check the path of --seed; a relative path starts at the current directory.",
    );
  }
  const { world, problems } = validateWorldText(text, dirname(path));
  if (!world) {
    const [p] = problems;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
    throw usageError(
      `${file}:${p.line}:${p.column}: ${p.message}${more}`,
      `Fix the world file; its format is ${WORLD_SCHEMA_PATH} in the diazo repository.`,
    );
  }
  return { world, file: path };
}
