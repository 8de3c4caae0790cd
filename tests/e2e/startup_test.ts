/**
 * The hot path (issue 18): `diazo --help` without commander prints exactly commander's help at any
 * width; the commands it serves parse as the tree would (and every other shape goes to the tree);
 * served commands print what the tree prints, and fail with the tree's errors; the split bundle starts
 * without Node's module loader.
 */
import assert from "node:assert/strict";
import { matchHot } from "../../src/front/hot.ts";
import { rootHelp } from "../../src/front/root_help.ts";
import { runCli, runCommandTree, stubProgram } from "../../src/front/root.ts";
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
  runProcess,
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
    ["object", "download", "bkt", "a.rvt", "--out", "out/", "--force", "--out", "x.rvt", "--resume"],
    ["-o", "json", "objects", "get", "bkt", "a.rvt", "--out=x"],
  ];
  for (const argv of served) assert.ok(matchHot(argv), argv.join(" "));
  const m = matchHot(["bucket", "list", "--region", "emea", "--limit", "3", "-y"])!;
  assert.deepEqual(m.command.path, ["bucket", "list"]);
  assert.deepEqual(m.options, { region: "EMEA", limit: 3 });
  assert.deepEqual(m.globals, { yes: true });
  assert.equal(matchHot(["object", "list", "bkt"])!.args[0], "bkt");
  const dl = matchHot(["-o", "json", "object", "download", "bkt", "a.rvt", "--out", "x/", "--force"])!;
  assert.deepEqual([dl.command.path, dl.args, dl.options, dl.globals], [
    ["object", "download"],
    ["bkt", ["a.rvt"]],
    { out: "x/", force: true },
    { output: "json" },
  ]);
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
    ["object", "download", "bkt"],
    ["object", "download", "bkt", "a", "b"],
    ["object", "download", "bkt", "a", "--prefix", "p/"],
    ["object", "download", "bkt", "a", "--out", "-"],
    ["object", "download", "bkt", "a", "--force=yes"],
    ["version"],
  ];
  for (const argv of left) assert.equal(matchHot(argv), undefined, argv.join(" "));
});

/** One command line run through both paths: argv, extra environment, files written for it (CONFIG/, CWD/). */
interface Row {
  argv: string[];
  env?: Record<string, string>;
  files?: Record<string, string>;
}

const rows = (...lines: string[][]): Row[] => lines.map((argv) => ({ argv }));

/**
 * The lines both paths must treat alike: globals in every form and place, repeats, `--`, unknown
 * flags, bad values, values like flags, --limit bounds, regions, object list options, aliases that
 * shadow or expand to a hot command, hooks, .env / profile / output resolution, the root's help.
 */
