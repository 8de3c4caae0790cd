/**
 * ARCHITECTURE.md's rules hold: each room of src/ imports only the rooms it may, and no module takes part in
 * an import cycle except through a dynamic import (lazy family loading).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cycles, type Edge, importsOf, modules, roomOf } from "./import_graph.ts";

const SRC = path.resolve(fileURLToPath(new URL("../../src/", import.meta.url)));

/** Which rooms each room may import (besides itself). */
export const ALLOWED: Record<string, readonly string[]> = {
  main: ["cli", "core", "services", "platform", "config"],
  cli: ["ops", "config", "extend", "pipeline", "aps", "core", "platform"],
  mcp: ["ops", "aps", "core"],
  ops: ["services", "auth", "config", "generate", "aps", "core", "platform"],
  services: ["aps", "core", "platform"],
  auth: ["services", "platform", "aps", "core", "config"],
  config: ["aps", "core", "platform"],
  extend: ["config", "aps", "core", "platform"],
  pipeline: ["extend", "config", "aps", "core"],
  generate: ["core"],
  aps: ["core"],
  core: [],
  platform: [],
  sandbox: ["aps", "core"],
};

/** Edges allowed only as dynamic imports: the front door starts the tool server and the sandbox when asked. */
export const LAZY_ONLY: Record<string, readonly string[]> = {
  cli: ["mcp", "sandbox"],
};

/** The modules whose dynamic imports load a family when it is used: they may close a cycle. */
export const LAZY_LOADERS: readonly string[] = ["main.ts", "cli/families.ts"];

async function graph(): Promise<Edge[]> {
  const edges: Edge[] = [];
  for (const m of await modules(SRC)) edges.push(...importsOf(m, await Deno.readTextFile(path.join(SRC, m))));
  return edges;
}

/** The edges that break a rule, as readable lines. */
export function forbidden(edges: readonly Edge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    const [a, b] = [roomOf(e.from), roomOf(e.to)];
    if (a === b) continue;
    if (ALLOWED[a]?.includes(b)) continue;
    if (e.dynamic && LAZY_ONLY[a]?.includes(b)) continue;
    out.push(`${e.from} -> ${e.to}${e.dynamic ? " (dynamic)" : ""}${e.typeOnly ? " (type)" : ""}`);
  }
  return out;
}

Deno.test("layout: every import of src/ follows the direction of dependencies (ARCHITECTURE.md)", async () => {
  const bad = forbidden(await graph());
  assert.deepEqual(bad, [], `forbidden imports:\n${bad.join("\n")}`);
});

Deno.test("layout: no import cycle in src/ other than lazy family loading", async () => {
  const found = cycles(await graph(), LAZY_LOADERS);
  assert.deepEqual(found, [], `cycles:\n${found.map((c) => c.join(" <-> ")).join("\n")}`);
});

Deno.test("layout: the checker sees a forbidden edge and a cycle when there is one", () => {
  const planted: Edge[] = [
    { from: "sandbox/a.ts", to: "services/b.ts", dynamic: false, typeOnly: false },
    { from: "cli/x.ts", to: "cli/y.ts", dynamic: false, typeOnly: false },
    { from: "cli/y.ts", to: "cli/x.ts", dynamic: false, typeOnly: false },
    { from: "cli/z.ts", to: "cli/x.ts", dynamic: true, typeOnly: false },
    { from: "cli/x.ts", to: "cli/z.ts", dynamic: false, typeOnly: false },
    { from: "cli/s.ts", to: "sandbox/server.ts", dynamic: true, typeOnly: false },
    { from: "cli/s.ts", to: "mcp/server.ts", dynamic: false, typeOnly: false },
  ];
  assert.deepEqual(forbidden(planted), ["sandbox/a.ts -> services/b.ts", "cli/s.ts -> mcp/server.ts"]);
  assert.deepEqual(cycles(planted, ["cli/families.ts"]), [["cli/x.ts", "cli/y.ts", "cli/z.ts"]]);
  assert.deepEqual(cycles(planted, ["cli/z.ts"]), [["cli/x.ts", "cli/y.ts"]]);
  assert.deepEqual(
    importsOf("cli/a.ts", 'import type { X } from "../ops/x.ts";\nconst m = await import("./b.ts");'),
    [
      { from: "cli/a.ts", to: "ops/x.ts", dynamic: false, typeOnly: true },
      { from: "cli/a.ts", to: "cli/b.ts", dynamic: true, typeOnly: false },
    ],
  );
});
