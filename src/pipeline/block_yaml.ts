/**
 * A line parser for the block-style subset of YAML that pipeline files are written in: block mappings
 * and lists, one-line plain or quoted scalars, comments. It keeps a pipeline at its 16 MiB size limit
 * within ~10x the file in memory (the `yaml` library's syntax trees cost ~80x). Anything outside the
 * subset (anchors, tags, flow collections, multi-line or escaped scalars, empty values, duplicate keys,
 * tabs, CR) makes it answer undefined, and the caller parses with the `yaml` library as before.
 */
import type { TreeMap, TreeNode, TreePair, TreeScalar, TreeSeq } from "./tree.ts";

/** Deepest nesting the subset parser handles (a pipeline needs 4); deeper text goes to the library. */
const MAX_DEPTH = 16;

/** Thrown inside the parser when the text leaves the subset. */
const OUTSIDE = new Error("outside the block subset");

/** Characters that make the whole text leave the subset (tabs, CR, other controls, BOM, YAML line breaks). */
// deno-lint-ignore no-control-regex
const ODD_CHARS = /[\x00-\x09\x0b-\x1f\x7f-\x9f\ufeff\u2028\u2029]/;

/** First characters of a value the subset leaves to the library (indicators, quotes handled apart). */
const INDICATORS = new Set([..."-?:,[]{}#&*!|>%@`"]);

const KEY = /[A-Za-z_$][A-Za-z0-9_$-]*/y;

interface Line {
  /** Column of the content (0-based): the indentation, or after `- ` for a list item's mapping. */
  indent: number;
  /** Offset of the content. */
  start: number;
  /** Offset of the line's end (its `\n` or the text's end). */
  end: number;
}

/**
 * Takes each item of the top-level `steps` list as soon as it is read; what it returns (null: nothing)
 * is kept in its place, so a long list's items need not all be in memory at once.
 */
export type StepHook = (item: TreeNode, index: number) => TreeNode | null;

/** Parses `text` as the block subset; undefined when the text is outside it (parse it with `yaml`). */
export function parseBlockYaml(text: string, onStep?: StepHook): TreeNode | undefined {
  if (ODD_CHARS.test(text)) return undefined;
  try {
    const p = parser(text, onStep);
    const first = p.peek();
    if (!first || first.indent !== 0) return undefined;
    const root = p.block(first, 1);
    if (p.peek()) return undefined;
    return root;
  } catch (e) {
    if (e === OUTSIDE) return undefined;
    throw e;
  }
}