const BOTH_PATHS: Row[] = [
  ...rows([], ["--help"], ["-h"], ["bucket", "list"], ["bucket", "ls", "-o", "json"], [
    "-ojson",
    "oss",
    "list",
  ]),
  ...rows(["bucket", "list", "--output=json"], ["bucket", "list", "-ojson"], [
    "-o",
    "json",
    "bucket",
    "list",
    "-o",
    "table",
  ]),
  ...rows(["bucket", "list", "--profile", "x"], ["bucket", "list", "--profile="], [
    "--profile",
    "x",
    "auth",
    "status",
  ]),
  ...rows(["bucket", "list", "--query", "[].bucketKey"], ["bucket", "list", "--query=[0]", "-o", "json"]),
  ...rows(["bucket", "list", "--query", "[["], ["auth", "status", "--query", "[["], [
    "bucket",
    "list",
    "--query",
    "",
  ]),
  ...rows(["bucket", "list", "--quiet", "--quiet"], ["bucket", "list", "--no-color"], [
    "--non-interactive",
    "bucket",
    "ls",
  ]),
  ...rows(["bucket", "list", "-y", "-y"], ["bucket", "list", "--confirm"], ["-yojson", "bucket", "list"], [
    "--wait",
    "bucket",
    "list",
  ]),
  ...rows(["bucket", "list", "--timeout", "5"], ["bucket", "list", "--timeout=0"], [
    "bucket",
    "list",
    "--timeout",
    "abc",
  ]),
  ...rows(["--concurrency", "2", "bucket", "list"], ["--concurrency", "0", "bucket", "list"]),
  ...rows(["bucket", "list", "--", "x"], ["--", "bucket", "list"], ["bucket", "list", "--nope"], [
    "bucket",
    "list",
    "-x",
  ]),
  ...rows(["bucket", "list", "-o", "xml"], ["bucket", "list", "-o=json"], ["bucket", "list", "--output"], [
    "bucket",
    "list",
    "--quiet=1",
  ]),
  ...rows(["bucket", "list", "--output", "-ojson"], ["bucket", "list", "--profile", "--debug"], [
    "bucket",
    "list",
    "-V",
  ]),
  ...rows(["bucket", "list", "--limit", "0"], ["bucket", "list", "--limit", "1", "-o", "json"], [
    "bucket",
    "list",
    "--limit=1.5",
  ]),
  ...rows(["bucket", "list", "--limit", "-1"], [
    "bucket",
    "list",
    "--limit",
    "2",
    "--limit",
    "1",
    "-o",
    "json",
  ]),
  ...rows(["bucket", "list", "--region", "emea"], ["bucket", "list", "--region", "MARS"], [
    "oss",
    "ls",
    "--region=US",
  ]),
  ...rows(["bucket", "list", "--region", "EMEA", "--region", "US"], ["--region", "US", "bucket", "list"]),
  ...rows(["bucket", "--limit", "1", "list"], ["bucket", "list", "extra"], ["bucket", "List"], [
    "bucket",
    "list",
    "-",
  ]),
  ...rows(["object", "list", "hot-one", "--prefix", "a/", "--limit", "1"], [
    "object",
    "ls",
    "hot-one",
    "-o",
    "json",
  ]),
  ...rows(["object", "list", "hot-one", "--prefix", "-x"], ["object", "list", "hot-one", "--prefix=-x"]),
  ...rows(["object", "list", "hot-one", "--query", "[].objectKey"], ["object", "list", "nosuch-bkt"], [
    "object",
    "list",
    "Bad",
  ]),
  ...rows(["object", "list"], ["object", "list", "hot-one", "hot-two"], [
    "object",
    "--prefix",
    "a",
    "list",
    "hot-one",
  ]),
  // object download of one object: its own -o (--out) beside the global -o, files that exist, errors.
  ...rows(["object", "download", "hot-one", "s.txt", "--out", "out1.txt", "--force"], [
    "objects",
    "get",
    "hot-one",
    "s.txt",
    "--force",
  ]),
  ...rows(["-o", "json", "object", "download", "hot-one", "s.txt", "--out=o2.txt", "--force"], [
    "object",
    "download",
    "hot-one",
    "big.bin",
    "-o",
    "dl/",
    "--force",
    "--resume",
  ]),
  ...rows([
    "object",
    "download",
    "hot-one",
    "s.txt",
    "--out",
    "x.txt",
    "--out",
    "o3.txt",
    "--force",
    "--quiet",
  ]),
  ...rows(["object", "download", "hot-one", "nosuch.txt"], [
    "object",
    "download",
    "hot-one",
    "s.txt",
    "-o",
    "-",
  ], [
    "object",
    "download",
    "Bad Key",
    "s.txt",
  ]),
  // Several keys or --prefix (left to the tree, matchHot's test shows) print their elapsed time: not here.
  ...rows(["object", "download", "hot-one"]),
  {
    argv: ["object", "download", "hot-one", "s.txt", "--out", "exists.txt"],
    files: { "CWD/exists.txt": "mine" },
  },
  ...rows(["auth", "status"], ["auth", "status", "--scopes"], ["auth", "status", "--verbose", "-o", "json"]),
  ...rows(["auth", "status", "--scopes=yes"], ["auth", "status", "extra"], [
    "auth",
    "status",
    "--profile",
    "nope",
  ]),
  ...rows(["bucket", "--help"], ["bucket", "list", "--help"], ["help", "bucket", "list"]),
  // plugins.json: an alias named like a built-in (ignored, with a warning), aliases expanding to hot commands.
  ...rows(["bl", "-o", "json"], ["ol", "1"], ["bucket", "ls", "--no-hooks"], [
    "--no-hooks",
    "object",
    "list",
    "hot-one",
  ]),
  { argv: ["bucket", "list"], env: { DIAZO_NO_HOOKS: "1" } },
  { argv: ["object", "list", "hot-one"], env: { DIAZO_NO_HOOKS: "1" } },
  { argv: ["bucket", "list"], files: { "CONFIG/plugins.json": "{ broken" } },
  // Output, profile and credential sources: flag, environment, .env, config.json.
  { argv: ["bucket", "list"], env: { DIAZO_OUTPUT: "xml" } },
  { argv: ["bucket", "list", "-o", "json"], env: { DIAZO_OUTPUT: "xml" } },
  { argv: ["bucket", "list", "-o", "json"], env: { CI: "1" } },
  { argv: ["auth", "status"], env: { DIAZO_PROFILE: "nope" } },
  {
    argv: ["auth", "status", "-o", "json"],
    files: { "CWD/.env": "DIAZO_PROFILE=dot\nSVC_CLIENT_ID=fromdotenv\n" },
  },
  { argv: ["auth", "status"], files: { "CWD/.env": "SVC_CLIENT_ID=fromdotenv\n" } },
  { argv: ["bucket", "list", "-o", "json"], files: { "CONFIG/config.json": "{ broken" } },
  {
    argv: ["auth", "status", "-o", "json"],
    files: { "CONFIG/config.json": '{"profiles":{"w":{"client_id":"abc"}},"current":"w"}' },
  },
  {
    argv: ["auth", "status", "--profile", "w"],
    files: { "CONFIG/config.json": '{"profiles":{"w":{"client_id":"abc"}}}' },
  },
];

