/**
 * Each call bounded and independent: a hostile receiver that never ends a chunk-size line keeps one
 * `webhook_test` busy, and a `bucket_list` of the same session answers meanwhile, within 5 s.
 */
import assert from "node:assert/strict";
import type { CallToolResult } from "../../src/mcp/sdk.ts";
import { fixture, ok, startServe } from "./helpers.ts";

/** A loopback receiver that answers a chunked 200 whose first chunk-size line never ends. */
function endlessChunkLine(): { url: string; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  let open = true;
  (async () => {
    for await (const conn of listener) {
      conns.push(conn);
      (async () => {
        const head =
          "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";
        await conn.write(new TextEncoder().encode(head));
        const digits = new TextEncoder().encode("f".repeat(16 * 1024));
        while (open) {
          await conn.write(digits);
          await new Promise((r) => setTimeout(r, 5));
        }
      })().catch(() => {});
    }
  })().catch(() => {});
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close() {
      open = false;
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
    },
  };
}

Deno.test("independent: a webhook_test to a receiver that never ends its answer does not delay a bucket_list", async () => {
  const fx = await fixture();
  const hostile = endlessChunkLine();
  const serve = await startServe(fx.env, ["--toolsets", "storage,events"]);
  try {
    await ok(serve.client, "bucket_create", { bucket_key: "seat-calm" });
    const started = performance.now();
    const slow = serve.client.callTool({ name: "webhook_test", arguments: { url: hostile.url } }, undefined, {
      timeout: 120_000,
    }) as Promise<CallToolResult>;
    await new Promise((r) => setTimeout(r, 300));
    const t0 = performance.now();
    const listed = await ok(serve.client, "bucket_list", {});
    const took = performance.now() - t0;
    assert.ok(listed.items.some((b: { bucketKey: string }) => b.bucketKey === "seat-calm"));
    assert.ok(took < 5_000, `bucket_list took ${took.toFixed(0)} ms beside the hostile call`);
    const report = await slow;
    const ended = performance.now() - started;
    console.log(`bucket_list: ${took.toFixed(0)} ms; webhook_test ended after ${ended.toFixed(0)} ms`);
    // The hostile call ends too, bounded: not ok, or an error, never an endless wait.
    const value = report.structuredContent as { ok?: boolean } | undefined;
    assert.ok(report.isError || value?.ok === false, JSON.stringify(report).slice(0, 300));
  } finally {
    hostile.close();
    await serve.close();
    await fx.close();
  }
});
