import assert from "node:assert/strict";
import { proxyConfigured, rawFetch } from "../../src/http/raw_transport.ts";
import { server } from "./_tcp_server.ts";

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

Deno.test("raw GET: no body and no length, the caller's headers in lower case; CR or LF in a header is refused", async () => {
  const s = server(() => "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
  try {
    const res = await rawFetch(`${s.url}/oss/v2/buckets?region=US`, {
      headers: { Accept: "application/json", Authorization: "Bearer t" },
    });
    assert.deepEqual(await res.json(), {});
    assert.match(
      s.received[0],
      /^GET \/oss\/v2\/buckets\?region=US HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\n/,
    );
    assert.match(s.received[0], /\r\naccept: application\/json\r\nauthorization: Bearer t\r\n\r\n$/);
    assert.doesNotMatch(s.received[0], /content-length/i);
    await assert.rejects(rawFetch(`${s.url}/x`, { headers: { "x-a": "1\r\nx-b: 2" } }), TypeError);
    assert.equal(s.received.length, 1, "the refused request never left");
  } finally {
    s.close();
  }
});

Deno.test("raw: interim answers (100, 103) are skipped; a gzip answer is decoded", async () => {
  const gz = new Uint8Array(
    await new Response(new Blob(['{"gz":true}']).stream().pipeThrough(new CompressionStream("gzip")))
      .arrayBuffer(),
  );
  const head = `HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${gz.length}\r\n\r\n`;
  const s = server((i) =>
    i === 0
      ? "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n" +
        "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok"
      : new Uint8Array([...new TextEncoder().encode(head), ...gz])
  );
  try {
    const a = await rawFetch(`${s.url}/a`, { method: "POST", body: "x" });
    assert.equal(a.status, 201);
    assert.equal(await a.text(), "ok");
    assert.deepEqual(await (await rawFetch(`${s.url}/b`)).json(), { gz: true });
  } finally {
    s.close();
  }
});

Deno.test("raw: a malformed length, chunk size or coding fails the request instead of reading garbage", async () => {
  const answers = [
    "HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\nabc",
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
    "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 3\r\n\r\nabc",
  ];
  const s = server((i) => answers[i], true);
  try {
    for (const why of [/content-length/, /chunk size/, /content encoding 'br'/]) {
      await assert.rejects(
        rawFetch(`${s.url}/x`),
        (e: Error) => e instanceof TypeError && why.test(e.message),
      );
    }
  } finally {
    s.close();
  }
});

Deno.test("raw: a POST the server took and dropped without an answer is never sent again", async () => {
  // A kept-alive connection; the server takes the POST, then drops the connection without answering.
  const s = server((_i, request) =>
    request.startsWith("POST") ? null : "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
  );
  try {
    assert.equal(await (await rawFetch(`${s.url}/a`)).text(), "ok");
    await assert.rejects(rawFetch(`${s.url}/b`, { method: "POST", body: "{}" }));
    assert.equal(
      s.received.filter((r) => r.startsWith("POST")).length,
      1,
      "sent once, not again on a new connection",
    );
    assert.equal(s.connections(), 1);
    assert.equal(await (await rawFetch(`${s.url}/c`)).text(), "ok", "the dropped connection left the pool");
    assert.equal(s.connections(), 2);
  } finally {
    s.close();
  }
});

Deno.test("raw: an HTTP/1.0 answer without keep-alive ends its connection; the POST after it goes on a new one", async () => {
  const s = server(() => "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", true);
  try {
    assert.equal(await (await rawFetch(`${s.url}/a`)).text(), "ok");
    const res = await rawFetch(`${s.url}/b`, { method: "POST", body: "{}" });
    assert.equal(await res.text(), "ok");
    assert.equal(s.connections(), 2);
  } finally {
    s.close();
  }
});

Deno.test("raw: answer heads as fetch reads them: a repeated length, a folded header, bare LF line ends", async () => {
  const answers = [
    "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok",
    "HTTP/1.1 200 OK\r\nX-A: one\r\n two: three\r\nContent-Length: 2\r\n\r\nok",
    "HTTP/1.1 200 OK\nX-B: 1\nContent-Length: 2\n\nok",
    "HTTP/1.1 200 OK\r\nContent-Length: 2, 3\r\n\r\nok",
  ];
  const s = server((i) => answers[i]);
  try {
    assert.equal(await (await rawFetch(`${s.url}/a`)).text(), "ok");
    const folded = await rawFetch(`${s.url}/b`);
    assert.equal(folded.headers.get("x-a"), "one two: three");
    assert.equal(folded.headers.get("two"), null, "a folded line is no header of its own");
    const lf = await rawFetch(`${s.url}/c`, { signal: AbortSignal.timeout(2000) });
    assert.deepEqual([lf.headers.get("x-b"), await lf.text()], ["1", "ok"]);
    await assert.rejects(rawFetch(`${s.url}/d`), /malformed content-length/);
    assert.equal(s.received.length, 4, "a malformed answer on a kept-alive connection is not asked again");
  } finally {
    s.close();
  }
});

Deno.test("raw: a host name whose first address refuses is sent by fetch, which tries every address", async () => {
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const real = globalThis.fetch;
  const asked: string[] = [];
  globalThis.fetch = (input: string | URL | Request) => {
    asked.push(String(input));
    return Promise.resolve(new Response("by fetch"));
  };
  try {
    const res = await rawFetch(`http://localhost:${port}/x`, { method: "POST", body: "{}" });
    assert.equal(await res.text(), "by fetch");
    assert.deepEqual(asked, [`http://localhost:${port}/x`]);
    await assert.rejects(rawFetch(`http://127.0.0.1:${port}/x`), "an address has nothing else to try");
    assert.equal(asked.length, 1);
  } finally {
    globalThis.fetch = real;
  }
});
