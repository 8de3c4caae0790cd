/**
 * The Http client's two transports: the raw HTTP/1.1 one (raw_transport.ts) for every request whose
 * body fits in memory, its answer read whole or streamed, fetch for streamed bodies and when the raw
 * one is not configured.
 */
import assert from "node:assert/strict";
import { DiazoError } from "../../src/core/errors.ts";
import { createHttp, type HttpConfig } from "../../src/http/http.ts";
import { rawFetch } from "../../src/http/raw_transport.ts";
import type { BodyReader } from "../../src/http/stream_body.ts";
import { readAll } from "../../src/http/wire.ts";
import { json, withServer } from "./_server.ts";

/** A client with both transports, counting the requests each one sends. */
function counted(baseUrl: string, extra: Partial<HttpConfig> = {}) {
  const sent = { raw: 0, fetch: 0 };
  const http = createHttp({
    baseUrl,
    timeoutMs: 2000,
    maxAttempts: 3,
    retryBaseMs: 1,
    sleep: () => Promise.resolve(),
    random: () => 0,
    token: () => Promise.resolve("tok-1"),
    fetch: (input, init) => (sent.fetch++, fetch(input, init)),
    rawFetch: (input, init) => (sent.raw++, rawFetch(input, init)),
    ...extra,
  });
  return { http, sent };
}

Deno.test("raw transport: every answer, streamed ones too, and every body but a streamed one; fetch for that", async () => {
  await withServer((req) => {
    const p = new URL(req.url).pathname;
    if (p === "/empty") return new Response(null, { status: 204 });
    if (p === "/json") return json({ a: 1 }, 200, { "x-id": "7" });
    return new Response("héllo", { headers: { "content-type": "text/plain" } });
  }, async (base, seen) => {
    const { http, sent } = counted(base);
    const got = await http.request<{ a: number }>({ path: "/json", method: "POST", json: { b: 2 } });
    assert.deepEqual(got.data, { a: 1 });
    assert.equal(got.headers.get("X-Id"), "7");
    assert.equal(seen[0].headers.get("authorization"), "Bearer tok-1");
    assert.equal(seen[0].headers.get("content-type"), "application/json");
    assert.equal(seen[0].body, '{"b":2}');
    assert.equal((await http.request({ path: "/t", responseType: "text" })).data, "héllo");
    const bytes = await http.request<Uint8Array>({ path: "/t", responseType: "bytes" });
    assert.deepEqual(bytes.data, new TextEncoder().encode("héllo"));
    assert.equal((await http.request({ path: "/t", responseType: "none" })).data, undefined);
    assert.equal((await http.request({ path: "/empty" })).data, undefined);
    assert.equal(
      (await http.request({ path: "/t", method: "PUT", body: "x", responseType: "text" })).data,
      "héllo",
    );
    assert.deepEqual(sent, { raw: 6, fetch: 0 });
    const stream = await http.request<BodyReader>({ path: "/t", responseType: "stream" });
    assert.equal(new TextDecoder().decode(await readAll(stream.data)), "héllo");
    assert.deepEqual(sent, { raw: 7, fetch: 0 }, "a streamed answer goes by the raw transport");
    await http.request({
      path: "/t",
      method: "PUT",
      bodyStream: () => new Blob(["s"]).stream(),
      responseType: "none",
    });
    await http.request({ path: "/json", transport: "fetch" });
    assert.deepEqual(
      sent,
      { raw: 7, fetch: 2 },
      "a streamed body and `transport: fetch` go by fetch",
    );
    assert.equal(seen.at(-2)!.body, "s");
  });
});

Deno.test("a streamed answer goes by the raw transport, its redirect too, and a stream's error answer is read", async () => {
  await withServer((req) => {
    const p = new URL(req.url).pathname;
    if (p === "/moved") return new Response(null, { status: 307, headers: { location: "/file" } });
    if (p === "/gone") return json({ reason: "no such object" }, 404);
    return new Response("x".repeat(300_000));
  }, async (base) => {
    const { http, sent } = counted(base);
    const got = await http.request<BodyReader>({ path: "/file", responseType: "stream" });
    assert.equal((await readAll(got.data)).length, 300_000);
    assert.deepEqual([sent.raw, sent.fetch], [1, 0]);
    const moved = await http.request<BodyReader>({ path: "/moved", responseType: "stream" });
    assert.equal((await readAll(moved.data)).length, 300_000);
    assert.deepEqual([sent.raw, sent.fetch], [3, 0], "the redirect's next hop went by the raw transport");
    await assert.rejects(
      http.request({ path: "/gone", responseType: "stream" }),
      (e) => e instanceof DiazoError && e.status === 404,
    );
  });
});

