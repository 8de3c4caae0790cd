import assert from "node:assert/strict";
import { DiazoError } from "../../src/core/errors.ts";
import { createHttp, type HttpConfig } from "../../src/http/http.ts";
import type { BodyReader } from "../../src/http/stream_body.ts";
import { readAll } from "../../src/http/wire.ts";
import { gate, json, withServer } from "./_server.ts";

function config(baseUrl: string, extra: Partial<HttpConfig> = {}): HttpConfig {
  return {
    baseUrl,
    timeoutMs: 2000,
    maxAttempts: 4,
    retryBaseMs: 10,
    sleep: () => Promise.resolve(),
    random: () => 0,
    ...extra,
  };
}

async function rejection(p: Promise<unknown>): Promise<DiazoError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof DiazoError, `expected a DiazoError, got ${e}`);
    return e;
  }
  assert.fail("expected the request to fail");
}

Deno.test("GET sends user agent, accept, bearer token and defined query parameters", async () => {
  await withServer(() => json({ hello: "world" }), async (base, seen) => {
    const http = createHttp(
      config(`${base}/`, { token: () => Promise.resolve("tok-1234"), userAgent: "diazo/test" }),
    );
    assert.equal(http.baseUrl, base);
    const res = await http.request<{ hello: string }>({
      path: "/oss/v2/buckets",
      query: { limit: 10, region: "EMEA", beginsWith: undefined, extended: true },
    });
    assert.deepEqual(res.data, { hello: "world" });
    assert.equal(res.status, 200);
    assert.equal(res.attempts, 1);
    assert.equal(seen.length, 1);
    const req = seen[0];
    assert.equal(req.method, "GET");
    assert.equal(req.url.pathname, "/oss/v2/buckets");
    assert.equal(req.url.search, "?limit=10&region=EMEA&extended=true");
    assert.equal(req.headers.get("authorization"), "Bearer tok-1234");
    assert.equal(req.headers.get("user-agent"), "diazo/test");
    assert.equal(req.headers.get("accept"), "application/json");
  });
});

Deno.test("JSON bodies get application/json unless the caller gives a JSON:API type", async () => {
  await withServer(
    () =>
      new Response(JSON.stringify({ data: [1] }), {
        headers: { "content-type": "application/vnd.api+json" },
      }),
    async (base, seen) => {
      const http = createHttp(config(base));
      await http.request({ method: "POST", path: "/a", json: { x: 1 } });
      const res = await http.request({
        method: "PATCH",
        path: "/b",
        json: { data: { type: "items" } },
        headers: { "Content-Type": "application/vnd.api+json" },
      });
      assert.deepEqual(res.data, { data: [1] });
      assert.equal(seen[0].headers.get("content-type"), "application/json");
      assert.equal(seen[0].body, '{"x":1}');
      assert.equal(seen[1].headers.get("content-type"), "application/vnd.api+json");
      assert.equal(seen[1].body, '{"data":{"type":"items"}}');
    },
  );
});

Deno.test("form bodies are url-encoded and basic auth replaces the bearer token", async () => {
  await withServer(() => json({ access_token: "x" }), async (base, seen) => {
    const http = createHttp(config(base, { token: () => Promise.reject(new Error("must not be asked")) }));
    await http.request({
      method: "POST",
      path: "/authentication/v2/token",
      form: { grant_type: "client_credentials", scope: "data:read bucket:read" },
      auth: { basic: { user: "id", password: "pä:ss" } },
    });
    assert.equal(seen[0].headers.get("content-type"), "application/x-www-form-urlencoded");
    assert.equal(seen[0].body, "grant_type=client_credentials&scope=data%3Aread+bucket%3Aread");
    const basic = seen[0].headers.get("authorization") ?? "";
    assert.match(basic, /^Basic /);
    const decoded = new TextDecoder().decode(Uint8Array.from(atob(basic.slice(6)), (c) => c.charCodeAt(0)));
    assert.equal(decoded, "id:pä:ss");
  });
});

Deno.test("the bearer token goes only to the base URL's origin unless asked for", async () => {
  await withServer(() => json({}), async (other, seen) => {
    const http = createHttp(config("http://127.0.0.1:1", { token: () => Promise.resolve("tok-1234") }));
    await http.request({ path: `${other}/signed?x=1`, responseType: "none" });
    await http.request({ path: `${other}/signed`, auth: "bearer", responseType: "none" });
    assert.equal(seen[0].headers.get("authorization"), null);
    assert.equal(seen[1].headers.get("authorization"), "Bearer tok-1234");
    assert.equal(seen[0].url.search, "?x=1");
  });
});

Deno.test("response types: text, bytes, none, stream and an empty JSON body", async () => {
  await withServer((req) => {
    const p = new URL(req.url).pathname;
    if (p === "/empty") return new Response(null, { status: 204 });
    return new Response("héllo", { headers: { "content-type": "text/plain" } });
  }, async (base) => {
    const http = createHttp(config(base));
    assert.equal((await http.request({ path: "/t", responseType: "text" })).data, "héllo");
    const bytes = await http.request<Uint8Array>({ path: "/t", responseType: "bytes" });
    assert.deepEqual(bytes.data, new TextEncoder().encode("héllo"));
    assert.equal((await http.request({ path: "/t", responseType: "none" })).data, undefined);
    const stream = await http.request<BodyReader>({ path: "/t", responseType: "stream" });
    assert.equal(new TextDecoder().decode(await readAll(stream.data)), "héllo");
    const empty = await http.request({ path: "/empty" });
    assert.equal(empty.status, 204);
    assert.equal(empty.data, undefined);
  });
});

