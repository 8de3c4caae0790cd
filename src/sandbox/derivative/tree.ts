/**
 * The metadata views of a parsed model: the object tree and the flat property collection, with
 * object ids assigned as the platform does (1 is the root, the model itself).
 */

import { boundsText, type ParsedModel, type PropertyValue } from "./model.ts";

/** A node of the object tree. */
export interface TreeNode {
  objectid: number;
  name: string;
  /** Children; absent on leaves. */
  objects?: TreeNode[];
}

/** One entry of the property collection. */
export interface PropertyItem {
  objectid: number;
  name: string;
  externalId: string;
  properties: Record<string, PropertyValue | Record<string, PropertyValue>>;
}

/** Deeper nesting is flattened onto the root, keeping responses within JSON limits. */
const MAX_DEPTH = 64;

/** The object id of `model.objects[index]`. */
export function objectIdOf(index: number): number {
  return index + 2;
}

/** The name of the root object: the file name without its extension. */
export function rootName(model: ParsedModel): string {
  return model.fileName.replace(/^.*\//, "").replace(/\.[^.]*$/, "") || model.fileName;
}

/** Every object with its properties, root first, ordered by object id. */
export function propertyCollection(model: ParsedModel): PropertyItem[] {
  const name = rootName(model);
  const root: PropertyItem = {
    objectid: 1,
    name,
    externalId: "root",
    properties: {
      Name: name,
      "File Properties": { "File Name": model.fileName, "Format": model.format.toUpperCase() },
      "Model Totals": {
        ...model.totals,
        ...(model.bounds ? { "Bounding Box": boundsText(model.bounds) } : {}),
      },
    },
  };
  return [
    root,
    ...model.objects.map((o, i) => ({
      objectid: objectIdOf(i),
      name: o.name,
      externalId: o.externalId,
      properties: o.properties,
    })),
  ];
}

/** The whole object tree: one root node holding the objects by their parent links. */
export function objectTree(model: ParsedModel): TreeNode {
  const nodes: TreeNode[] = model.objects.map((o, i) => ({ objectid: objectIdOf(i), name: o.name }));
  const children = new Map<number, number[]>(); // parent index (-1: root) -> child indices
  model.objects.forEach((o, i) => {
    const p = o.parent !== undefined && o.parent >= 0 && o.parent < nodes.length && o.parent !== i
      ? o.parent
      : -1;
    const list = children.get(p);
    if (list) list.push(i);
    else children.set(p, [i]);
  });
  const root: TreeNode = { objectid: 1, name: rootName(model) };
  const placed = new Set<number>();
  const attach = (parent: TreeNode, kids: number[]) => {
    if (kids.length === 0) return;
    parent.objects ??= [];
    for (const k of kids) parent.objects.push(nodes[k]);
  };
  // Breadth first from the root; anything unreachable (a cycle of parents) or too deep hangs on the root.
  let level: number[] = children.get(-1) ?? [];
  level.forEach((k) => placed.add(k));
  attach(root, level);
  for (let depth = 1; level.length > 0; depth++) {
    const next: number[] = [];
    for (const i of level) {
      const kids = (children.get(i) ?? []).filter((k) => !placed.has(k));
      kids.forEach((k) => placed.add(k));
      if (depth < MAX_DEPTH) attach(nodes[i], kids);
      else attach(root, kids);
      for (const k of kids) next.push(k);
    }
    level = next;
  }
  attach(root, nodes.map((_, i) => i).filter((i) => !placed.has(i)));
  return root;
}

/** The subtree under `objectid` (only its direct children with `level` 1); undefined when absent. */
export function subtree(tree: TreeNode, objectid: number, level?: number): TreeNode | undefined {
  const stack = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.objectid === objectid) {
      if (level !== 1 || !node.objects) return node;
      return {
        ...node,
        objects: node.objects.map(({ objectid, name }) => ({ objectid, name })),
      };
    }
    if (node.objects) stack.push(...node.objects);
  }
  return undefined;
}