// long: one closure over the cursor (offset, pending line), its helpers read top to bottom
function parser(text: string, onStep?: StepHook) {
  let pos = 0;
  let pending: Line | undefined;
  // Keys repeat on every step: one string each, not one per line (a 16 MiB file has ~700k keys).
  const keys = new Map<string, string>();

  /** The next line with content (comments and blank lines skipped), not consumed. */
  function peek(): Line | undefined {
    if (pending) return pending;
    while (pos < text.length) {
      let end = text.indexOf("\n", pos);
      if (end < 0) end = text.length;
      let i = pos;
      while (i < end && text.charCodeAt(i) === 32) i++;
      if (i < end && text.charCodeAt(i) !== 35 /* # */) {
        if (i === pos && (text.startsWith("---", i) || text.startsWith("...", i) || text[i] === "%")) {
          throw OUTSIDE;
        }
        pending = { indent: i - pos, start: i, end };
        return pending;
      }
      pos = end + 1;
    }
    return undefined;
  }

  function consume(line: Line): void {
    pending = undefined;
    pos = line.end + 1;
  }

  /** A mapping or a list starting at `line`. */
  function block(line: Line, depth: number, hook?: StepHook): TreeMap | TreeSeq {
    if (depth > MAX_DEPTH) throw OUTSIDE;
    return isItem(line) ? seq(line.indent, depth, hook) : map(line.indent, depth);
  }

  function isItem(line: Line): boolean {
    return text.charCodeAt(line.start) === 45 /* - */ &&
      (line.start + 1 === line.end || text.charCodeAt(line.start + 1) === 32);
  }

  function seq(indent: number, depth: number, hook?: StepHook): TreeSeq {
    const items: (TreeNode | null)[] = [];
    const node: TreeSeq = { kind: "seq", items, start: peek()!.start, end: 0 };
    for (let line = peek(); line && line.indent === indent && isItem(line); line = peek()) {
      let i = line.start + 1;
      while (i < line.end && text.charCodeAt(i) === 32) i++;
      if (i >= line.end || text.charCodeAt(i) === 35 || isItem({ indent: 0, start: i, end: line.end })) {
        throw OUTSIDE;
      }
      const inner: Line = { indent: line.indent + (i - line.start), start: i, end: line.end };
      if (keyEnd(inner) >= 0) {
        pending = inner;
        const item = map(inner.indent, depth + 1);
        items.push(hook ? hook(item, items.length) : item);
        node.end = item.end;
      } else {
        const item = scalar(i, line.end);
        consume(line);
        items.push(hook ? hook(item, items.length) : item);
        node.end = item.end;
      }
    }
    return node;
  }

  function map(indent: number, depth: number): TreeMap {
    const items: TreePair[] = [];
    const node: TreeMap = { kind: "map", items, start: peek()!.start, end: 0 };
    const seen = new Set<string>();
    for (let line = peek(); line && line.indent >= indent; line = peek()) {
      if (line.indent > indent || isItem(line)) throw OUTSIDE;
      const colon = keyEnd(line);
      if (colon < 0) throw OUTSIDE;
      const key = scalar(line.start, colon);
      if (typeof key.value !== "string" || seen.has(key.value)) throw OUTSIDE;
      seen.add(key.value);
      key.value = keys.get(key.value) ?? (keys.set(key.value, key.value), key.value);
      let i = colon + 1;
      while (i < line.end && text.charCodeAt(i) === 32) i++;
      let value: TreeNode;
      if (i < line.end && text.charCodeAt(i) !== 35) {
        value = scalar(i, line.end);
        consume(line);
      } else {
        consume(line);
        const next = peek();
        // `key:` then a list at the key's own column is YAML too (`steps:\n- name: a`).
        if (next && (next.indent > indent || (next.indent === indent && isItem(next)))) {
          // The root mapping is the only one at depth 1: its `steps` list goes item by item to the hook.
          value = block(next, depth + 1, depth === 1 && key.value === "steps" ? onStep : undefined);
        } else throw OUTSIDE; // an empty value: its place is the library's to say
      }
      items.push({ key, value });
      node.end = value.end;
    }
    // An array grown by push keeps room for 17; a step's three pairs need three.
    node.items = items.slice();
    return node;
  }

  /** The offset of the `:` ending a simple key at the line's start, or -1. */
  function keyEnd(line: Line): number {
    KEY.lastIndex = line.start;
    if (!KEY.test(text)) return -1;
    const colon = KEY.lastIndex;
    if (text.charCodeAt(colon) !== 58 /* : */) return -1;
    return colon + 1 === line.end || text.charCodeAt(colon + 1) === 32 ? colon : -1;
  }

  /** A one-line scalar from `start`; what follows it up to `end` must be spaces and a comment. */
  function scalar(start: number, end: number): TreeScalar {
    const c = text[start];
    if (c === '"' || c === "'") {
      let close = start;
      for (;;) {
        do close++; while (close < end && text[close] !== c);
        if (close >= end) throw OUTSIDE;
        if (c === "'" && text[close + 1] === "'") close++;
        else break;
      }
      const raw = text.slice(start + 1, close);
      if (c === '"' && raw.includes("\\")) throw OUTSIDE;
      afterValue(close + 1, end);
      const value = c === "'" ? raw.replaceAll("''", "'") : raw;
      return { kind: "scalar", value, start, end: close + 1 };
    }
    if (INDICATORS.has(c)) throw OUTSIDE;
    let stop = start;
    while (stop < end && !(text.charCodeAt(stop) === 35 && text.charCodeAt(stop - 1) === 32)) stop++;
    while (stop > start && text.charCodeAt(stop - 1) === 32) stop--;
    const raw = text.slice(start, stop);
    if (raw.includes(": ") || raw.endsWith(":")) throw OUTSIDE;
    return { kind: "scalar", value: plainValue(raw), start, end: stop };
  }

  function afterValue(from: number, end: number): void {
    let i = from;
    while (i < end && text.charCodeAt(i) === 32) i++;
    if (i < end && (text.charCodeAt(i) !== 35 || i === from)) throw OUTSIDE;
  }

  return { peek, block };
}

/** A plain scalar's value in YAML's core schema; anything that may not be a plain string leaves the subset. */
function plainValue(raw: string): unknown {
  if (raw === "true") return true;
  if (raw === "false") return false;
  if (/^[0-9]{1,15}$/.test(raw)) return Number(raw);
  if (/^(?:~|[-+]?\.?[0-9]|[-+]?\.(?:inf|nan))/i.test(raw) || /^(?:null|true|false)$/i.test(raw)) {
    throw OUTSIDE;
  }
  return raw;
}
