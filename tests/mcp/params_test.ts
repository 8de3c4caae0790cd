/**
 * A `tools/call` with malformed params is answered with JSON-RPC's -32602 Invalid params and a short
 * message (not -32603 with a validation dump), over stdio and HTTP; serving goes on.
 */
import assert from "node:assert/strict";
import { toolCallParamsProblem } from "../../src/families/serve/server.ts";
import { cliCommand } from "../e2e/harness.ts";
import { fixture, spawnServeStdio } from "./helpers.ts";

const INIT = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const BAD_CALLS = [
  { jsonrpc: "2.0", id: 1, method: "tools/call", params: {} },
  { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: 7, arguments: {} } },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "object_urn", arguments: "bucket=x" } },
  { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "object_urn", arguments: [1, 2] } },
];
const GOOD_CALL = {
  jsonrpc: "2.0",
  id: 5,
  method: "tools/call",
  params: { name: "object_urn", arguments: { bucket_key: "my-bucket", object_key: "a.rvt" } },
};

Deno.test("toolCallParamsProblem: names what is wrong; other methods and notifications pass", () => {
  assert.match(toolCallParamsProblem(BAD_CALLS[0])!, /params\.name/);
  assert.match(toolCallParamsProblem(BAD_CALLS[2])!, /params\.arguments must be an object/);
  assert.match(
    toolCallParamsProblem({ jsonrpc: "2.0", id: 9, method: "tools/call" })!,
    /params must be an object/,
  );
  assert.equal(toolCallParamsProblem(GOOD_CALL), undefined);
  assert.equal(
    toolCallParamsProblem({ jsonrpc: "2.0", id: 9, method: "tools/list", params: "x" }),
    undefined,
  );
  assert.equal(toolCallParamsProblem({ jsonrpc: "2.0", method: "tools/call", params: {} }), undefined);
});

Deno.test("serve (stdio): malformed tools/call params get -32602 with a one-line message; the next call works", async () => {
  const fx = await fixture();
  try {
    const child = spawnServeStdio(fx);
    const w = child.stdin.getWriter();
    const lines = [INIT, { jsonrpc: "2.0", method: "notifications/initialized" }, ...BAD_CALLS, GOOD_CALL];
    await w.write(new TextEncoder().encode(lines.map((l) => JSON.stringify(l) + "\n").join("")));
    await w.close();
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    const byId = new Map(
      new TextDecoder().decode(out.stdout).trimEnd().split("\n").map((l) => JSON.parse(l)).map((
        m,
      ) => [m.id, m]),
    );
    for (const id of [1, 2, 3, 4]) {
      const error = byId.get(id)?.error;
      assert.equal(error?.code, -32602, `id ${id}: ${JSON.stringify(byId.get(id))}`);
      assert.match(error.message, /^Invalid params: params(\.name|\.arguments)? /);
      assert.ok(!error.message.includes("\n") && error.message.length < 120, error.message);
    }
    assert.equal(byId.get(5)?.result?.structuredContent?.bucketKey, "my-bucket");
  } finally {
    await fx.close();
  }
});

Deno.test("serve (http): a tools/call whose arguments are not an object gets -32602", async () => {
  const fx = await fixture();
  const child = new Deno.Command(Deno.execPath(), {
    args: cliCommand(["serve", "--http", "--port", "0"]),
    env: fx.env,
    clearEnv: true,
    cwd: fx.home.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    let url: string | undefined;
    while (!url) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`serve --http ended: ${seen}`);
      seen += value;
      url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(seen)?.[1];
    }
    const post = (body: unknown) =>
      fetch(url!, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    await post(INIT);
    const answer = await post(BAD_CALLS[2]);
    assert.equal(answer.error?.code, -32602, JSON.stringify(answer));
    assert.match(answer.error.message, /^Invalid params: params\.arguments must be an object/);
    await reader.cancel();
  } finally {
    child.kill("SIGTERM");
    await child.output().catch(() => {});
    await fx.close();
  }
});