Deno.test("every line of the table: the hot path prints, fails and exits as the command tree, hooks and aliases alike", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    assert.equal((await diazo(["bucket", "create", "--key", "hot-one"], { env })).code, 0);
    await Deno.writeTextFile(`${home.cwd}/s.txt`, "small\n");
    await Deno.writeFile(`${home.cwd}/big.bin`, new Uint8Array(1536 * 1024).map((_, i) => i % 251));
    const up = await diazo(["object", "upload", "hot-one", "s.txt", "big.bin", "--batch"], {
      env,
      cwd: home.cwd,
    });
    assert.equal(up.code, 0, up.stderr);
    await Deno.mkdir(home.configDir, { recursive: true });
    await Deno.writeTextFile(
      `${home.configDir}/plugins.json`,
      JSON.stringify({
        aliases: { bl: "bucket list", bucket: "auth status", ol: "object list hot-one --limit $1" },
        hooks: {
          pre_object_list: ["env | grep ^DIAZO_HOOK | sort >&2"],
          pre_object_download: ["env | grep ^DIAZO_HOOK | sort >&2"],
          post_status: ["echo post $DIAZO_HOOK_NAME $DIAZO_EXIT_CODE >&2"],
        },
      }),
    );
    const tree = async (argv: string[], runEnv: Record<string, string>) => {
      const cap = captureIo();
      const code = await runCommandTree(argv, cap.io, runEnv, home.cwd);
      return { code, stdout: cap.stdout(), stderr: cap.stderr() };
    };
    const scopeLog = () => Deno.readTextFile(`${home.stateDir}/scope-usage.jsonl`).catch(() => "");
    for (const row of BOTH_PATHS) {
      const written: string[] = [];
      for (const [name, text] of Object.entries(row.files ?? {})) {
        const file = name.replace("CONFIG", home.configDir).replace("CWD", home.cwd);
        const before = await Deno.readTextFile(file).catch(() => undefined);
        await Deno.writeTextFile(file, text);
        written.push(file, before ?? "");
      }
      const runEnv = { ...env, ...row.env };
      const line = JSON.stringify(row);
      const logged = (await scopeLog()).length;
      const hot = await diazo(row.argv, { env: runEnv, cwd: home.cwd });
      const full = await tree(row.argv, runEnv);
      assert.deepEqual(hot, full, line);
      // The scope-usage record: the same line (but its time) from both runs, or none from either.
      const added = (await scopeLog()).slice(logged).split("\n").filter((l) => l !== "");
      assert.ok(added.length === 0 || added.length === 2, `${line}: ${added.length} scope lines`);
      if (added.length === 2) {
        const [a, b] = added.map((l) => l.replace(/"time":"[^"]*"/, ""));
        assert.equal(a, b, line);
      }
      for (let i = 0; i < written.length; i += 2) {
        if (written[i + 1] === "") await Deno.remove(written[i]);
        else await Deno.writeTextFile(written[i], written[i + 1]);
      }
    }
    const buckets = json<{ bucketKey: string }[]>(await diazo(["bucket", "list", "-o", "json"], { env }));
    assert.ok(buckets.some((b) => b.bucketKey === "hot-one"));
    // Bad input: the tree's error (a bad --query is checked before any request).
    const before = (await requestLog(sb.url, "/oss/v2/buckets")).length;
    const bad = await diazo(["bucket", "list", "--query", "[["], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error: /m);
    assert.equal((await requestLog(sb.url, "/oss/v2/buckets")).length, before, "no request sent");
  }));

