/**
 * Start-up and the shipped form: the program's help ends quietly when its reader went away; the bundle
 * (what the release binary is compiled from, scripts/build.ts) starts without Node's module loader and
 * answers as the program run in process does; the token store is not probed again; the commands people
 * run most load no `node:` module before their request.
 */
import assert from "node:assert/strict";
import { runCli } from "../../src/front/root.ts";
import { bundle, lazyRequire } from "../../scripts/build.ts";
import { staticImports } from "../../scripts/regroup.ts";
import type { StoredToken } from "../../src/auth/token_store.ts";
import { openTokenStore } from "../../src/auth/token_open.ts";
import { importsOf } from "../arch/import_graph.ts";
import type { Keychain } from "../../src/platform/keychain.ts";
import { captureIo, RUN_PERMISSIONS, runProcess, withSandboxHome } from "./harness.ts";

Deno.test("a reader that went away: the program's help ends 141 and quiet", async () => {
  const closed = () => {
    const cap = captureIo();
    const stdout = {
      isTerminal: false,
      write: () => {
        throw new Deno.errors.BrokenPipe("Broken pipe (os error 32)");
      },
    };
    return { cap, io: { ...cap.io, stdout } };
  };
  for (const argv of [[], ["--help"], ["-h"]]) {
    const run = closed();
    const env = {
      DIAZO_CONFIG_DIR: "/nonexistent/diazo-config",
      DIAZO_STATE_DIR: "/nonexistent/diazo-state",
    };
    assert.equal(await runCli(argv, run.io, env, Deno.cwd()), 141, argv.join(" "));
    assert.equal(run.cap.stderr(), "", argv.join(" "));
  }
});