Deno.test("raw transport: a redirect is followed from its Location, without sending the request again", async () => {
  await withServer((req) => {
    const p = new URL(req.url).pathname;
    return p === "/old"
      ? new Response(null, { status: 302, headers: { location: "/new" } })
      : json({ moved: true });
  }, async (base, seen) => {
    const { http, sent } = counted(base);
    const res = await http.request<{ moved: boolean }>({ path: "/old" });
    assert.deepEqual(res.data, { moved: true });
    assert.deepEqual(sent, { raw: 2, fetch: 0 });
    assert.deepEqual(seen.map((s) => s.url.pathname), ["/old", "/new"]);
  });
});

Deno.test("raw transport: a POST answered 303 is acted on once; its Location is fetched by GET", async () => {
  await withServer((req) => {
    const p = new URL(req.url).pathname;
    return p === "/jobs"
      ? new Response(null, { status: 303, headers: { location: "/jobs/7" } })
      : json({ id: 7 });
  }, async (base, seen) => {
    const { http } = counted(base);
    const res = await http.request<{ id: number }>({ path: "/jobs", method: "POST", json: { a: 1 } });
    assert.deepEqual(res.data, { id: 7 });
    assert.deepEqual(seen.map((s) => `${s.method} ${s.url.pathname}`), ["POST /jobs", "GET /jobs/7"]);
    assert.equal(seen[1].headers.get("content-type"), null);
    assert.equal(seen[1].body, "");
    assert.equal(seen[1].headers.get("authorization"), "Bearer tok-1", "same origin: the token goes along");
  });
});

Deno.test("raw transport: a redirect to another origin is refused; neither token nor body goes there", async () => {
  await withServer(() => json({ signed: true }), async (other, elsewhere) => {
    await withServer(
      () => new Response(null, { status: 307, headers: { location: `${other}/blob?sig=1` } }),
      async (base, seen) => {
        const { http } = counted(base);
        const err = await http.request({ path: "/download", method: "PUT", body: "x" }).catch((e) => e);
        assert.ok(err instanceof DiazoError && err.code === "request_failed", String(err));
        assert.match(err.message, /redirects to another host/);
        assert.equal(seen[0].headers.get("authorization"), "Bearer tok-1");
        assert.equal(elsewhere.length, 0);
      },
    );
  });
});

Deno.test("raw transport: platform errors, Retry-After and timeouts as through fetch", async () => {
  let calls = 0;
  await withServer(async (req) => {
    const p = new URL(req.url).pathname;
    if (p === "/gone") return json({ reason: "Bucket does not exist" }, 404);
    if (p === "/slow") return await new Promise<Response>((r) => setTimeout(() => r(json({})), 300));
    return ++calls === 1 ? json({}, 503, { "retry-after": "0" }) : json({ ok: true });
  }, async (base, seen) => {
    const { http, sent } = counted(base, { timeoutMs: 100, maxAttempts: 2 });
    const err = await http.request({ path: "/gone", resource: "bucket" }).catch((e) => e);
    assert.ok(err instanceof DiazoError);
    assert.equal(err.code, "bucket_not_found");
    assert.deepEqual(err.body, { reason: "Bucket does not exist" });
    const again = await http.request<{ ok: boolean }>({ path: "/busy" });
    assert.deepEqual([again.data, again.attempts], [{ ok: true }, 2]);
    const slow = await http.request({ path: "/slow" }).catch((e) => e);
    assert.equal(slow.code, "timeout");
    assert.equal(sent.fetch, 0);
    assert.equal(seen.filter((s) => s.url.pathname === "/slow").length, 2, "a timed-out GET is retried");
  });
});

Deno.test("a header with a line break or a bad name is a usage error before any request", async () => {
  await withServer(() => json({}), async (base, seen) => {
    const { http } = counted(base);
    const bad: Record<string, string>[] = [{ "x-a": "1\r\nx-b: 2" }, { "x a": "1" }, { "": "1" }];
    for (const headers of bad) {
      const err = await http.request({ path: "/x", headers }).catch((e) => e);
      assert.ok(err instanceof DiazoError, String(err));
      assert.equal(err.exitCode, 2);
      assert.match(err.message, /^invalid header/);
    }
    assert.equal(seen.length, 0);
  });
});
