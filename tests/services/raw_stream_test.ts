/**
 * Streamed GETs over the raw transport (raw_stream.ts): each framing delivers exactly the body,
 * into the reader's own buffer; the connection goes back to the pool only after a whole body; a cut,
 * a cancel or an abort closes it; what it does not handle goes by fetch.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { rawStreamFetch } from "../../src/http/raw_stream.ts";
import { rawFetch } from "../../src/http/raw_transport.ts";
import { server } from "./_tcp_server.ts";

const enc = new TextEncoder();
const text = (res: Response) => res.text();

/** Reads `body` with a BYOB reader and a small buffer, as download.ts does with a large one. */
async function readByob(
  body: ReadableStream<Uint8Array>,
  size = 7,
): Promise<{ bytes: Uint8Array; reads: number }> {
  const reader = body.getReader({ mode: "byob" });
  const parts: number[] = [];
  let reads = 0;
  let buf = new Uint8Array(size);
  for (;;) {
    const { value, done } = await reader.read(buf);
    if (done) break;
    reads++;
    assert.ok(value.length <= size, "never more than the reader's buffer");
    parts.push(...value);
    buf = new Uint8Array(value.buffer);
  }
  return { bytes: new Uint8Array(parts), reads };
}

Deno.test("raw stream: a body by length arrives whole in the reader's buffers, and its connection is reused", async () => {
  const body = "0123456789".repeat(10);
  const s = server(() => `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nX-Id: 7\r\n\r\n${body}`);
  try {
    for (let i = 0; i < 3; i++) {
      const res = await rawStreamFetch(`${s.url}/obj?sig=1`, { headers: { range: "bytes=0-" } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("x-id"), "7");
      const got = await readByob(res.body!);
      assert.equal(new TextDecoder().decode(got.bytes), body);
      assert.ok(got.reads >= 100 / 7, "read in the reader's 7-byte pieces");
    }
    assert.match(s.received[0], /^GET \/obj\?sig=1 HTTP\/1\.1\r\n/);
    assert.match(s.received[0], /range: bytes=0-\r\n/);
    assert.doesNotMatch(s.received[0], /content-length/i, "a GET carries no body length");
    assert.equal(s.connections(), 1, "one kept-alive connection served the three downloads");
  } finally {
    s.close();
  }
});

Deno.test("raw stream: chunked bodies (extensions, trailers) and bodies ended by the connection", async () => {
  const s = server(
    (i) =>
      i === 0
        ? "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n1\r\n \r\nA\r\nworld-wide\r\n0\r\nX-Trailer: t\r\n\r\n"
        : "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end",
  );
  try {
    const chunked = await rawStreamFetch(`${s.url}/a`);
    assert.equal(new TextDecoder().decode((await readByob(chunked.body!, 3)).bytes), "hello world-wide");
    const delimited = await rawStreamFetch(`${s.url}/b`);
    assert.equal(await text(delimited), "until the end");
    assert.equal(s.connections(), 1, "the chunked answer's connection carried the next request");
    await rawStreamFetch(`${s.url}/c`).then((r) => r.body?.cancel(), () => {});
    assert.equal(s.connections(), 2, "a connection that ended its answer by closing is not reused");
  } finally {
    s.close();
  }
});

Deno.test("raw stream: a body cut short fails the read, and the connection is not reused", async () => {
  const s = server(
    (i) =>
      i === 0
        ? "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b"
        : "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
    true,
  );
  try {
    const res = await rawStreamFetch(`${s.url}/cut`);
    await assert.rejects(readByob(res.body!), /closed in the middle/);
    assert.equal(await text(await rawStreamFetch(`${s.url}/next`)), "ok");
    assert.equal(s.connections(), 2);
  } finally {
    s.close();
  }
});

Deno.test("raw stream: aborting while the body arrives closes the connection; a cancel does too", async () => {
  // The server sends a part of the body and then nothing: the reader waits until the abort.
  const s = server(() => "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nsome bytes");
  try {
    const controller = new AbortController();
    const res = await rawStreamFetch(`${s.url}/slow`, { signal: controller.signal });
    const reading = readByob(res.body!, 64);
    setTimeout(() => controller.abort(new Error("stop")), 50);
    await assert.rejects(reading);
    const cancelled = await rawStreamFetch(`${s.url}/slow`);
    await cancelled.body!.cancel();
    await rawStreamFetch(`${s.url}/slow`).then((r) => r.body!.cancel());
    assert.equal(
      s.connections(),
      3,
      "neither the aborted nor the cancelled connection went back to the pool",
    );
  } finally {
    s.close();
  }
});

Deno.test("raw stream: gzip is decoded as fetch does; an error answer's body is read as text", async () => {
  const zipped = gzipSync(enc.encode("plain text ".repeat(50)));
  const s = server((i) => {
    if (i === 1) return "HTTP/1.1 403 Forbidden\r\nContent-Length: 8\r\n\r\n<Error/>";
    const head = enc.encode(
      `HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${zipped.length}\r\n\r\n`,
    );
    const out = new Uint8Array(head.length + zipped.length);
    out.set(head);
    out.set(zipped, head.length);
    return out;
  });
  try {
    assert.equal(await text(await rawStreamFetch(`${s.url}/z`)), "plain text ".repeat(50));
    const denied = await rawStreamFetch(`${s.url}/d`);
    assert.equal(denied.status, 403);
    assert.equal(denied.ok, false);
    assert.equal(await denied.text(), "<Error/>");
  } finally {
    s.close();
  }
});

Deno.test("raw stream: a pooled connection the server closed is replaced before any answer; a POST goes by fetch", async () => {
  const s = server((i) => `HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n${i}!`, true);
  try {
    assert.equal(await text(await rawStreamFetch(`${s.url}/one`)), "0!");
    // The server closed that connection after its answer; the client's pooled copy is stale.
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(await text(await rawStreamFetch(`${s.url}/two`)), "1!");
    const posted = await rawStreamFetch(`${s.url}/p`, { method: "POST", body: "x" });
    assert.equal(await posted.text(), "2!");
    assert.match(s.received[2], /^POST \/p HTTP\/1\.1\r\n/);
  } finally {
    s.close();
  }
});

Deno.test("raw stream and raw fetch: a content coding other than gzip or deflate fails; the connection is not reused", async () => {
  const s = server((i) =>
    i % 2 === 0
      ? "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 4\r\n\r\nxxxx"
      : "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
  );
  try {
    await assert.rejects(() => rawStreamFetch(`${s.url}/br`), /unsupported content encoding 'br'/);
    assert.equal(await text(await rawStreamFetch(`${s.url}/next`)), "ok");
    assert.equal(s.connections(), 2, "the refused answer's connection was closed, not pooled");
    await assert.rejects(() => rawFetch(`${s.url}/br`), /unsupported content encoding 'br'/);
  } finally {
    s.close();
  }
});
