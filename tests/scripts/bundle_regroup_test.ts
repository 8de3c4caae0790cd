/**
 * scripts/bundle_regroup.ts on a small split bundle shaped like esbuild's: the hot path's chunks end
 * up in one file, a chunk shared with a lazily loaded module stays one instance (module identity),
 * and the program prints what it printed before the regrouping.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { regroupBundle, rootFiles } from "../../scripts/bundle_regroup.ts";

const FILES: Record<string, string> = {
  "diazo.js": [
    'import { VERSION } from "./chunk-V.js";',
    'const { hot } = await import("./hot-H.js");',
    'const { other } = await import("./other-O.js");',
    "console.log(VERSION, hot(), other());",
  ].join("\n"),
  "chunk-V.js": '// src/core/version.ts\nexport const VERSION = "1.0";\n',
  "hot-H.js": [
    'import { helper } from "./chunk-B.js";',
    'import { registry } from "./chunk-C.js";',
    "// src/front/hot.ts",
    'export function hot() { registry.push("hot"); return helper(); }',
  ].join("\n"),
  "chunk-B.js": '// src/core/helper.ts\nexport function helper() { return "helped"; }\n',
  "chunk-C.js": "// src/core/registry.ts\nexport const registry = [];\n",
  "other-O.js": [
    'import { registry } from "./chunk-C.js";',
    "// src/cli/other.ts",
    'export function other() { return registry.join(","); }',
  ].join("\n"),
};

async function run(entry: string): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-config", entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test("rootFiles finds the chunks holding a root by esbuild's module marker", () => {
  const files = new Map(Object.entries(FILES));
  assert.deepEqual(rootFiles(files, ["src/front/hot.ts"]), ["hot-H.js"]);
  assert.deepEqual(rootFiles(files, ["src/cli/hot"]), []);
});

Deno.test("regroupBundle puts the hot path's chunks in one file and keeps each module one instance", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-regroup-" });
  try {
    for (const [name, text] of Object.entries(FILES)) await Deno.writeTextFile(path.join(dir, name), text);
    const entry = path.join(dir, "diazo.js");
    const before = await run(entry);
    assert.equal(before, "1.0 helped hot\n");
    await assert.rejects(
      regroupBundle(dir, [["hot", ["src/front/hot.ts", "src/cli/gone.ts"]]]),
      /no chunk holds src\/cli\/gone.ts/,
    );
    await regroupBundle(dir, [["hot", ["src/front/hot.ts"]]]);
    assert.equal(await run(entry), before);
    const texts = [...Deno.readDirSync(dir)].map((e) => Deno.readTextFileSync(path.join(dir, e.name)));
    const holding = (marker: string) => texts.filter((t) => t.includes(`// ${marker}\n`)).length;
    const hotFile = texts.find((t) => t.includes("// src/front/hot.ts\n"))!;
    // The hot module and all it reaches statically share one file, even a module also shared with a
    // lazily loaded one (rollup alone would give it a chunk of its own); what the entry imports
    // statically stays out of it (a `--version` run loads no hot code).
    assert.ok(hotFile.includes("// src/core/helper.ts\n"), hotFile);
    assert.ok(hotFile.includes("// src/core/registry.ts\n"), hotFile);
    assert.ok(!hotFile.includes("// src/core/version.ts\n"), hotFile);
    for (
      const m of ["src/core/version.ts", "src/core/helper.ts", "src/core/registry.ts", "src/cli/other.ts"]
    ) {
      assert.equal(holding(m), 1, `${m} in exactly one file`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("regroupBundle folds a dynamic import's re-export file into its group and names the fast start's files", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-regroup-" });
  try {
    // As esbuild writes a dynamically imported module: a file that only re-exports from the chunk
    // holding its code.
    const files = {
      ...FILES,
      "diazo.js": FILES["diazo.js"].replace('import("./hot-H.js")', 'import("./hot-F.js")'),
      "hot-F.js": 'export { hot } from "./hot-H.js";\n',
    };
    for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(path.join(dir, name), text);
    const entry = path.join(dir, "diazo.js");
    const before = await run(entry);
    const fastStart = await regroupBundle(dir, [["hot", ["src/front/hot.ts"]]]);
    assert.equal(await run(entry), before);
    const texts = new Map(
      [...Deno.readDirSync(dir)].map((e) => [e.name, Deno.readTextFileSync(path.join(dir, e.name))]),
    );
    const [hotName, hotText] = [...texts].find(([, t]) => t.includes("// src/front/hot.ts\n"))!;
    // The entry imports the group's file itself: no file in between is read before the hot code.
    assert.ok(texts.get("diazo.js")!.includes(`import('./${hotName}')`), texts.get("diazo.js"));
    assert.ok(![...texts.values()].some((t) => /^export \{ hot\b/m.test(t) && !t.includes("// src/")));
    // The files build.ts compiles eagerly (bundle_eager.ts): the entry, what it imports, the group.
    const start = [...texts].find(([, t]) => t.includes("// src/core/version.ts\n"))![0];
    assert.deepEqual(fastStart.toSorted(), ["diazo.js", hotName, start].toSorted());
    assert.ok(hotText.includes("export function hot()") || /^function hot\(\)/m.test(hotText), hotText);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
