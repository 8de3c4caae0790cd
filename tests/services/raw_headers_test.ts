/**
 * Header values are bytes: the raw transport (whole and streamed answers) shows them exactly as
 * fetch does, one code unit per byte, whatever bytes the server sent. (The reason phrase differs by
 * design: fetch shows the status code's standard one, the raw transport the server's, read the same
 * way, for --debug's log.)
 */
import assert from "node:assert/strict";
import { rawFetch } from "../../src/http/raw_transport.ts";
import { byteStringOf } from "../../src/core/bytes.ts";
import { server } from "./_tcp_server.ts";

/** An answer whose header values hold a Latin-1 é, the UTF-8 é and a C1 byte. */
function answer(): Uint8Array {
  const enc = new TextEncoder();
  const parts = [
    enc.encode("HTTP/1.1 200 Fine"),
    new Uint8Array([0xe9]),
    enc.encode("\r\nx-latin1: caf"),
    new Uint8Array([0xe9]),
    enc.encode("\r\nx-utf8: caf"),
    new Uint8Array([0xc3, 0xa9]),
    enc.encode("\r\nx-c1: a"),
    new Uint8Array([0x80, 0x9f]),
    enc.encode("b\r\ncontent-length: 2\r\n\r\nok"),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), at += p.length;
  return out;
}

/** What a client shows of the answer's three headers. */
async function shown(res: Response) {
  const seen = {
    latin1: res.headers.get("x-latin1"),
    utf8: res.headers.get("x-utf8"),
    c1: res.headers.get("x-c1"),
  };
  assert.equal(await res.text(), "ok");
  return seen;
}

Deno.test("raw transport: header values read as fetch reads them, byte for byte", async () => {
  const s = server(() => answer(), true);
  try {
    const byFetch = await shown(await fetch(s.url));
    assert.equal(byFetch.latin1, "caf\u00e9", "fetch's own reading, the yardstick");
    assert.equal(byFetch.utf8, "caf\u00c3\u00a9");
    assert.deepEqual(await shown(await rawFetch(s.url)), byFetch);
    assert.equal(
      (await rawFetch(s.url)).statusText,
      "Fine\u00e9",
      "the server's phrase, its byte read as fetch would",
    );
  } finally {
    s.close();
  }
});

Deno.test("byteStringOf: one code unit per byte, also past one call's argument limit", () => {
  const bytes = new Uint8Array(20_000).map((_, i) => i & 0xff);
  const text = byteStringOf(bytes);
  assert.equal(text.length, bytes.length);
  assert.ok([...text].every((c, i) => c.charCodeAt(0) === bytes[i]));
});
