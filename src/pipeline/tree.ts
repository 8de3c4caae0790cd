/**
 * The small syntax tree pipeline validation reads: scalars, mappings and lists with their offsets.
 * Built by a line parser for the flat block style pipeline files use (about 10x the file in memory),
 * or converted from the `yaml` library's document for anything else (anchors, flow collections,
 * multi-line or escaped scalars, tags), which costs ~80x the file but knows all of YAML.
 */
import type { Node } from "yaml";

/** A scalar: its value as YAML's core schema resolves it, and where its source starts and ends. */
export interface TreeScalar {
  kind: "scalar";
  value: unknown;
  start: number;
  end: number;
}

/** One key and its value in a mapping. */
export interface TreePair {
  key: TreeNode | null;
  value: TreeNode | null;
}

/** A mapping. */
export interface TreeMap {
  kind: "map";
  items: TreePair[];
  start: number;
  end: number;
}

/** A list. */
export interface TreeSeq {
  kind: "seq";
  items: (TreeNode | null)[];
  start: number;
  end: number;
}

/** Anything else YAML has (an alias): only its place is used. */
export interface TreeOther {
  kind: "other";
  start: number;
  end: number;
}

/** A node of the tree. */
export type TreeNode = TreeScalar | TreeMap | TreeSeq | TreeOther;

/** The value of `key` in a mapping, or undefined. */
export function mapGet(map: TreeMap, key: string): TreeNode | null | undefined {
  for (const pair of map.items) {
    if (pair.key?.kind === "scalar" && pair.key.value === key) return pair.value;
  }
  return undefined;
}

type Yaml = typeof import("yaml");

/** Converts the `yaml` library's node (a composed document's contents) to the tree. */
export function fromYaml(yaml: Yaml, node: unknown): TreeNode | null {
  if (node === null || node === undefined) return null;
  const [start, end] = (node as Node).range ?? [0, 1];
  if (yaml.isScalar(node)) return { kind: "scalar", value: node.value, start, end };
  if (yaml.isMap(node)) {
    const items = node.items.map((p) => ({ key: fromYaml(yaml, p.key), value: fromYaml(yaml, p.value) }));
    return { kind: "map", items, start, end };
  }
  if (yaml.isSeq(node)) return { kind: "seq", items: node.items.map((n) => fromYaml(yaml, n)), start, end };
  return { kind: "other", start, end };
}
