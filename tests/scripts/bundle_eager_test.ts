/**
 * scripts/bundle_eager.ts: a chunk's functions become parenthesized expressions (top-level
 * declarations hoisted, object methods properties), and the module behaves as before: calls before
 * the declaration, names, `this`, `super`, async and generator functions and methods, getters, class
 * methods, a function that reassigns its own name, exports.
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
  "const base = { hi() { return 'hi'; } };",
  "const o = { __proto__: base, n: 2, hi() { return super.hi() + '!'; }, twice() { return this.n * 2; },",
  "  async wait(x) { return x; }, *gen() { yield this.n; }, get g() { return this.n + 1; }, 'quoted-key'() { return 'q'; },",
  "  arrow: (x) => x + 1, fn: function (x) { return x - 1; } };",
  "class K { constructor() { this.v = 7; } m() { return [1, 2].map((i) => i * this.v); } }",
  "const methods = [o.hi(), o.twice(), await o.wait(5), [...o.gen()], o.g, o['quoted-key'](), o.arrow(1), o.fn(1),",
  "  new K().m(), o.twice.name, o.wait.name, o.gen.name, o['quoted-key'].name, o.arrow.name].join(' ');",
  "export { twice as t, early };",
  "console.log(early, names, [...counted()].join(''), await later(), swap(), swap(), globalThis.inBlock());",
  "console.log(methods);",
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

Deno.test("eagerFunctions keeps what a module does and parenthesizes its functions", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-eager-" });
  try {
    const before = await run(dir, MODULE);
    assert.equal(
      before,
      "42 twice,later,counted 12 later false swapped block\n" +
        "hi! 4 5 2 3 q 2 0 7,14 twice wait gen quoted-key arrow\n",
    );
    const eager = eagerFunctions(MODULE);
    assert.equal(await run(dir, eager), before);
    // Each top-level declaration is now a parenthesized expression placed right after the imports;
    // the one inside a block is left as it was.
    const lines = eager.split("\n");
    // Methods become parenthesized function properties, except one using super, a getter and a
    // class's; arrows and function expressions are parenthesized.
    assert.match(eager, /twice: \(function \(\) \{ return this\.n \* 2; \}\)/);
    assert.match(eager, /wait: \(async function \(x\)/);
    assert.match(eager, /gen: \(function\* \(\)/);
    assert.match(eager, /'quoted-key': \(function \(\)/);
    assert.match(eager, /hi\(\) \{ return super\.hi\(\)/);
    assert.match(eager, /get g\(\) \{/);
    assert.match(
      eager,
      /class K \{ constructor\(\) \{ this\.v = 7; \} m\(\) \{ return \[1, 2\]\.map\(\(\(i\) => i \* this\.v\)\)/,
    );
    assert.match(eager, /arrow: \(\(x\) => x \+ 1\), fn: \(function \(x\)/);
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

Deno.test("eagerFunctions leaves a chunk without functions unchanged", () => {
  const text = 'export { a } from "./x.js";\nconst b = { c: 1, d: [2] };\nexport { b };\n';
  assert.equal(eagerFunctions(text), text);
});
