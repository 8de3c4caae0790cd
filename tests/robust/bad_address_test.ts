/**
 * Issue 14 item 16: bad addresses are usage errors (exit 2) before any request: an over-long object
 * key or URN, a base URL that is not an http(s) URL, and the client secret refused over plain http
 * to another machine.
 */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import { encodeUrn } from "../../src/aps/urn.ts";
import { DiazoError } from "../../src/core/errors.ts";
import { createHttp } from "../../src/http/http.ts";
import { assertUsageError, makeHome, requestLog, sandboxEnv } from "../e2e/harness.ts";
import { run } from "./_run.ts";

Deno.test("a 120k-character object key and a 50k-character URN: exit 2, no request", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const env = sandboxEnv(home, sb.url, { DIAZO_RETRY_BASE_MS: "1" });
    const key = "k".repeat(120_000);
    assertUsageError(
      await run(["object", "info", "my-bucket", key], env, home.cwd),
      /^error: invalid object key 'k{40}\.\.\.': it has 120000 characters \(at most 1024\)$/,
    );
    const urn = encodeUrn(`urn:adsk.objects:os.object:my-bucket/${"u".repeat(37_000)}`);
    assert.ok(urn.length > 49_000);
    assertUsageError(
      await run(["translate", "status", urn], env, home.cwd),
      /^error: invalid URN '.{40}\.\.\.': it has \d+ characters \(at most 4096\)$/,
    );
    assert.deepEqual(await requestLog(sb.url), [], "no request was sent");
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("base URL 'not a url' and file:///etc/passwd: exit 2 naming the base URL", async () => {
  const home = await makeHome();
  try {
    assertUsageError(
      await run(["bucket", "list"], sandboxEnv(home, "not a url"), home.cwd),
      /^error: invalid base URL 'not a url': it is not a URL$/,
    );
    assertUsageError(
      await run(["bucket", "list"], sandboxEnv(home, "file:///etc/passwd"), home.cwd),
      /^error: invalid base URL 'file:\/\/\/etc\/passwd': only http and https are supported$/,
    );
  } finally {
    await home.cleanup();
  }
});

Deno.test("plain http to another machine: the Basic-auth token request is refused before it is sent", async () => {
  const home = await makeHome();
  // Nothing may be sent: a listener on a non-loopback name would see a connection if it were.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  let connected = false;
  const accepting = (async () => {
    for await (const conn of listener) {
      connected = true;
      conn.close();
    }
  })();
  try {
    // 127.0.0.1.nip.io-like names need DNS; a 10.x address is not loopback and fails fast if tried.
    const env = sandboxEnv(home, `http://10.255.255.1:${port}`, { DIAZO_TIMEOUT: "2" });
    const r = await run(["auth", "test"], env, home.cwd);
    assertUsageError(r, /^error: refusing to send the client secret over plain http to 10\.255\.255\.1:\d+$/);
    // The same over loopback is allowed (the sandbox's case): it reaches the listener.
    const local = await run(
      ["auth", "test"],
      sandboxEnv(home, `http://127.0.0.1:${port}`, { DIAZO_TIMEOUT: "2", DIAZO_RETRY_BASE_MS: "1" }),
      home.cwd,
    );
    assert.notEqual(local.code, 2, local.stderr);
    assert.ok(connected, "the loopback request was sent");
  } finally {
    listener.close();
    await accepting.catch(() => {});
    await home.cleanup();
  }
});

Deno.test("any request URL over 32 KiB is a usage error before it is sent (not retried, not 'Cannot reach')", async () => {
  let sent = 0;
  const http = createHttp({
    baseUrl: "https://example.test",
    timeoutMs: 1000,
    maxAttempts: 4,
    retryBaseMs: 1,
    fetch: () => (sent++, Promise.resolve(new Response("{}"))),
  });
  await assert.rejects(
    http.request({ path: `/x/${"a".repeat(40_000)}` }),
    (e) =>
      e instanceof DiazoError && e.exitCode === 2 && /the request URL has 400\d\d characters/.test(e.message),
  );
  assert.equal(sent, 0);
  await http.request({ path: "/x/short" });
  assert.equal(sent, 1);
});
