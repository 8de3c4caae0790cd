import assert from "node:assert/strict";
import path from "node:path";
import { DiazoError } from "../../src/core/errors.ts";
import { fetchToFile } from "../../src/services/download.ts";
import { createHttp } from "../../src/services/http.ts";

/** Answers every GET with headers promising 1,000 bytes, sends 10 and hangs up. */
function brokenServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let requests = 0;
  (async () => {
    for await (const conn of listener) {
      requests++;
      const buf = new Uint8Array(4096);
      await conn.read(buf).catch(() => null);
      await conn.write(new TextEncoder().encode("HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n0123456789"))
        .catch(() => {});
      conn.close();
    }
  })();
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/f`,
    requests: () => requests,
    close: () => listener.close(),
  };
}

Deno.test("a download that keeps breaking off is tried three times, then a network error; no file is left", async () => {
  const s = brokenServer();
  const dir = await Deno.makeTempDir();
  try {
    const http = createHttp({
      baseUrl: "http://127.0.0.1:1",
      timeoutMs: 5000,
      maxAttempts: 1,
      retryBaseMs: 1,
    });
    const target = path.join(dir, "out.bin");
    await assert.rejects(fetchToFile(http, { urls: [s.url], target, label: "f" }), (e: unknown) => {
      assert.ok(e instanceof DiazoError);
      assert.equal(e.code, "network");
      assert.equal(e.exitCode, 5);
      return true;
    });
    assert.equal(s.requests(), 3);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "neither the target nor a temp file remains");
  } finally {
    s.close();
    await Deno.remove(dir, { recursive: true });
  }
});
