/**
 * The benchmark measures what ships: `deno task compile` (the release workflow's build) compiles the
 * bundle that `deno task bench` runs, and the release smoke runs one command of every family from each
 * binary (scripts/smoke-families.sh, the list the bundle's self-containment test runs too).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { BUNDLE_ENTRY, compileArgs } from "../../scripts/build.ts";
import { FAMILIES } from "../../src/front/families.ts";
import { ROOT } from "../e2e/harness.ts";

const read = (file: string) => Deno.readTextFile(path.join(ROOT, file));

Deno.test("shipped form: the release compiles the bundle's entry, the one the benchmark runs", async () => {
  const entry = path.join("/stage", "bundle", BUNDLE_ENTRY);
  const args = compileArgs(entry, "x86_64-unknown-linux-gnu", "/out/diazo");
  assert.equal(args.at(-1), entry, "deno compile's entry is the bundle's");
  assert.ok(args.includes("--no-config"), "no project config: only the bundle is embedded");
  const build = await read("scripts/build.ts");
  assert.match(build, /const entry = await bundle\(path\.join\(stageDir, "bundle"\), stageDir\);/);
  assert.match(build, /await compile\(entry, t, opts\.outDir\)/);
  const deno = JSON.parse(await read("deno.json"));
  assert.match(deno.tasks.compile, /scripts\/build\.ts$/);
  const release = await read(".github/workflows/release.yml");
  assert.match(release, /deno task compile --all/, "the release builds with deno task compile");
  const bench = await read("scripts/bench/startup.ts");
  assert.match(bench, /import \{[^}]*\bbundle\b[^}]*\} from "\.\.\/build\.ts"/);
  assert.match(bench, /await bundle\(/, "the benchmark runs the bundle build.ts makes");
});

Deno.test("shipped form: the release smoke runs one command of every family of the registry from each binary", async () => {
  const release = await read(".github/workflows/release.yml");
  assert.match(release, /bash repo\/scripts\/smoke-families\.sh "\$BIN"/);
  const smoke = await read("scripts/smoke-families.sh");
  const checked = [...smoke.matchAll(/^check ([a-z-]+) /gm)].map((m) => m[1]);
  assert.deepEqual(checked.sort(), FAMILIES.map((f) => f.name).sort());
});