Deno.test("a reader that went away: the root's help on the hot path ends 141 and quiet, as the tree's", async () => {
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
    const hot = closed();
    const full = closed();
    const env = {
      DIAZO_CONFIG_DIR: "/nonexistent/diazo-config",
      DIAZO_STATE_DIR: "/nonexistent/diazo-state",
    };
    assert.equal(await runCli(argv, hot.io, env, Deno.cwd()), 141, argv.join(" "));
    assert.equal(await runCommandTree(argv, full.io, env, Deno.cwd()), 141, argv.join(" "));
    assert.equal(hot.cap.stderr(), full.cap.stderr());
  }
});

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

Deno.test("the split bundle's fast start (its functions compiled eagerly) answers as the command tree does", async () => {
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
      // Each served command (and a failure of one) from the bundle, and the same line in process.
      for (
        const args of [
          ["bucket", "list", "--region", "US", "-o", "json", "--query", "[].bucketKey"],
          ["object", "list", "eager-bundle", "-o", "json", "--query", "[].[objectKey,size]"],
          ["object", "list", "no-such-bucket", "-o", "json"],
          ["auth", "status", "-o", "json", "--query", "app"],
          ["object", "download", "eager-bundle", "part.obj", "--out", "copy.obj"],
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

Deno.test("bucket list, object list and auth status load no node: module before their request: the modules their runs load import none", async () => {
  const src = new URL("../../src/", import.meta.url);
  // What main.ts, hot.ts and hot_actions.ts load for `bucket list`, `object list` and `auth status`
  // (the verbs' modules hot.ts preloads), and all they import statically.
  const seen = new Set<string>();
  const queue = [
    "front/hot.ts",
    "command/io.ts",
    "front/update_notice.ts",
    "front/hot_run.ts",
    "front/hot_actions.ts",
  ];
  queue.push(
    "families/bucket/verbs.ts",
    "families/object/verbs.ts",
    "families/auth/verbs.ts",
    "families/auth/status_text.ts",
  );
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
