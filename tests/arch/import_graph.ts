/**
 * The import graph of src/: every relative import (static, type-only and dynamic) of every module,
 * read from the source text, for the layout test (ARCHITECTURE.md).
 */
import path from "node:path";

/** One import of one module. */
export interface Edge {
  from: string;
  to: string;
  /** `import("…")`: loaded when used. */
  dynamic: boolean;
  /** `import type` or `export type`: erased at run time. */
  typeOnly: boolean;
}

const STATIC = /^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?["'](\.{1,2}\/[^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/** Every .ts module below `root`, as paths relative to it with forward slashes. */
export async function modules(root: string, dir = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(path.join(root, dir))) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...await modules(root, rel));
    else if (e.name.endsWith(".ts")) out.push(rel);
  }
  return out.sort();
}

/** The relative imports of one module's source text, resolved to paths relative to the root. */
export function importsOf(from: string, text: string): Edge[] {
  const edges: Edge[] = [];
  const resolveSpec = (spec: string) => path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const m of text.matchAll(STATIC)) {
    edges.push({ from, to: resolveSpec(m[3]), dynamic: false, typeOnly: Boolean(m[2]) });
  }
  for (const m of text.matchAll(DYNAMIC)) {
    edges.push({ from, to: resolveSpec(m[1]), dynamic: true, typeOnly: false });
  }
  return edges;
}

/** The room of a module: its first folder, or the file itself at the top (main.ts). */
export function roomOf(module: string): string {
  const slash = module.indexOf("/");
  return slash < 0 ? module.replace(/\.ts$/, "") : module.slice(0, slash);
}

/**
 * The import cycles (Tarjan's strongly connected components of more than one module, or a self-loop),
 * leaving out the dynamic imports of `lazyLoaders` (the family table, the entry point): loading a
 * family when its name is typed is the one cycle allowed.
 */
export function cycles(edges: readonly Edge[], lazyLoaders: readonly string[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (e.dynamic && lazyLoaders.includes(e.from)) continue;
    if (!next.has(e.from)) next.set(e.from, []);
    next.get(e.from)!.push(e.to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (next.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return out;
}
