/** The raw stdio stream of `diazo serve`: nothing but JSON-RPC messages on stdout, also with --debug. */
import assert from "node:assert/strict";
import { assertNoSecrets } from "../e2e/harness.ts";
import { fixture, spawnServeStdio } from "./helpers.ts";

const LINES = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  "{this is not json",
  { foo: 1 },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "bucket_list", arguments: { limit: 5 } } },
  { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "no_such_tool", arguments: {} } },
  {
    jsonrpc: "2.0",
    id: 5,
    method: "tools/call",
    params: { name: "bucket_get", arguments: { bucket_key: "B!" } },
  },
  { jsonrpc: "2.0", id: 6, method: "ping" },
].map((l) => (typeof l === "string" ? l : JSON.stringify(l)) + "\n").join("");

for (const debug of [false, true]) {
  Deno.test(`serve${debug ? " --debug" : ""}: every stdout line is a JSON-RPC message; bad lines are answered, not fatal`, async () => {
    const fx = await fixture();
    try {
      const child = spawnServeStdio(fx, debug ? ["--debug"] : []);
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(LINES));
      await w.close(); // the end of stdin stops the server once the calls under way have answered
      const out = await child.output();
      const stdout = new TextDecoder().decode(out.stdout);
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      assert.ok(stdout.endsWith("\n"));
      const messages = stdout.trimEnd().split("\n").map((line) => {
        try {
          return JSON.parse(line);
        } catch {
          throw new Error(`stdout line is not JSON: ${line}\n--- stderr ---\n${stderr}`);
        }
      });
      for (const m of messages) {
        assert.equal(m.jsonrpc, "2.0", JSON.stringify(m));
        assert.ok("id" in m && ("result" in m || "error" in m), `not a response: ${JSON.stringify(m)}`);
      }
      const byId = new Map(messages.filter((m) => m.id !== null).map((m) => [m.id, m]));
      assert.deepEqual([...byId.keys()].sort(), [1, 2, 3, 4, 5, 6]);
      assert.deepEqual(messages.filter((m) => m.id === null).map((m) => m.error.code).sort((a, b) => a - b), [
        -32700,
        -32600,
      ]);
      assert.equal(byId.get(1).result.serverInfo.name, "diazo");
      assert.ok(byId.get(2).result.tools.length >= 14);
      assert.deepEqual(byId.get(3).result.structuredContent, { items: [], count: 0, has_more: false });
      assert.equal(byId.get(4).error.code, -32602);
      assert.equal(byId.get(5).result.isError, true);
      assert.deepEqual(byId.get(6).result, {});
      assert.match(stderr, /ignored a line that is not JSON/);
      if (debug) {
        assert.match(
          stderr,
          /^debug: > GET http:\/\/127\.0\.0\.1:\d+\/oss\/v2\/buckets/m,
          "HTTP log on stderr",
        );
        assert.match(stderr, /^debug: tool bucket_list: ok/m);
        assertNoSecrets({ code: out.code, stdout, stderr }, fx.env);
      } else {
        assert.doesNotMatch(stderr, /debug:/);
      }
    } finally {
      await fx.close();
    }
  });
}
