import assert from "node:assert/strict";
import { DiazoError } from "../../src/core/errors.ts";
import { createHttp, type HttpConfig } from "../../src/http/http.ts";
import { backoffMs, parseRetryAfter } from "../../src/http/retry.ts";
import { gate, json, withServer } from "./_server.ts";

/** A config whose sleeps are recorded instead of waited. */
function config(baseUrl: string, extra: Partial<HttpConfig> = {}): HttpConfig & { slept: number[] } {
  const slept: number[] = [];
  return {
    baseUrl,
    timeoutMs: 2000,
    maxAttempts: 4,
    retryBaseMs: 100,
    sleep: (ms) => (slept.push(ms), Promise.resolve()),
    random: () => 0.5,
    slept,
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

/** A port nothing listens on. */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test("429 with Retry-After: 1 is retried once, after at least one second (real sleep)", async () => {
  const lines: string[] = [];
  await withServer((_req, seen) => {
    if (seen.length === 1) return json({ message: "slow down" }, 429, { "retry-after": "1" });
    return json({ ok: true });
  }, async (base, seen) => {
    const http = createHttp({
      baseUrl: base,
      timeoutMs: 2000,
      maxAttempts: 4,
      retryBaseMs: 100,
      random: () => 0,
      debug: (l) => lines.push(l),
    });
    const res = await http.request({ path: "/limited" });
    assert.deepEqual(res.data, { ok: true });
    assert.equal(res.attempts, 2);
    assert.equal(seen.length, 2);
    const waited = seen[1].at - seen[0].at;
    assert.ok(waited >= 1000, `waited only ${waited} ms`);
  });
  assert.ok(lines.includes("retry 2/4 in 1000 ms (HTTP 429, Retry-After 1 s)"), lines.join("\n"));
});

Deno.test("Retry-After as an HTTP date sets the least wait", async () => {
  const now = Date.UTC(2030, 0, 1, 12, 0, 0);
  await withServer((_req, seen) => {
    if (seen.length === 1) return json({}, 503, { "retry-after": new Date(now + 7000).toUTCString() });
    return json({ ok: 1 });
  }, async (base) => {
    const c = config(base, { now: () => now, timeoutMs: 10_000 }); // the wait is bounded by the timeout
    await createHttp(c).request({ path: "/x" });
    assert.deepEqual(c.slept, [7000]);
  });
});

Deno.test("three 503s then 200 succeed on the fourth attempt with jittered exponential backoff", async () => {
  await withServer(
    (_req, seen) => seen.length <= 3 ? json({}, 503) : json({ done: true }),
    async (base, seen) => {
      const c = config(base);
      const res = await createHttp(c).request({ path: "/flaky" });
      assert.deepEqual(res.data, { done: true });
      assert.equal(res.attempts, 4);
      assert.equal(seen.length, 4);
      // random() = 0.5 of min(cap, 100 * 2^n)
      assert.deepEqual(c.slept, [50, 100, 200]);
    },
  );
});

Deno.test("backoff is capped by retryMaxMs", async () => {
  await withServer(() => json({}, 502), async (base) => {
    const c = config(base, { maxAttempts: 5, retryBaseMs: 1000, retryMaxMs: 2500, random: () => 1 });
    await rejection(createHttp(c).request({ path: "/x" }));
    assert.deepEqual(c.slept, [1000, 2000, 2500, 2500]);
  });
  assert.equal(backoffMs(10, 500, 20_000, () => 0.999), 19_980);
  assert.equal(parseRetryAfter("2.5", 0), 2500);
  assert.equal(parseRetryAfter("soon", 0), undefined);
});

Deno.test("a permanent 500 fails with server_error after maxAttempts", async () => {
  await withServer(() => json({ reason: "boom" }, 500), async (base, seen) => {
    const err = await rejection(createHttp(config(base, { maxAttempts: 3 })).request({ path: "/down" }));
    assert.equal(err.code, "server_error");
    assert.equal(err.exitCode, 5);
    assert.equal(err.status, 500);
    assert.equal(err.params.attempts, 3);
    assert.deepEqual(err.body, { reason: "boom" });
    assert.equal(seen.length, 3);
  });
});

Deno.test("a POST is retried only when marked safe", async () => {
  await withServer(() => json({}, 503), async (base, seen) => {
    const err = await rejection(
      createHttp(config(base)).request({ method: "POST", path: "/jobs", json: {} }),
    );
    assert.equal(err.code, "server_error");
    assert.equal(err.params.attempts, 1);
    assert.equal(seen.length, 1);
  });
  await withServer((_r, seen) => seen.length === 1 ? json({}, 503) : json({ id: 1 }), async (base, seen) => {
    const res = await createHttp(config(base)).request({
      method: "POST",
      path: "/jobs",
      json: {},
      retry: "always",
    });
    assert.equal(res.attempts, 2);
    assert.equal(seen.length, 2);
    assert.equal(seen[1].body, "{}");
  });
  await withServer(() => json({}, 503), async (base, seen) => {
    await rejection(createHttp(config(base)).request({ path: "/get", retry: "never" }));
    assert.equal(seen.length, 1);
  });
});

Deno.test("the token is asked for on each attempt and a body stream is re-created", async () => {
  let n = 0;
  await withServer((_r, seen) => seen.length === 1 ? json({}, 503) : json({}), async (base, seen) => {
    const http = createHttp(config(base, { token: () => Promise.resolve(`tok-${++n}`) }));
    const chunks = ["part-1,", "part-2"];
    await http.request({
      method: "PUT",
      path: "/upload",
      headers: { "content-type": "application/octet-stream" },
      bodyStream: () => ReadableStream.from(chunks.map((c) => new TextEncoder().encode(c))),
    });
    assert.deepEqual(seen.map((s) => s.headers.get("authorization")), ["Bearer tok-1", "Bearer tok-2"]);
    assert.deepEqual(seen.map((s) => s.body), ["part-1,part-2", "part-1,part-2"]);
  });
});

/**
 * A raw TCP server: `answer(n)` gives the bytes written on the n-th connection (1-based) before it
 * is closed; undefined closes it without an answer.
 */
async function withRawServer(answer: (n: number) => string | undefined, fn: (base: string) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const serving = (async () => {
    for await (const conn of listener) {
      await conn.read(new Uint8Array(8192));
      const text = answer(++connections);
      if (text !== undefined) await conn.write(new TextEncoder().encode(text));
      conn.close();
    }
  })();
  try {
    await fn(`http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`);
  } finally {
    listener.close();
    await serving.catch(() => {});
  }
}

function http200(body: string, contentLength = body.length): string {
  return `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${contentLength}\r\n` +
    `connection: close\r\n\r\n${body}`;
}

Deno.test("a connection closed by the server is retried, then succeeds", async () => {
  const answered: number[] = [];
  await withRawServer(
    (n) => (answered.push(n), n === 1 ? undefined : http200('{"ok":true}')),
    async (base) => {
      const lines: string[] = [];
      const res = await createHttp(config(base, { debug: (l) => lines.push(l) })).request({ path: "/x" });
      assert.deepEqual(res.data, { ok: true });
      assert.equal(res.attempts, 2);
      assert.deepEqual(answered, [1, 2]);
      assert.ok(lines.some((l) => /^retry 2\/4 in 50 ms \(network error: .+\)$/.test(l)), lines.join("\n"));
    },
  );
});

Deno.test("a body that fails mid-read is retried", async () => {
  const answered: number[] = [];
  await withRawServer((n) => {
    answered.push(n);
    return n === 1 ? http200('{"partial":', 100) : http200('{"whole":true}');
  }, async (base) => {
    const lines: string[] = [];
    const res = await createHttp(config(base, { debug: (l) => lines.push(l) })).request({ path: "/x" });
    assert.deepEqual(res.data, { whole: true });
    assert.equal(res.attempts, 2);
    assert.deepEqual(answered, [1, 2]);
    assert.ok(lines.some((l) => l.startsWith("< network error: ")), lines.join("\n"));
  });
});

Deno.test("a refused port fails with network naming the host after every attempt", async () => {
  const port = closedPort();
  let calls = 0;
  const counting: typeof fetch = (input, init) => (calls++, fetch(input, init));
  const c = config(`http://127.0.0.1:${port}`, { maxAttempts: 3, fetch: counting });
  const err = await rejection(createHttp(c).request({ path: "/x" }));
  assert.equal(err.code, "network");
  assert.equal(err.exitCode, 5);
  assert.equal(err.params.host, `127.0.0.1:${port}`);
  assert.equal(calls, 3);
  assert.equal(c.slept.length, 2);
});

Deno.test("an attempt that outlasts timeoutMs fails with timeout after the last attempt", async () => {
  const slow = gate();
  await withServer(async () => {
    await slow.wait(5000);
    return json({});
  }, async (base, seen) => {
    try {
      const c = config(base, { timeoutMs: 100, maxAttempts: 2 });
      const started = performance.now();
      const err = await rejection(createHttp(c).request({ path: "/slow" }));
      assert.equal(err.code, "timeout");
      assert.equal(err.exitCode, 5);
      assert.equal(err.params.seconds, 0.1);
      assert.equal(seen.length, 2);
      assert.ok(performance.now() - started < 2000);
    } finally {
      slow.open();
    }
  });
});

Deno.test("a per-request timeout overrides the client's", async () => {
  const slow = gate();
  await withServer(async () => {
    await slow.wait(5000);
    return json({});
  }, async (base) => {
    try {
      const c = config(base, { timeoutMs: 60_000, maxAttempts: 1 });
      const err = await rejection(createHttp(c).request({ path: "/slow", timeoutMs: 50 }));
      assert.equal(err.code, "timeout");
      assert.equal(err.params.seconds, 0.05);
    } finally {
      slow.open();
    }
  });
});

Deno.test("a user abort during a backoff wait ends it at once as interrupted", async () => {
  const user = new AbortController();
  await withServer(() => {
    setTimeout(() => user.abort(), 20);
    return json({}, 503, { "retry-after": "30" });
  }, async (base, seen) => {
    const http = createHttp({ baseUrl: base, timeoutMs: 2000, maxAttempts: 4, retryBaseMs: 100 });
    const started = performance.now();
    const err = await rejection(http.request({ path: "/x", signal: user.signal }));
    assert.equal(err.code, "interrupted");
    assert.equal(seen.length, 1);
    assert.ok(performance.now() - started < 5000);
  });
});

Deno.test("an unusable URL is a usage error, not a network failure", async () => {
  const http = createHttp(config("http://127.0.0.1:1"));
  const err = await rejection(http.request({ path: "http://exa mple.com:99999/x" }));
  assert.equal(err.code, "usage");
  assert.equal(err.exitCode, 2);
});
