/**
 * An answer `transfer-encoding: chunked` whose chunk-size line never ends: the read stops at a short
 * line limit (http/raw_transport.ts), each attempt within its deadline, in little memory.
 */
import assert from "node:assert/strict";
import { put, spawnDiazo, startRaw } from "./_raw_server.ts";

const MB = 1000 * 1000;

Deno.test("item 1: bucket list against an endless chunk-size line fails with one error line, within its timeout × attempts, under 100 MB", async () => {
  const line = new TextEncoder().encode("f".repeat(64 * 1024));
  const s = startRaw((hit, conn) => {
    if (!hit.target.startsWith("/oss/")) return undefined;
    return (async () => {
      if (
        !await put(
          conn,
          "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n",
        )
      ) return;
      // Hex digits with no line end, as fast as they are read, for at most a minute.
      for (const end = performance.now() + 60_000; performance.now() < end;) {
        if (!await put(conn, line)) return;
      }
    })();
  });
  try {
    const r = await spawnDiazo(["bucket", "list", "--region", "US", "--timeout", "5"], s.url);
    assert.equal(r.code, 5, r.stderr);
    assert.match(r.stderr, /^error: /m);
    assert.ok(r.seconds < 5 * 4 + 15, `${r.seconds.toFixed(1)} s`);
    assert.ok(r.peakMiB * 1024 * 1024 <= 100 * MB, `peak ${r.peakMiB.toFixed(0)} MiB`);
  } finally {
    s.close();
  }
});
