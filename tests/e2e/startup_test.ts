/**
 * The hot path (issue 18): `diazo --help` without commander prints exactly commander's help at any
 * width; the commands it serves parse as the tree would (and every other shape goes to the tree);
 * served commands print what the tree prints, and fail with the tree's errors; the split bundle starts
 * without Node's module loader.
 */
import assert from "node:assert/strict";
import { matchHot } from "../../src/cli/hot.ts";
import { rootHelp } from "../../src/cli/root_help.ts";
import { runCommandTree, stubProgram } from "../../src/cli/root.ts";
import { bundle, lazyRequire } from "../../scripts/build.ts";
import { openTokenStore, type StoredToken } from "../../src/auth/token_store.ts";
import { importsOf } from "../arch/import_graph.ts";
import type { Keychain } from "../../src/platform/keychain.ts";
import {
  captureIo,
  diazo,
  json,
  requestLog,
  RUN_PERMISSIONS,
  sandboxEnv,
  withSandboxHome,
} from "./harness.ts";

Deno.test("root help without commander is commander's help, at 80, 50, 64, 120 and 200 columns", () => {
  for (const width of [undefined, 50, 64, 120, 200]) {
    const program = stubProgram(captureIo().io);
    program.configureOutput({ getOutHelpWidth: () => width as number });
    const theirs = program.helpInformation();
    assert.equal(rootHelp(width, false), theirs, `width ${width}`);
    let withExamples = "";
    program.configureOutput({
      writeOut: (s) => void (withExamples += s),
      getOutHelpWidth: () => width as number,
    });
    program.outputHelp();
    assert.equal(rootHelp(width, true), withExamples, `--help at width ${width}`);
  }
});

Deno.test("the hot path takes plain command lines of its commands and leaves every other shape to the tree", () => {
  const served = [
    ["bucket", "list"],
    ["bucket", "ls", "--region", "emea", "-o", "json"],
    ["-ojson", "oss", "list", "--limit=2", "--no-color"],
    ["--profile", "w", "object", "list", "my-bucket", "--prefix", "a/", "--query", "[].objectKey"],
    ["auth", "status", "--scopes", "--no-hooks", "--timeout", "5"],
  ];
  for (const argv of served) assert.ok(matchHot(argv), argv.join(" "));
  const m = matchHot(["bucket", "list", "--region", "emea", "--limit", "3", "-y"])!;
  assert.deepEqual(m.command.path, ["bucket", "list"]);
  assert.deepEqual(m.options, { region: "EMEA", limit: 3 });
  assert.deepEqual(m.globals, { yes: true });
  assert.equal(matchHot(["object", "list", "bkt"])!.args[0], "bkt");
  const left = [
    ["bucket"],
    ["bucket", "create", "--key", "x"],
    ["bucket", "list", "--help"],
    ["bucket", "list", "--region", "MARS"],
    ["bucket", "list", "--limit", "0"],
    ["bucket", "list", "extra"],
    ["bucket", "list", "--", "x"],
    ["bucket", "list", "-o", "xml"],
    ["bucket", "list", "--nope"],
    ["--region", "US", "bucket", "list"],
    ["object", "list"],
    ["object", "list", "Bad Key"],
    ["auth", "status", "--scopes=yes"],
    ["version"],
  ];
  for (const argv of left) assert.equal(matchHot(argv), undefined, argv.join(" "));
});

Deno.test("served commands print what the command tree prints, and bad input fails as in the tree", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    assert.equal((await diazo(["bucket", "create", "--key", "hot-one"], { env })).code, 0);
    const tree = async (argv: string[]) => {
      const cap = captureIo();
      const code = await runCommandTree(argv, cap.io, env, home.cwd);
      return { code, stdout: cap.stdout(), stderr: cap.stderr() };
    };
    for (
      const argv of [
        ["bucket", "list", "--region", "US", "-o", "json"],
        ["oss", "ls", "-o", "table", "--region", "us"],
        ["object", "list", "hot-one", "-o", "json"],
        ["auth", "status", "-o", "json", "--query", "profile"],
      ]
    ) {
      const hot = await diazo(argv, { env });
      const full = await tree(argv);
      assert.equal(hot.code, 0, hot.stderr);
      assert.equal(hot.stdout, full.stdout, argv.join(" "));
    }
    const buckets = json<{ bucketKey: string }[]>(await diazo(["bucket", "list", "-o", "json"], { env }));
    assert.ok(buckets.some((b) => b.bucketKey === "hot-one"));
    // Bad input: the tree's error (a bad --query is checked before any request).
    const before = (await requestLog(sb.url, "/oss/v2/buckets")).length;
    const bad = await diazo(["bucket", "list", "--query", "[["], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error: /m);
    assert.equal((await requestLog(sb.url, "/oss/v2/buckets")).length, before, "no request sent");
    const region = await diazo(["bucket", "list", "--region", "MARS"], { env });
    assert.equal(region.code, 2);
    assert.equal(region.stderr, (await tree(["bucket", "list", "--region", "MARS"])).stderr);
  }));

