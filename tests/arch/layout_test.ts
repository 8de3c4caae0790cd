/**
 * ARCHITECTURE.md's rules hold: each room of src/ imports only the rooms it may, and no module takes part in
 * an import cycle except through a dynamic import (lazy family loading).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cycles, type Edge, importsOf, modules, roomOf } from "./import_graph.ts";

const SRC = path.resolve(fileURLToPath(new URL("../../src/", import.meta.url)));
const DOC = fileURLToPath(new URL("../../ARCHITECTURE.md", import.meta.url));

/** The rules of ARCHITECTURE.md: which rooms each room may import, statically and only dynamically. */
export interface Rules {
  /** Which rooms each room may import (besides itself). */
  allowed: Record<string, readonly string[]>;
  /** Rooms a room may import only by a dynamic import. */
  lazyOnly: Record<string, readonly string[]>;
  /** The modules whose dynamic imports load a family when it is used: they may close a cycle. */
  lazyLoaders: readonly string[];
}

/**
 * Reads the rules from the document's "Direction of dependencies": its table (room | may import | only
 * by dynamic import, each cell a list of `room`s) and its "Lazy loaders:" sentence.
 */
export function rulesOf(doc: string): Rules {
  const section = doc.split(/^## /m).find((s) => s.startsWith("Direction of dependencies"));
  if (!section) throw new Error("ARCHITECTURE.md has no section 'Direction of dependencies'");
  const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const allowed: Record<string, readonly string[]> = {};
  const lazyOnly: Record<string, readonly string[]> = {};
  for (const line of section.split("\n")) {
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    if (cells.length !== 3 || !/^`[^`]+`$/.test(cells[0])) continue;
    const [room] = names(cells[0]);
    allowed[room] = names(cells[1]);
    if (names(cells[2]).length > 0) lazyOnly[room] = names(cells[2]);
  }
  const loaders = /Lazy\s+loaders:((?:\s*`[^`]+`,?)+)/.exec(section)?.[1] ?? "";
  return { allowed, lazyOnly, lazyLoaders: names(loaders) };
}

const RULES = rulesOf(await Deno.readTextFile(DOC));

async function graph(): Promise<Edge[]> {
  const edges: Edge[] = [];
  for (const m of await modules(SRC)) edges.push(...importsOf(m, await Deno.readTextFile(path.join(SRC, m))));
  return edges;
}

/** The edges that break a rule, as readable lines. */
export function forbidden(edges: readonly Edge[], rules: Rules = RULES): string[] {
  const out: string[] = [];
  for (const e of edges) {
    const [a, b] = [roomOf(e.from), roomOf(e.to)];
    if (a === b) continue;
    if (rules.allowed[a]?.includes(b)) continue;
    if (e.dynamic && rules.lazyOnly[a]?.includes(b)) continue;
    out.push(`${e.from} -> ${e.to}${e.dynamic ? " (dynamic)" : ""}${e.typeOnly ? " (type)" : ""}`);
  }
  return out;
}

Deno.test("layout: every import of src/ follows the direction of dependencies (ARCHITECTURE.md)", async () => {
  const bad = forbidden(await graph());
  assert.deepEqual(bad, [], `forbidden imports:\n${bad.join("\n")}`);
});

Deno.test("layout: no import cycle in src/ other than lazy family loading", async () => {
  const found = cycles(await graph(), RULES.lazyLoaders);
  assert.deepEqual(found, [], `cycles:\n${found.map((c) => c.join(" <-> ")).join("\n")}`);
});

Deno.test("layout: ARCHITECTURE.md's table has one row per room of src/, names only rooms, and its lazy loaders exist", async () => {
  const mods = await modules(SRC);
  const rooms = [...new Set(mods.map(roomOf))].sort();
  assert.deepEqual(Object.keys(RULES.allowed).sort(), rooms, "rows of the table vs rooms of src/");
  const named = [...Object.values(RULES.allowed), ...Object.values(RULES.lazyOnly)].flat();
  assert.deepEqual(named.filter((r) => !rooms.includes(r)), [], "rooms named in the table that src/ lacks");
  assert.ok(RULES.lazyLoaders.length > 0, "the document names its lazy loaders");
  assert.deepEqual(RULES.lazyLoaders.filter((m) => !mods.includes(m)), [], "lazy loaders that src/ lacks");
});

Deno.test("layout: the rules are read from a document's table and sentence", () => {
  const doc = [
    "# X",
    "## Direction of dependencies",
    "| Room | May import | Only by dynamic import |",
    "| ---- | ---------- | ---------------------- |",
    "| `cli` | `ops`, `core` | `mcp` |",
    "| `core` |  |  |",
    "Lazy loaders: `main.ts`,",
    "`cli/families.ts`.",
    "## Next",
    "| `other` | `core` | |",
  ].join("\n");
  assert.deepEqual(rulesOf(doc), {
    allowed: { cli: ["ops", "core"], core: [] },
    lazyOnly: { cli: ["mcp"] },
    lazyLoaders: ["main.ts", "cli/families.ts"],
  });
});

Deno.test("layout: the checker sees a forbidden edge and a cycle when there is one", () => {
  const planted: Edge[] = [
    { from: "sandbox/a.ts", to: "http/b.ts", dynamic: false, typeOnly: false },
    { from: "front/x.ts", to: "front/y.ts", dynamic: false, typeOnly: false },
    { from: "front/y.ts", to: "front/x.ts", dynamic: false, typeOnly: false },
    { from: "front/z.ts", to: "front/x.ts", dynamic: true, typeOnly: false },
    { from: "front/x.ts", to: "front/z.ts", dynamic: false, typeOnly: false },
    { from: "front/s.ts", to: "sandbox/server.ts", dynamic: true, typeOnly: false },
    { from: "front/s.ts", to: "mcp/server.ts", dynamic: false, typeOnly: false },
  ];
  assert.deepEqual(forbidden(planted), ["sandbox/a.ts -> http/b.ts", "front/s.ts -> mcp/server.ts"]);
  assert.deepEqual(cycles(planted, ["front/families.ts"]), [["front/x.ts", "front/y.ts", "front/z.ts"]]);
  assert.deepEqual(cycles(planted, ["front/z.ts"]), [["front/x.ts", "front/y.ts"]]);
  assert.deepEqual(
    importsOf("front/a.ts", 'import type { X } from "../session/x.ts";\nconst m = await import("./b.ts");'),
    [
      { from: "front/a.ts", to: "session/x.ts", dynamic: false, typeOnly: true },
      { from: "front/a.ts", to: "front/b.ts", dynamic: true, typeOnly: false },
    ],
  );
});