Deno.test("the bundle: no chunk imports node:module at start, and its --help is the program's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-split-" });
  try {
    const entry = await bundle(dir);
    const chunks = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".js"));
    assert.ok(chunks.length > 10, "code splitting made chunks");
    for (const c of chunks) {
      assert.doesNotMatch(await Deno.readTextFile(`${dir}/${c.name}`), /from "node:module"/, c.name);
    }
    // Regrouped (scripts/regroup.ts): before any command, a run opens the entry and at most three files.
    const front = chunks.find((c) => /^front-/.test(c.name))?.name;
    assert.ok(front, "the front door's file");
    const opened = new Set<string>();
    const walk = async (file: string) => {
      if (opened.has(file)) return;
      opened.add(file);
      for (const next of staticImports(await Deno.readTextFile(`${dir}/${file}`))) await walk(next);
    };
    await walk("diazo.js");
    await walk(front);
    assert.ok(opened.size <= 4, [...opened].join(" "));
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
    const inProcess = captureIo();
    assert.equal(await runCli(["--help"], inProcess.io, {}, Deno.cwd()), 0);
    assert.equal(new TextDecoder().decode(out.stdout), inProcess.stdout());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the bundle answers as the program run in process: lists, a failure, auth status, a download, help and a usage error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "diazo-split-" });
  try {
    const entry = await bundle(dir);
    await withSandboxHome(async (h) => {
      const fromBundle = (args: string[]) =>
        runProcess(
          Deno.execPath(),
          ["run", ...RUN_PERMISSIONS, "--no-config", "--unstable-lazy-dynamic-imports", entry, ...args],
          { env: h.env, cwd: h.home.cwd },
        );
      await Deno.writeTextFile(`${h.home.cwd}/part.obj`, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
      assert.equal((await h.run(["bucket", "create", "--key", "eager-bundle"])).code, 0);
      assert.equal((await h.run(["object", "upload", "eager-bundle", "part.obj"])).code, 0);
      // Each command line from the bundle, and the same line in process.
      for (
        const args of [
          ["bucket", "list", "--region", "US", "-o", "json", "--query", "[].bucketKey"],
          ["object", "list", "eager-bundle", "-o", "json", "--query", "[].[objectKey,size]"],
          ["object", "list", "no-such-bucket", "-o", "json"],
          ["auth", "status", "-o", "json", "--query", "app"],
          ["object", "download", "eager-bundle", "part.obj", "--out", "copy.obj"],
          ["issue", "list", "--help"],
          ["bucket", "create", "--key"],
          ["webhook", "events", "-o", "json", "--query", "length(@)"],
        ]
      ) {
        const bundled = await fromBundle(args);
        if (args.includes("--out")) {
          assert.equal(
            await Deno.readTextFile(`${h.home.cwd}/copy.obj`),
            await Deno.readTextFile(`${h.home.cwd}/part.obj`),
          );
          await Deno.remove(`${h.home.cwd}/copy.obj`);
        }
        const inProcess = await h.run(args, { cwd: h.home.cwd });
        assert.equal(bundled.code, inProcess.code, `${args.join(" ")}: ${bundled.stderr}`);
        assert.equal(bundled.stdout, inProcess.stdout, args.join(" "));
        assert.equal(bundled.stderr.split("\n")[0], inProcess.stderr.split("\n")[0], args.join(" "));
      }
    });
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

/**
 * A static import of a Node built-in or of an npm package (an `npm:` specifier or a bare name of
 * deno.json's import map): either starts Deno's Node layer.
 */
const NODE_OR_NPM_IMPORT =
  /^\s*(?:import|export)\s+(?!type\s)(?:[^"';]*?\sfrom\s+)?["']((?:node|npm):[^"']+|[^."'/][^"':]*)["']/gm;

/** The modules `root` (under src/) reaches by static imports, each with the node: or npm imports it makes. */
async function staticReach(root: string): Promise<{ modules: number; hits: string[] }> {
  const src = new URL("../../src/", import.meta.url);
  const seen = new Set<string>();
  const queue = [root];
  const hits: string[] = [];
  while (queue.length > 0) {
    const module = queue.shift()!;
    if (seen.has(module)) continue;
    seen.add(module);
    const text = await Deno.readTextFile(new URL(module, src));
    for (const m of text.matchAll(NODE_OR_NPM_IMPORT)) hits.push(`${module} -> ${m[1]}`);
    for (const e of importsOf(module, text)) if (!e.dynamic && !e.typeOnly) queue.push(e.to);
  }
  return { modules: seen.size, hits };
}

Deno.test("the reads of the start-up benchmark load no node: module before their request: the modules their runs load import none", async () => {
  const src = new URL("../../src/", import.meta.url);
  // What main.ts and the front door load for `bucket list`, `object list`, `auth status` and the other
  // reads of scripts/bench/startup.ts (their families and the verbs their runs import), and all they
  // import statically. A download's modules (node:path) load from the verbs that download.
  const seen = new Set<string>();
  const queue = [
    "main.ts",
    "front/root.ts",
    "command/io.ts",
    "front/update_notice.ts",
    "families/bucket/commands.ts",
    "families/object/commands.ts",
    "families/object/verbs.ts",
    "families/auth/commands.ts",
    "families/auth/status_text.ts",
    ...["translate", "dm", "issue", "webhook", "da", "admin", "api", "config"]
      .map((family) => `families/${family}/verbs.ts`),
  ];
  queue.push("config/store.ts", "auth/token_store.ts", "http/http.ts");
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

Deno.test("no command's declaration reaches a node: or npm module: the front door and every family the registry loads", async () => {
  const registry = await Deno.readTextFile(new URL("../../src/front/families.ts", import.meta.url));
  // Every module the registry's loaders import, as paths under src/ (front/families.ts is in src/front/).
  const loaded = [...registry.matchAll(/import\("(\.{1,2}\/[^"]+)"\)/g)]
    .map((m) => new URL(m[1], "file:///src/front/").pathname.slice("/src/".length));
  const roots = ["main.ts", "front/root.ts", "front/run_line.ts", ...new Set(loaded)];
  assert.ok(
    roots.includes("families/dm/commands.ts") && roots.includes("front/completions.ts"),
    roots.join(),
  );
  assert.ok(roots.length > 25, `the registry's families (${roots.length})`);
  const reaching: string[] = [];
  let walked = 0;
  for (const root of roots) {
    const { modules, hits } = await staticReach(root);
    walked += modules;
    if (hits.length > 0) reaching.push(`${root}: ${hits.join("; ")}`);
  }
  assert.ok(walked > 500, `the walks reached the declarations' modules (${walked})`);
  assert.deepEqual(reaching, [], "a declaration loads its verbs from its run (`await import(...)`)");
});
