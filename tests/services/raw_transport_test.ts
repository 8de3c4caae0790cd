import assert from "node:assert/strict";
import { proxyConfigured, rawFetch } from "../../src/services/raw_transport.ts";

/** A TCP server answering each request with `answers(i, requestText)`; counts connections. */
function server(answer: (i: number, request: string) => string | Uint8Array, closeAfter = false) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  let requests = 0;
  const received: string[] = [];
  (async () => {
    for await (const conn of listener) {
      connections++;
      (async () => {
        const buf = new Uint8Array(1 << 20);
        let text = "";
        try {
          for (;;) {
            const n = await conn.read(buf);
            if (n === null) break;
            text += new TextDecoder().decode(buf.subarray(0, n));
            const end = text.indexOf("\r\n\r\n");
            if (end < 0) continue;
            const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? 0);
            if (text.length < end + 4 + length) continue;
            received.push(text.slice(0, end + 4 + length));
            text = text.slice(end + 4 + length);
            const out = answer(requests++, received.at(-1)!);
            await conn.write(typeof out === "string" ? new TextEncoder().encode(out) : out);
            if (closeAfter) break;
          }
        } catch { /* client went away */ }
        try {
          conn.close();
        } catch { /* closed */ }
      })();
    }
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    close: () => listener.close(),
  };
}

Deno.test("raw PUT: the body goes as sent with its length; answers are read by length and reused", async () => {
  const s = server((i) => `HTTP/1.1 200 OK\r\nETag: "e${i}"\r\nContent-Length: 2\r\n\r\nok`);
  try {
    const body = new TextEncoder().encode("hello world");
    for (let i = 0; i < 3; i++) {
      const res = await rawFetch(`${s.url}/part/${i}?sig=x`, {
        method: "PUT",
        body,
        headers: { "x-a": "1" },
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("etag"), `"e${i}"`);
      assert.equal(await res.text(), "ok");
    }
    assert.match(s.received[0], /^PUT \/part\/0\?sig=x HTTP\/1\.1\r\n/);
    assert.match(s.received[0], /content-length: 11\r\n/);
    assert.match(s.received[0], /x-a: 1\r\n/);
    assert.ok(s.received[0].endsWith("\r\n\r\nhello world"));
    assert.equal(s.connections(), 1, "one kept-alive connection served the three requests");
  } finally {
    s.close();
  }
});

Deno.test("raw PUT: chunked answers, answers without a length, and 403 bodies are read whole", async () => {
  const s = server(
    (i) =>
      i === 0
        ? "HTTP/1.1 403 Forbidden\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<Erro\r\n3\r\nr/>\r\n0\r\n\r\n"
        : "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nuntil the end",
    true,
  );
  try {
    const a = await rawFetch(`${s.url}/x`, { method: "PUT", body: new Uint8Array(3) });
    assert.equal(a.status, 403);
    assert.equal(await a.text(), "<Error/>");
    const b = await rawFetch(`${s.url}/y`, { method: "PUT", body: new Uint8Array(3) });
    assert.equal(await b.text(), "until the end");
  } finally {
    s.close();
  }
});

Deno.test("raw PUT: a kept-alive connection the server closed is replaced transparently", async () => {
  const s = server(() => "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", true); // closes after each answer
  try {
    for (let i = 0; i < 3; i++) {
      const res = await rawFetch(`${s.url}/p`, { method: "PUT", body: new Uint8Array(10) });
      assert.equal(res.status, 200);
    }
    assert.equal(s.received.length, 3);
  } finally {
    s.close();
  }
});

Deno.test("raw PUT: an aborted request rejects with the signal's reason", async () => {
  const s = server(() => new Uint8Array(0)); // never answers
  try {
    const ctl = new AbortController();
    const p = rawFetch(`${s.url}/slow`, { method: "PUT", body: new Uint8Array(1), signal: ctl.signal });
    setTimeout(() => ctl.abort(new DOMException("stop", "AbortError")), 50);
    await assert.rejects(p, (e: Error) => e.name === "AbortError");
  } finally {
    s.close();
  }
});

Deno.test("a proxy variable sends transfers through fetch", () => {
  assert.equal(proxyConfigured({}), false);
  assert.equal(proxyConfigured({ HTTPS_PROXY: "http://proxy:3128" }), true);
  assert.equal(proxyConfigured({ all_proxy: "socks5://p" }), true);
  assert.equal(proxyConfigured({ HTTPS_PROXY: "" }), false);
});
