/**
 * Source comments cite files in the repository (README.md, ARCHITECTURE.md, openapi/, a source file)
 * or state the reason themselves: a newcomer who clones the repo cannot follow a citation of a
 * document outside it or of an issue number.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { modules } from "./import_graph.ts";

const SRC = path.resolve(fileURLToPath(new URL("../../src/", import.meta.url)));

/** Citations of documents outside the repository, and of issue numbers. */
export const OUTSIDE = /DESIGN\.md|SPEC\.md|aps-api\.md|[Ii]ssue [0-9]+/;

/** The lines of `text` that cite something outside the repository, as `file:line: text`. */
export function outsideCitations(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) =>
    OUTSIDE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []
  );
}

Deno.test("citations: no line of src/ cites DESIGN.md, SPEC.md, aps-api.md or an issue number", async () => {
  const found: string[] = [];
  for (const m of await modules(SRC)) {
    found.push(...outsideCitations(m, await Deno.readTextFile(path.join(SRC, m))));
  }
  assert.deepEqual(found, [], `cite a file in the repo, or say the reason:\n${found.join("\n")}`);
});

Deno.test("citations: the check sees an outside citation and lets construction-cloud issues be", () => {
  const text = "/** Issues of a project (ACC Issues v1). */\n// see SPEC.md §4\n/** the fix of issue 14 */";
  assert.deepEqual(outsideCitations("a.ts", text), [
    "a.ts:2: // see SPEC.md §4",
    "a.ts:3: /** the fix of issue 14 */",
  ]);
});
