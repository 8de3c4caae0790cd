/**
 * The storage verbs in process (runCli against an in-process sandbox, tools through callTool): bucket
 * keys are checked once where input enters, before any request, with one error and one hint; files
 * are read from the run's cwd; a delete confirms in one line on a terminal.
 */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import { runCli } from "../../src/front/root.ts";
import { callTool } from "../../src/families/serve/server.ts";
import type { ToolContext } from "../../src/mcp/tool.ts";
import { BUCKET_TOOLS } from "../../src/families/bucket/tools.ts";
import { OBJECT_TOOLS } from "../../src/families/object/tools.ts";
import { assertUsageError, makeHome, requestLog, type RunResult, sandboxEnv } from "../e2e/harness.ts";
import { captureIo } from "../storage/_cli.ts";

Deno.test("a malformed bucket key fails object upload, bucket delete and object list once, before any request", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const env = sandboxEnv(home, sb.url);
    await Deno.writeTextFile(`${home.cwd}/model.obj`, "o model\n");
    const runs: [string[], RegExp][] = [
      [
        ["object", "upload", "Bad_Key", "model.obj"],
        /^error: invalid bucket key 'Bad_Key': it contains "BK"$/,
      ],
      [["bucket", "delete", "x", "--yes"], /^error: invalid bucket key 'x': it has 1 characters/],
      [["object", "list", "no spaces"], /^error: invalid bucket key 'no spaces': it contains " "$/],
    ];
    for (const [argv, message] of runs) {
      const cap = captureIo();
      const code = await runCli(argv, cap.io, env, home.cwd);
      const r: RunResult = { code, stdout: cap.out(), stderr: cap.err() };
      assertUsageError(r, message);
      assert.match(r.stderr.split("\n")[1], /^hint: Bucket keys use 3-128 characters/);
    }
    assert.deepEqual(await requestLog(sb.url), [], "no request reached the platform");
    assert.equal(await runCli(["object", "list", "good-key"], captureIo().io, env, home.cwd), 4);
    assert.notDeepEqual(await requestLog(sb.url), [], "the log does record requests");
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("bucket delete confirms in one line on a terminal, and answers the record elsewhere", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const env = sandboxEnv(home, sb.url);
    const run = async (argv: string[], terminal = false) => {
      const cap = captureIo(terminal);
      const code = await runCli(argv, cap.io, env, home.cwd);
      return { code, stdout: cap.out(), stderr: cap.err() };
    };
    await Deno.writeTextFile(`${home.cwd}/model.obj`, "o model\n");
    for (const key of ["ops-one", "ops-two"]) {
      assert.equal((await run(["bucket", "create", "--key", key])).code, 0);
    }
    // Relative names are read from the run's cwd (not the test process's) and reported as given.
    const one = await run(["object", "upload", "ops-one", "model.obj"]);
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stderr, /^Uploaded model\.obj to ops-one\/model\.obj \(8 B, 1 part\(s\)/m);
    const batch = await run([
      "object",
      "upload",
      "ops-one",
      "model.obj",
      "gone.obj",
      "--batch",
      "--prefix",
      "b/",
    ]);
    assert.equal(batch.code, 2, batch.stderr);
    assert.deepEqual(
      JSON.parse(batch.stdout).map((o: { file: string; status: string }) => [o.file, o.status]),
      [["model.obj", "ok"], ["gone.obj", "failed"]],
    );
    await run(["object", "delete", "ops-one", "b/model.obj", "--yes"]);

    const shown = await run(["bucket", "delete", "ops-one", "--yes"], true);
    assert.deepEqual([shown.code, shown.stdout], [0, "Deleted bucket ops-one (1 object)\n"]);

    const piped = await run(["bucket", "delete", "ops-two", "--yes"]);
    assert.equal(piped.code, 0, piped.stderr);
    assert.deepEqual(JSON.parse(piped.stdout), { bucketKey: "ops-two", deleted: true, objectsDeleted: 0 });
    assert.match(piped.stderr, /^Deleted bucket ops-two \(empty\)$/m);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

/** A tool context whose every use of the platform fails the test. */
function noRequests(): ToolContext & { asked: number } {
  const deps = {
    asked: 0,
    tools: [],
    cwd: Deno.cwd(),
    stateDir: Deno.cwd(),
    poll: {},
    debugEnabled: false,
    http() {
      deps.asked++;
      return Promise.reject(new Error("no request expected"));
    },
    settings: () => Promise.reject(new Error("no settings expected")),
    tokenStore: () => Promise.reject(new Error("no token store expected")),
    tokenStoreStatus: () => Promise.reject(new Error("no token store expected")),
    info() {},
    warn() {},
    debug() {},
    log() {},
  };
  return deps as unknown as ToolContext & { asked: number };
}

Deno.test("bucket_get and the object tools reject a malformed bucket key before asking for a client", async () => {
  const tools = new Map([...BUCKET_TOOLS, ...OBJECT_TOOLS].map((t) => [t.name, t]));
  const calls: [string, Record<string, unknown>][] = [
    ["bucket_get", { bucket_key: "Not_Valid!" }],
    ["bucket_delete", { bucket_key: "ab" }],
    ["object_list", { bucket_key: "UPPER" }],
    ["object_upload", { bucket_key: "UPPER", file: "model.obj" }],
    ["object_urn", { bucket_key: "a b c", object_key: "m.obj" }],
  ];
  for (const [name, args] of calls) {
    const ctx = noRequests();
    const result = await callTool(tools.get(name)!, args, ctx);
    assert.equal(result.isError, true, name);
    const [text] = result.content.map((c) => (c.type === "text" ? c.text : ""));
    assert.match(
      text,
      /^error: bucket_key: invalid bucket key '[^']*': .*\nhint: Bucket keys use 3-128 characters/,
      name,
    );
    assert.match(text, /\ncode: usage$/, name);
    assert.equal(ctx.asked, 0, `${name} asked for an HTTP client`);
  }
});
