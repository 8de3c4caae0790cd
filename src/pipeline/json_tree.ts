/**
 * A reader for pipeline files written as JSON: the same offset tree as the block parser (tree.ts), at a
 * fraction of the `yaml` library's cost (~80x the file). Anything it is unsure of (a syntax error,
 * duplicate keys, deep nesting, control or line-separator characters) makes it answer undefined, and the
 * caller parses with the `yaml` library, whose messages and positions stay those shown.
 */
import type { StepHook } from "./block_yaml.ts";
import type { TreeMap, TreeNode, TreePair, TreeScalar, TreeSeq } from "./tree.ts";

/** Deepest nesting read here (a pipeline needs 4); deeper text goes to the library. */
const MAX_DEPTH = 16;

const OUTSIDE = new Error("not plain JSON");

/** Characters left to the library (controls other than the JSON whitespace, BOM, YAML line breaks). */
// deno-lint-ignore no-control-regex
const ODD_CHARS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff\u2028\u2029]/;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

/** Parses `text` as JSON into the tree; undefined when it is not plain JSON (parse it with `yaml`). */
// long: one closure over the cursor, its readers (value, string, object, array) read top to bottom
export function parseJsonTree(text: string, onStep?: StepHook): TreeNode | undefined {
  if (ODD_CHARS.test(text)) return undefined;
  let pos = 0;
  // Keys repeat on every step: one string each, not one per key read.
  const keys = new Map<string, string>();
  const space = () => {
    for (
      let c = text.charCodeAt(pos);
      c === 32 || c === 10 || c === 13 || c === 9;
      c = text.charCodeAt(++pos)
    );
  };
  const value = (depth: number, hook?: StepHook): TreeNode => {
    if (depth > MAX_DEPTH) throw OUTSIDE;
    space();
    const c = text[pos];
    if (c === "{") return map(depth);
    if (c === "[") return seq(depth, hook);
    if (c === '"') return string();
    const start = pos;
    for (const [word, v] of WORDS) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return { kind: "scalar", value: v, start, end: pos };
      }
    }
    NUMBER.lastIndex = pos;
    if (!NUMBER.test(text)) throw OUTSIDE;
    pos = NUMBER.lastIndex;
    return { kind: "scalar", value: Number(text.slice(start, pos)), start, end: pos };
  };
  const string = (): TreeScalar => {
    const start = pos;
    let i = pos + 1;
    let escaped = false;
    for (let c = text.charCodeAt(i); c !== 34 /* " */; c = text.charCodeAt(++i)) {
      if (i >= text.length || c === 10 || c === 13 || c === 9) throw OUTSIDE;
      if (c === 92 /* \ */) {
        escaped = true;
        i++;
      }
    }
    pos = i + 1;
    const raw = text.slice(start, pos);
    return { kind: "scalar", value: escaped ? JSON.parse(raw) : raw.slice(1, -1), start, end: pos };
  };
  const map = (depth: number): TreeMap => {
    const items: TreePair[] = [];
    const node: TreeMap = { kind: "map", items, start: pos++, end: 0 };
    const seen = new Set<string>();
    space();
    if (text[pos] !== "}") {
      for (;;) {
        space();
        if (text[pos] !== '"') throw OUTSIDE;
        const key = string();
        const name = key.value as string;
        if (seen.has(name)) throw OUTSIDE;
        seen.add(name);
        key.value = keys.get(name) ?? (keys.set(name, name), name);
        space();
        if (text[pos++] !== ":") throw OUTSIDE;
        // The root object is the only one at depth 1: its `steps` list goes item by item to the hook.
        items.push({ key, value: value(depth + 1, depth === 1 && name === "steps" ? onStep : undefined) });
        space();
        if (text[pos] !== ",") break;
        pos++;
      }
    }
    if (text[pos++] !== "}") throw OUTSIDE;
    node.end = pos;
    node.items = items.slice();
    return node;
  };
  const seq = (depth: number, hook?: StepHook): TreeSeq => {
    const items: (TreeNode | null)[] = [];
    const node: TreeSeq = { kind: "seq", items, start: pos++, end: 0 };
    space();
    if (text[pos] !== "]") {
      for (;;) {
        const item = value(depth + 1);
        items.push(hook ? hook(item, items.length) : item);
        space();
        if (text[pos] !== ",") break;
        pos++;
      }
    }
    if (text[pos++] !== "]") throw OUTSIDE;
    node.end = pos;
    return node;
  };
  try {
    space();
    if (text[pos] !== "{") return undefined;
    const root = value(1);
    space();
    return pos === text.length ? root : undefined;
  } catch (e) {
    if (e === OUTSIDE || e instanceof SyntaxError) return undefined;
    throw e;
  }
}

const WORDS: [string, unknown][] = [["true", true], ["false", false], ["null", null]];