Deno.test("a 2xx answer that is not JSON fails with request_failed", async () => {
  await withServer(() => new Response("<html>oops</html>"), async (base) => {
    const err = await rejection(createHttp(config(base)).request({ path: "/x" }));
    assert.equal(err.code, "request_failed");
    assert.match(err.message, /not valid JSON/);
  });
});

Deno.test("404 on a bucket maps to bucket_not_found with the platform's body", async () => {
  await withServer(() => json({ reason: "Bucket does not exist" }, 404), async (base, seen) => {
    const err = await rejection(
      createHttp(config(base)).request({ path: "/oss/v2/buckets/b/details", resource: "bucket" }),
    );
    assert.equal(err.code, "bucket_not_found");
    assert.equal(err.exitCode, 4);
    assert.equal(err.status, 404);
    assert.deepEqual(err.body, { reason: "Bucket does not exist" });
    assert.equal(seen.length, 1, "a 404 is not retried");
  });
});

Deno.test("401 maps to auth_failed", async () => {
  await withServer(() => json({ developerMessage: "The token is not valid" }, 401), async (base, seen) => {
    const err = await rejection(createHttp(config(base)).request({ path: "/x" }));
    assert.equal(err.code, "auth_failed");
    assert.equal(err.exitCode, 3);
    assert.equal(seen.length, 1);
  });
});

Deno.test("403 AUTH-012 maps to insufficient_scope naming the scope", async () => {
  await withServer(() => json({ errorCode: "AUTH-012", developerMessage: "scope" }, 403), async (base) => {
    const err = await rejection(createHttp(config(base)).request({ path: "/x", scope: "bucket:delete" }));
    assert.equal(err.code, "insufficient_scope");
    assert.equal(err.exitCode, 3);
    assert.match(err.hint, /bucket:delete/);
  });
});

Deno.test("a non-JSON error body is kept as text", async () => {
  await withServer(() => new Response("Bad things", { status: 400 }), async (base) => {
    const err = await rejection(createHttp(config(base)).request({ path: "/x" }));
    assert.equal(err.code, "bad_request");
    assert.equal(err.body, "Bad things");
    assert.match(err.message, /Bad things/);
  });
});

Deno.test("a user abort is interrupted and not retried", async () => {
  const user = new AbortController();
  const slow = gate();
  await withServer(async () => {
    user.abort();
    await slow.wait(3000);
    return json({});
  }, async (base, seen) => {
    try {
      const err = await rejection(createHttp(config(base)).request({ path: "/slow", signal: user.signal }));
      assert.equal(err.code, "interrupted");
      assert.equal(err.exitCode, 130);
      assert.equal(seen.length, 1);
    } finally {
      slow.open();
    }
  });
});

Deno.test("an already aborted signal sends nothing", async () => {
  await withServer(() => json({}), async (base, seen) => {
    const err = await rejection(
      createHttp(config(base)).request({ path: "/x", signal: AbortSignal.abort() }),
    );
    assert.equal(err.code, "interrupted");
    assert.equal(seen.length, 0);
  });
});

Deno.test("the debug log shows the traffic without any secret", async () => {
  const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4eXoifQ.c2lnbmF0dXJlLXBhcnQ";
  const lines: string[] = [];
  await withServer((req) => {
    if (new URL(req.url).pathname === "/token") return json({ access_token: jwt, token_type: "Bearer" });
    return json({ ok: true });
  }, async (base) => {
    const http = createHttp(
      config(base, { token: () => Promise.resolve("opaqueBearer12345"), debug: (l) => lines.push(l) }),
    );
    await http.request({ path: "/items" });
    await http.request({
      method: "POST",
      path: "/token",
      auth: { basic: { user: "client-id", password: "basicPassw0rd" } },
      form: { grant_type: "client_credentials", client_secret: "formS3cretValue" },
    });
  });
  const log = lines.join("\n");
  for (
    const secret of [
      "opaqueBearer12345",
      "basicPassw0rd",
      btoa("client-id:basicPassw0rd"),
      "formS3cretValue",
      jwt,
    ]
  ) {
    assert.ok(!log.includes(secret), `debug log leaks ${secret}:\n${log}`);
  }
  assert.ok(lines.includes(`> GET ${lines[0].slice(6)}`) && lines[0].startsWith("> GET http://127.0.0.1:"));
  assert.ok(lines.includes(">   authorization: Bearer ***"), log);
  assert.ok(lines.includes(">   authorization: Basic ***"), log);
  assert.ok(lines.includes("> grant_type=client_credentials&client_secret=***"), log);
  assert.ok(
    lines.some((l) => l.includes('"access_token":"***"') && l.includes('"token_type":"Bearer"')),
    log,
  );
  assert.ok(lines.some((l) => /^< 200 OK \(\d+ ms, attempt 1\/1\)$/.test(l)), log);
  assert.ok(lines.some((l) => /^< 200 OK \(\d+ ms, attempt 1\/4\)$/.test(l)), log);
});

Deno.test("the debug log cuts long bodies to 2 KB", async () => {
  const lines: string[] = [];
  await withServer(() => json({ blob: "x".repeat(5000) }), async (base) => {
    await createHttp(config(base, { debug: (l) => lines.push(l) })).request({ path: "/big" });
  });
  const body = lines.find((l) => l.startsWith('< {"blob"'));
  assert.ok(body, lines.join("\n"));
  assert.ok(body.length < 2100);
  assert.match(body, /… \(\d+ more characters\)$/);
});
