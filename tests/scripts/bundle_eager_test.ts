/**
 * scripts/bundle_eager.ts: a chunk's top-level function declarations become hoisted parenthesized
 * expressions, and the module behaves as before: calls before the declaration, names, async and
 * generator functions, a function that reassigns its own name, exports.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { eagerFunctions } from "../../scripts/bundle_eager.ts";

const MODULE = [
  'import { helper } from "./helper.js";',
  "const early = twice(21);",
  "function twice(n) { return helper(n) * 2 / 2 * 2; }",
  "async function later() { return 'later'; }",
  "function* counted() { yield 1; yield 2; }",
  "function swap() { const was = swap; swap = () => 'swapped'; return was === swap; }",
  "if (true) { function inBlock() { return 'block'; } globalThis.inBlock = inBlock; }",
  "const names = [twice.name, later.name, counted.name].join(',');",
  "export { twice as t, early };",
  "console.log(early, names, [...counted()].join(''), await later(), swap(), swap(), globalThis.inBlock());",
].join("\n");

async function run(dir: string, text: string): Promise<string> {
  await Deno.writeTextFile(path.join(dir, "helper.js"), "export function helper(n) { return n; }\n");
  await Deno.writeTextFile(path.join(dir, "main.js"), text);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-config", path.join(dir, "main.js")],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test("eagerFunctions keeps what a module does and parenthesizes each top-level function", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-eager-" });
  try {
    const before = await run(dir, MODULE);
    assert.equal(before, "42 twice,later,counted 12 later false swapped block\n");
    const eager = eagerFunctions(MODULE);
    assert.equal(await run(dir, eager), before);
    // Each top-level declaration is now a parenthesized expression placed right after the imports;
    // the one inside a block is left as it was.
    const lines = eager.split("\n");
    assert.equal(lines[0], 'import { helper } from "./helper.js";');
    assert.match(lines[1], /^var twice = \(function \(n\) \{/);
    assert.match(lines[2], /^var later = \(async function \(\) \{/);
    assert.match(lines[3], /^var counted = \(function\* \(\) \{/);
    assert.match(eager, /if \(true\) \{ function inBlock\(\)/);
    assert.equal(eager.match(/^function /gm), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eagerFunctions leaves a chunk without top-level functions unchanged", () => {
  const text = 'export { a } from "./x.js";\nconst b = () => 1;\nexport { b };\n';
  assert.equal(eagerFunctions(text), text);
});