Deno.test("the split bundle: no chunk imports node:module at start, and its --help is the hot path's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-split-" });
  try {
    const entry = await bundle(dir);
    const chunks = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".js"));
    assert.ok(chunks.length > 10, "code splitting made chunks");
    for (const c of chunks) {
      assert.doesNotMatch(await Deno.readTextFile(`${dir}/${c.name}`), /from "node:module"/, c.name);
    }
    assert.equal(
      lazyRequire("x\n" + EAGER_PRELUDE + "\ny"),
      "x\nvar __require = (id) => globalThis.process.getBuiltinModule(id);\ny",
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...RUN_PERMISSIONS, "--no-config", "--unstable-lazy-dynamic-imports", entry, "--help"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.equal(new TextDecoder().decode(out.stdout), rootHelp(undefined, true));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const EAGER_PRELUDE =
  'import { createRequire as __deno_internal_createRequire } from "node:module";\nvar __require = __deno_internal_createRequire(import.meta.url);';

Deno.test("no keychain probe once the token file decided: marker and tokens.json there, the file store at once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-store-" });
  try {
    let probes = 0;
    const keychain = {
      name: "fake",
      get: () => (probes++, Promise.reject(new Error("no keychain here"))),
      set: () => Promise.resolve(),
      delete: () => Promise.resolve(false),
    };
    const opts = {
      configDir: `${dir}/config`,
      stateDir: `${dir}/state`,
      env: {},
      os: "linux",
      warn: () => {},
      keychainFor: () => keychain as unknown as Keychain,
    };
    const first = await openTokenStore(opts);
    assert.equal(first.status.kind, "file");
    assert.equal(probes, 1, "the first run probes and falls back");
    await first.store.put("default\nx", { access_token: "t", expires_at: 1 } as unknown as StoredToken);
    const next = await openTokenStore(opts);
    assert.equal(next.status.kind, "file");
    assert.equal(probes, 1, "a later run does not probe again");
    assert.match(next.status.reason, /OS keychain not available \(found on an earlier run/);
    await openTokenStore({ ...opts, env: { DIAZO_TOKEN_STORE: "keychain" } }).catch(() => {});
    assert.equal(probes, 2, "DIAZO_TOKEN_STORE=keychain asks again");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A static import of a Node built-in (a type-only one is erased): the first costs a run milliseconds. */
const NODE_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^"';]*?\sfrom\s+)?["']node:[^"']+["']/m;

Deno.test("bucket list loads no node: module before its request: the modules its run loads import none", async () => {
  const src = new URL("../../src/", import.meta.url);
  // What main.ts, hot.ts and hot_actions.ts load for `bucket list`, and all they import statically.
  const seen = new Set<string>();
  const queue = [
    "cli/hot.ts",
    "cli/io.ts",
    "services/update_notice.ts",
    "cli/hot_run.ts",
    "cli/hot_actions.ts",
  ];
  queue.push("ops/bucket.ts", "config/store.ts", "auth/token_store.ts", "services/http.ts");
  const withNode: string[] = [];
  while (queue.length > 0) {
    const module = queue.shift()!;
    if (seen.has(module)) continue;
    seen.add(module);
    const text = await Deno.readTextFile(new URL(module, src));
    if (NODE_IMPORT.test(text)) withNode.push(module);
    for (const e of importsOf(module, text)) if (!e.dynamic && !e.typeOnly) queue.push(e.to);
  }
  assert.ok(seen.size > 30, `the walk reached the run's modules (${seen.size})`);
  assert.deepEqual(withNode, [], "modules of the bucket list path importing node: statically");
});
