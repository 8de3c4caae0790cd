/**
 * Answers the raw transport hands on as they come (raw_transport.ts with `stream`, raw_body.ts): read
 * off the connection only as asked for, framing and coding taken off on the way, the connection
 * reused only after a body read to its end, closed when a stream is cancelled or stalls.
 */
import assert from "node:assert/strict";
import { DiazoError } from "../../src/core/errors.ts";
import { deadline } from "../../src/core/deadline.ts";
import { createHttp } from "../../src/http/http.ts";
import { rawFetch } from "../../src/http/raw_transport.ts";
import { type BodyReader, bodyReader } from "../../src/http/stream_body.ts";
import { readAll } from "../../src/http/wire.ts";
import { gzipBomb } from "../robust/_bomb.ts";
import { put } from "../robust/_raw_server.ts";

const MiB = 1024 * 1024;

/**
 * A keep-alive TCP server whose answers are written by `answer(i, conn)` (requests without bodies);
 * it counts connections and notes when a client closed one (`closed`).
 */
function scripted(answer: (i: number, conn: Deno.Conn) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const state = { connections: 0, closed: 0, requests: 0 };
  (async () => {
    for await (const conn of listener) {
      state.connections++;
      (async () => {
        const buf = new Uint8Array(16 * 1024);
        let text = "";
        try {
          for (;;) {
            const n = await conn.read(buf);
            if (n === null) break;
            text += new TextDecoder().decode(buf.subarray(0, n));
            const end = text.indexOf("\r\n\r\n");
            if (end < 0) continue;
            text = text.slice(end + 4);
            await answer(state.requests++, conn);
          }
        } catch { /* the client went away */ }
        state.closed++;
        try {
          conn.close();
        } catch { /* closed */ }
      })();
    }
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  return { url: `http://127.0.0.1:${port}`, state, close: () => listener.close() };
}

/** The body of a streamed raw answer. */
async function streamOf(url: string, init: Parameters<typeof rawFetch>[1] = {}): Promise<BodyReader> {
  const res = await rawFetch(url, { ...init, stream: true });
  assert.equal(res.status, 200);
  return bodyReader(res);
}

/** Waits until `check` holds (a server's count catching up with a close), at most 2 s. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check());
}

Deno.test("raw stream: an endless answer is read as it comes, in bounded memory, and cancelled", async () => {
  const block = new Uint8Array(MiB).fill(120);
  const s = scripted(async (_i, conn) => {
    if (!await put(conn, "HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\n\r\n")) return;
    while (await put(conn, block)); // never ends: only a reader that streams gets anywhere
  });
  try {
    const body = await streamOf(`${s.url}/endless`);
    const before = Deno.memoryUsage().rss;
    let got = 0;
    while (got < 300 * MiB) got += (await body.read())!.length;
    const grew = (Deno.memoryUsage().rss - before) / MiB;
    assert.ok(grew < 150, `resident memory grew ${grew.toFixed(0)} MiB while 300 MiB went through`);
    await body.cancel();
    assert.equal(await body.read(), undefined, "a cancelled body reads as ended");
    await until(() => s.state.closed === 1);
  } finally {
    s.close();
  }
});

Deno.test("raw stream: a chunked answer is joined across reads, its trailers skipped, the connection reused", async () => {
  const chunks = ["a".repeat(70_000), "b", "c".repeat(300_000)];
  const s = scripted(async (_i, conn) => {
    await put(conn, "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n");
    for (const c of chunks) {
      // The size line, the data and its line end arrive in separate writes, split mid-way.
      await put(conn, `${c.length.toString(16)};ext=1\r\n`);
      await put(conn, c.slice(0, 7));
      await put(conn, `${c.slice(7)}\r\n`);
    }
    await put(conn, "0\r\nx-trailer: 1\r\n\r\n");
  });
  try {
    for (let i = 0; i < 2; i++) {
      const text = new TextDecoder().decode(await readAll(await streamOf(`${s.url}/c`)));
      assert.equal(text, chunks.join(""));
    }
    assert.equal(s.state.connections, 1, "a body read to its end leaves its connection for the next request");
  } finally {
    s.close();
  }
});

Deno.test("raw stream: a cancelled stream's connection is closed, never reused", async () => {
  const s = scripted(async (i, conn) => {
    const body = i === 0 ? "x".repeat(5 * MiB) : "done";
    await put(conn, `HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
  });
  try {
    const first = await streamOf(`${s.url}/big`);
    assert.ok((await first.read())!.length > 0);
    await first.cancel();
    const next = await streamOf(`${s.url}/small`);
    assert.equal(new TextDecoder().decode(await readAll(next)), "done");
    assert.equal(s.state.connections, 2, "the request after a cancelled stream went on a new connection");
    await until(() => s.state.closed >= 1);
  } finally {
    s.close();
  }
});

Deno.test("raw stream: an answer that ends before its length fails; an abort while streaming closes it", async () => {
  const s = scripted(async (i, conn) => {
    await put(conn, "HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n0123456789");
    if (i === 0) conn.close(); // 990 bytes short
  });
  try {
    const short = await streamOf(`${s.url}/short`);
    await assert.rejects(readAll(short), /closed in the middle of the answer/);
    const controller = new AbortController();
    const body = await streamOf(`${s.url}/held`, { signal: controller.signal });
    assert.equal((await body.read())!.length, 10);
    const pending = body.read();
    controller.abort(new Error("stopped by the caller"));
    await assert.rejects(pending, /stopped by the caller/);
  } finally {
    s.close();
  }
});

Deno.test("raw stream: the attempt's deadline holds until the head; then silence for the timeout fails", async () => {
  const s = scripted(async (i, conn) => {
    if (i === 0) return; // no answer at all
    await put(conn, "HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\nfirst bytes");
    await new Promise((r) => setTimeout(r, 400)); // longer than the timeout: the body is not done in time
    await put(conn, "x".repeat(100_000 - 11 - 10));
    // ...and 10 bytes never come: a stall after bytes arrived
  });
  const http = createHttp({ baseUrl: s.url, timeoutMs: 700, maxAttempts: 1, retryBaseMs: 1, rawFetch });
  try {
    const headless = await http.request({ path: "/none", responseType: "stream" }).catch((e) => e);
    assert.ok(headless instanceof DiazoError && headless.code === "timeout", String(headless));
    const started = performance.now();
    const res = await http.request<BodyReader>({ path: "/slow", responseType: "stream" });
    // Past the head the attempt's deadline no longer holds: bytes keep coming after it passed.
    const late = deadline(800);
    await new Promise<void>((r) => late.addEventListener("abort", () => r()));
    let got = 0;
    const err = await (async () => {
      for (let p = await res.data.read(); p; p = await res.data.read()) got += p.length;
    })().catch((e) => e);
    assert.equal(got, 100_000 - 10, "every byte sent arrived");
    assert.ok(err instanceof DiazoError, String(err));
    assert.match(err.message, /stalled: no data arrived for 0.7 s/);
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds < 10, `${seconds.toFixed(1)} s`);
    await until(() => s.state.closed >= 1);
  } finally {
    s.close();
  }
});

Deno.test("raw stream: a gzip answer is inflated as it is read; a bomb stops when the reader does", async () => {
  const text = JSON.stringify({ items: Array.from({ length: 5000 }, (_, i) => ({ i })) });
  const small = new Uint8Array(
    await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
  );
  const bomb = gzipBomb(1024 * MiB).body; // 6.7 MB that inflate to 1 GiB of zeros
  const s = scripted(async (i, conn) => {
    const body = i === 0 ? small : bomb;
    await put(conn, `HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: ${body.length}\r\n\r\n`);
    await put(conn, body);
  });
  try {
    assert.equal(new TextDecoder().decode(await readAll(await streamOf(`${s.url}/small`))), text);
    const body = await streamOf(`${s.url}/bomb`);
    const before = Deno.memoryUsage().rss;
    let got = 0;
    while (got < 64 * MiB) got += (await body.read())!.length;
    await body.cancel();
    const grew = (Deno.memoryUsage().rss - before) / MiB;
    assert.ok(grew < 100, `resident memory grew ${grew.toFixed(0)} MiB for 64 MiB read of a 1 GiB bomb`);
    assert.equal(s.state.connections, 1, "the bomb came on the connection the small answer left");
    await until(() => s.state.closed === 1);
  } finally {
    s.close();
  }
});
