/**
 * scripts/bundle_eager.ts: a chunk's functions become parenthesized expressions (declarations
 * hoisted, object methods properties, arrows functions), and the module behaves as before: calls
 * before the declaration, names, `this`, `arguments`, `super`, async and generator functions and
 * methods, getters, class methods, a function that reassigns its own name, "use strict", exports.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { eagerFunctions } from "../../scripts/bundle_eager.ts";
import { ranFunctions } from "../../scripts/bundle_profile.ts";

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
  "const arrows = [((n) => n + 1)(1), (() => ({ a: 2 }))().a, ((x = 3, { y } = { y: 4 }, ...r) => x + y + r.length)(),",
  "  (async (v) => v)(5), (w => { const w2 = w * 2; return w2; })(3), (function () { return ((k) => this.n + k)(1); }).call({ n: 6 }),",
  "  (function () { return (() => arguments.length)(); })(1, 2, 3), ((f = (z) => z) => f(8))(),",
  "  ((a) => function named() { return a; })(9)(), ((a) => function named() { return a; })(9).name,",
  "  (x=>x+1)(10), (async x=>x)(11)];",
  "function outer(a) {",
  "  'use strict';",
  "  const early = inner(a);",
  "  function inner(b) { return deeper(b) + 1; function deeper(c) { return c * 10; } }",
  "  if (a) { function inIf() { return 'if'; } }",
  "  async function* agen() { yield early; }",
  "  return [early, inner.name, deeper2(), agen.name];",
  "  function deeper2() { return 'd2'; }",
  "}",
  "const outerOut = [...outer(2), (() => { function z() { return 'z'; } return z(); })()].join(' ');",
  "export { twice as t, early };",
  "console.log(early, names, [...counted()].join(''), await later(), swap(), swap(), globalThis.inBlock());",
  "console.log(methods);",
  "console.log((await Promise.all(arrows)).join(' '), outerOut);",
].join("\n");

async function run(dir: string, text: string, coverage?: string): Promise<string> {
  await Deno.writeTextFile(path.join(dir, "helper.js"), "export function helper(n) { return n; }\n");
  await Deno.writeTextFile(path.join(dir, "main.js"), text);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-config", ...(coverage ? [`--coverage=${coverage}`] : []), path.join(dir, "main.js")],
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
        "hi! 4 5 2 3 q 2 0 7,14 twice wait gen quoted-key arrow\n" +
        "2 2 7 5 6 7 3 8 9 named 11 11 21 inner d2 agen z\n",
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
    // Arrows become function expressions, except those reading their own `this` or `arguments`
    // (and one whose parameters hold a function, left an arrow, parenthesized).
    assert.match(eager, /arrow: \(function \(x\) \{ return x \+ 1; \}\), fn: \(function \(x\)/);
    assert.match(eager, /\(function \(\) \{ return \(\{ a: 2 \}\); \}\)\)\(\)/);
    assert.match(eager, /\(async function \(v\) \{ return v; \}\)\)\(5\)/);
    assert.match(eager, /\(function \(w\) \{ const w2/);
    assert.match(eager, /\(\(k\) => this\.n \+ k\)/);
    assert.match(eager, /\(\(\) => arguments\.length\)/);
    assert.match(eager, /\(\(f = \(function \(z\) \{ return z; \}\)\) => f\(8\)\)/);
    // Declarations inside a function's body move to its start, after "use strict"; in a block they stay.
    assert.match(eager, /'use strict';\nvar inner = \(function \(b\) \{\nvar deeper = \(function \(c\)/);
    assert.match(eager, /var deeper2 = \(function \(\)/);
    assert.match(eager, /var agen = \(async function\* \(\)/);
    assert.match(eager, /if \(a\) \{ function inIf\(\)/);
    assert.match(eager, /\(function \(\) \{\nvar z = \(function \(\) \{ return 'z'; \}\);/);
    assert.equal(lines[0], 'import { helper } from "./helper.js";');
    assert.match(lines[1], /^var twice = \(function \(n\) \{/);
    assert.match(lines[2], /^var later = \(async function \(\) \{/);
    assert.match(lines[3], /^var counted = \(function\* \(\) \{/);
    assert.match(eager, /if \(true\) \{ function inBlock\(\)/);
    assert.equal(eager.match(/^\s*(async )?function\*? [\w$]+\(/gm), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eagerFunctions leaves a chunk without functions unchanged", () => {
  const text = 'export { a } from "./x.js";\nconst b = { c: 1, d: [2] };\nexport { b };\n';
  assert.equal(eagerFunctions(text), text);
});

Deno.test("with a profile, eagerFunctions marks only the functions that ran, and the module behaves as before", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-eager-" });
  try {
    const module = [
      MODULE,
      "function unused(n) { return n + 1; }",
      "function usedLate() { return 'late'; }",
      "const neverCalled = (x) => x * 3;",
      "const o2 = { idle() { return 0; }, busy() { return usedLate(); } };",
      "console.log(o2.busy(), typeof unused, typeof neverCalled);",
    ].join("\n");
    const coverage = path.join(dir, "coverage");
    const before = await run(dir, module, coverage);
    const ran = ranFunctions(coverage).get("main.js")!;
    assert.ok(ran.size > 10, `${ran.size} functions ran`);
    const eager = eagerFunctions(module, ran);
    assert.equal(await run(dir, eager), before);
    // What ran is marked; what never ran stays as it was.
    assert.match(eager, /^var twice = \(function \(n\)/m);
    assert.match(eager, /^var usedLate = \(function \(\)/m);
    assert.match(eager, /busy: \(function \(\)/);
    assert.match(eager, /^function unused\(n\) \{/m);
    assert.match(eager, /const neverCalled = \(x\) => x \* 3;/);
    assert.match(eager, /idle\(\) \{ return 0; \}/);
    assert.doesNotMatch(eager, /\/\*eager\*\//);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
