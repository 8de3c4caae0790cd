import assert from "node:assert/strict";
import path from "node:path";
import { hexOf } from "../../src/core/bytes.ts";
import { DiazoError } from "../../src/core/errors.ts";
import { fetchToFile } from "../../src/transfer/download.ts";
import { createHttp } from "../../src/http/http.ts";
import { rawFetch } from "../../src/http/raw_transport.ts";

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

/** Serves `payload` at /f (Range requests answered 206) and its halves at /a and /b; records Range headers. */
function payloadServer(payload: Uint8Array<ArrayBuffer>) {
  const ranges: (string | null)[] = [];
  const half = payload.length / 2;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const p = new URL(req.url).pathname;
    if (p === "/a") return new Response(payload.slice(0, half));
    if (p === "/b") return new Response(payload.slice(half));
    const range = req.headers.get("range");
    ranges.push(range);
    const from = range ? Number(/bytes=(\d+)-/.exec(range)![1]) : 0;
    if (from === 0) return new Response(payload);
    return new Response(payload.slice(from), {
      status: 206,
      headers: { "content-range": `bytes ${from}-${payload.length - 1}/${payload.length}` },
    });
  });
  return { base: `http://127.0.0.1:${server.addr.port}`, ranges, close: () => server.shutdown() };
}

Deno.test("a streamed download by the raw transport: ranges joined, progress as bytes arrive, a part file continued", async () => {
  const payload = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 7) % 251);
  const sha1 = hexOf(await crypto.subtle.digest("SHA-1", payload));
  const s = payloadServer(payload);
  const dir = await Deno.makeTempDir();
  try {
    let streamed = 0;
    const http = createHttp({
      baseUrl: "http://127.0.0.1:1",
      timeoutMs: 5000,
      maxAttempts: 1,
      retryBaseMs: 1,
      rawFetch: (input, init) => (streamed++, rawFetch(input, init)),
      fetch: () => Promise.reject(new Error("fetch is not expected here")),
    });
    const expect = { expectedSize: payload.length, expectedSha1: sha1, label: "f" };
    const shown: number[] = [];
    const joined = await fetchToFile(http, {
      ...expect,
      urls: [`${s.base}/a`, `${s.base}/b`],
      target: path.join(dir, "joined.bin"),
      onProgress: (done) => shown.push(done),
    });
    assert.deepEqual([joined.size, joined.sha1, streamed], [payload.length, sha1, 2]);
    assert.deepEqual(await Deno.readFile(path.join(dir, "joined.bin")), payload);
    assert.equal(shown.at(-1), payload.length);
    assert.ok(shown.every((n, i) => i === 0 || n >= shown[i - 1]), "progress never goes back");

    // A part file of an earlier run for the same object: the rest is asked for with Range, and the
    // SHA-1 covers the kept bytes too.
    const target = path.join(dir, "resumed.bin");
    const part = path.join(dir, ".resumed.bin.diazo.part");
    await Deno.writeFile(part, payload.slice(0, 1_000_000));
    await Deno.writeTextFile(`${part}.json`, JSON.stringify({ size: payload.length, sha1 }));
    const resumed = await fetchToFile(http, { ...expect, urls: [`${s.base}/f`], target, resume: true });
    assert.deepEqual([resumed.sha1, resumed.resumedBytes], [sha1, 1_000_000]);
    assert.deepEqual(s.ranges, ["bytes=1000000-"]);
    assert.deepEqual(await Deno.readFile(target), payload);
    assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort(), [
      "joined.bin",
      "resumed.bin",
    ]);
  } finally {
    await s.close();
    await Deno.remove(dir, { recursive: true });
  }
});
