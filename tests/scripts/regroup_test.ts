/**
 * The bundle's regrouping (scripts/regroup.ts): which of `deno bundle`'s chunks join the `start`,
 * `door` and `front` files, and a build that fails loudly when a chunk it looks for is gone.
 */
import assert from "node:assert/strict";
import { groupsOf, staticImports } from "../../scripts/regroup.ts";

/** A chunk that imports `deps` statically and `lazy` on demand. */
function chunk(deps: string[], lazy: string[] = []): string {
  return [
    ...deps.map((d, i) => (i % 2 ? `import "./${d}";` : `import {\n  x${i}\n} from "./${d}";`)),
    `import { join } from "node:path";`,
    ...lazy.map((d) => `const m = await import("./${d}");`),
    `export { y };`,
  ].join("\n");
}

Deno.test("staticImports: named and bare imports and re-exports in either quote, not dynamic ones nor node: modules", () => {
  const code =
    `import {\n  a,\n  b\n} from "./one.js";\nimport './two.js';\nexport { c } from "./three.js";\n` +
    `const x = await import("./lazy.js");\nimport { join } from "node:path";\n`;
  assert.deepEqual(staticImports(code), ["one.js", "two.js", "three.js"]);
});

Deno.test("groupsOf: main's static imports start every run; help, streams and notice are the door; the front door's own closure is the front", () => {
  const code = {
    "main.js": chunk(["version-A.js", "helpers-B.js"], [
      "root-R.js",
      "root_help-H.js",
      "io-I.js",
      "update_notice-U.js",
    ]),
    "version-A.js": chunk([]),
    "helpers-B.js": chunk([]),
    "root_help-H.js": chunk(["version-A.js", "text-T.js"]),
    "text-T.js": chunk([]),
    "io-I.js": chunk(["helpers-B.js"]),
    "update_notice-U.js": chunk([]),
    "root-R.js": chunk(["text-T.js", "parse-P.js", "http-Q.js"], ["bucket-F.js"]),
    "parse-P.js": chunk(["errors-E.js"]),
    "errors-E.js": chunk([]),
    "http-Q.js": chunk(["errors-E.js"]),
    "bucket-F.js": chunk(["pagination-G.js", "errors-E.js"]),
    "pagination-G.js": chunk([]),
  };
  const g = groupsOf(code);
  assert.deepEqual([...g.start].sort(), ["helpers-B.js", "version-A.js"]);
  assert.deepEqual([...g.door].sort(), ["io-I.js", "root_help-H.js", "text-T.js", "update_notice-U.js"]);
  assert.deepEqual([...g.front].sort(), ["errors-E.js", "http-Q.js", "parse-P.js", "root-R.js"]);
  // A family and what only it loads stay where rollup puts them.
  for (const set of [g.start, g.door, g.front]) {
    assert.ok(!set.has("bucket-F.js") && !set.has("pagination-G.js"));
  }
});

Deno.test("groupsOf: a front-door module that is renamed (its chunk gone or doubled) fails the build with its name", () => {
  const base = { "main.js": "", "root_help-H.js": "", "io-I.js": "", "update_notice-U.js": "" };
  assert.throws(() => groupsOf(base), /0 chunks for root\.ts/);
  assert.throws(
    () => groupsOf({ ...base, "root-A.js": "", "root-B.js": "" }),
    /2 chunks for root\.ts \(one expected\): was it renamed\?/,
  );
});
