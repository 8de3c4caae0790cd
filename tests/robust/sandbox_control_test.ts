/**
 * The sandbox's control API against a web page and a stranger: a snapshot name of `.` or `..` (which
 * removed the whole data dir), a reset posted as a cross-origin "simple" request, a rebound DNS name
 * reading the state, a fault pattern that backtracks for ever, and a sandbox bound beyond loopback
 * answering its control API without a token.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startSandbox } from "../../src/sandbox/server.ts";
import { cliEnv, makeHome, spawnChild } from "../e2e/harness.ts";
import { testSigningKey } from "../e2e/test_sandbox.ts";
import { api, call, control, token } from "../sandbox/helpers.ts";
import { rawRequest } from "./_raw_http.ts";

const JSON_TYPE = { "content-type": "application/json" };

/** A sandbox keeping its state in a data dir under a temp parent that also holds a file of the user's. */
async function withDataDirSandbox(
  fn: (sb: { url: string; host: string }, dirs: { parent: string; data: string }) => Promise<void>,
): Promise<void> {
  const parent = await Deno.makeTempDir({ prefix: "diazo-control-" });
  const data = join(parent, "data");
  await Deno.writeTextFile(join(parent, "beside.txt"), "the user's");
  const sb = await startSandbox({
    port: 0,
    dataDir: data,
    persist: true,
    signingKey: await testSigningKey(),
  });
  try {
    await fn({ url: sb.url, host: new URL(sb.url).host }, { parent, data });
  } finally {
    await sb.close();
    await Deno.remove(parent, { recursive: true });
  }
}

async function bucketKeys(sb: { url: string }): Promise<string[]> {
  return (await control(sb, "GET", "state")).json.buckets.map((b: { bucketKey: string }) => b.bucketKey);
}

async function makeBucket(sb: { url: string }, bucketKey: string): Promise<void> {
  const t = await token(sb, "bucket:create bucket:read");
  assert.equal(
    (await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey, policyKey: "transient" })).status,
    200,
  );
}

Deno.test("sandbox control: snapshot names '.' and '..' are refused (400) and the data dir stays whole", async () => {
  await withDataDirSandbox(async (sb, dirs) => {
    await makeBucket(sb, "kept-bucket");
    for (const name of ["..", ".", "../data", "a/b", "..\\x", ".hidden", ""]) {
      for (const verb of ["snapshot", "restore"]) {
        const r = await control(sb, "POST", verb, { name });
        assert.equal(r.status, 400, `${verb} ${JSON.stringify(name)}: ${JSON.stringify(r.json)}`);
        assert.match(r.json.error, /'name' must be a plain name/);
      }
    }
    assert.ok((await Deno.stat(join(dirs.data, "state", "state.json"))).isFile, "the state is still there");
    assert.equal(await Deno.readTextFile(join(dirs.parent, "beside.txt")), "the user's");
    assert.deepEqual(await bucketKeys(sb), ["kept-bucket"]);
    // A plain name with a dot inside still works.
    assert.equal((await control(sb, "POST", "snapshot", { name: "v1.2" })).status, 201);
    assert.equal((await control(sb, "POST", "restore", { name: "v1.2" })).status, 200);
  });
});

Deno.test("sandbox control: a cross-origin simple request (text/plain, a form, a foreign Origin) changes nothing", async () => {
  await withDataDirSandbox(async (sb) => {
    await makeBucket(sb, "survivor");
    const hostile: [Record<string, string>, number, RegExp][] = [
      // What `fetch(url, {method: "POST", body})` of a page on another site sends.
      [
        { host: sb.host, origin: "http://evil.example", "content-type": "text/plain;charset=UTF-8" },
        403,
        /origin/,
      ],
      // The same without an Origin (a client that leaves it out): the type alone is refused.
      [{ host: sb.host, "content-type": "text/plain;charset=UTF-8" }, 415, /application\/json/],
      [{ host: sb.host, "content-type": "application/x-www-form-urlencoded" }, 415, /application\/json/],
      [{ host: sb.host, "content-type": "multipart/form-data; boundary=x" }, 415, /application\/json/],
      // A body with no type at all (a Blob of no type).
      [{ host: sb.host }, 415, /no content type/],
      // JSON from another origin, and from a sandboxed frame (Origin: null).
      [{ host: sb.host, origin: "http://evil.example", ...JSON_TYPE }, 403, /another origin/],
      [{ host: sb.host, origin: "null", ...JSON_TYPE }, 403, /another origin/],
    ];
    for (const [headers, status, message] of hostile) {
      for (const [path, body] of [["/_sandbox/reset", "{}"], ["/_sandbox/snapshot", '{"name":"x"}']]) {
        const r = await rawRequest(sb.url, "POST", path, headers, body);
        assert.equal(r.status, status, `${path} ${JSON.stringify(headers)}: ${r.body}`);
        assert.match(JSON.parse(r.body).error, message);
      }
    }
    const del = await rawRequest(sb.url, "DELETE", "/_sandbox/faults", {
      host: sb.host,
      origin: "http://evil.example",
    });
    assert.equal(del.status, 403);
    assert.deepEqual(await bucketKeys(sb), ["survivor"], "no reset went through");
    assert.deepEqual((await control(sb, "GET", "snapshots")).json, [], "no snapshot was taken");

    // The sandbox's own page (same origin) and its own clients (JSON, no Origin) go on working.
    const own = await rawRequest(sb.url, "POST", "/_sandbox/clock", {
      host: sb.host,
      origin: sb.url,
      ...JSON_TYPE,
    }, '{"advance_seconds":1}');
    assert.equal(own.status, 200, own.body);
    assert.equal((await control(sb, "POST", "reset")).status, 200, "a bodyless JSON-less reset of a client");
    assert.deepEqual(await bucketKeys(sb), []);
  });
});

Deno.test("sandbox control: a Host that is not the sandbox's address is refused (DNS rebinding)", async () => {
  await withDataDirSandbox(async (sb) => {
    await makeBucket(sb, "private");
    const port = new URL(sb.url).port;
    for (const host of [`evil.example:${port}`, "evil.example", `rebind.attacker.test.:${port}`]) {
      const state = await rawRequest(sb.url, "GET", "/_sandbox/state", { host });
      assert.equal(state.status, 403, state.body);
      assert.match(JSON.parse(state.body).error, /only on its own address/);
      assert.doesNotMatch(state.body, /private/);
      const reset = await rawRequest(sb.url, "POST", "/_sandbox/reset", { host, ...JSON_TYPE }, "{}");
      assert.equal(reset.status, 403);
    }
    assert.deepEqual(await bucketKeys(sb), ["private"]);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      assert.equal((await rawRequest(sb.url, "GET", "/_sandbox/state", { host })).status, 200, host);
    }
  });
});

Deno.test("sandbox control: a fault path is a prefix or a glob, never a regex; a nasty glob answers at once", async () => {
  await withDataDirSandbox(async (sb) => {
    const evil = await control(sb, "POST", "faults", { path: "re:^/(a+)+$", status: 500 });
    assert.equal(evil.status, 400, JSON.stringify(evil.json));
    assert.match(evil.json.error, /not a regular expression/);
    assert.deepEqual((await control(sb, "GET", "faults")).json, []);

    // The glob that would backtrack hardest, against a long path it fails to match at its end.
    const glob = "glob:/" + "*a".repeat(100) + "*b";
    assert.equal((await control(sb, "POST", "faults", { path: glob, status: 500 })).status, 201);
    assert.equal((await control(sb, "POST", "faults", { path: "glob:/x/*/y", status: 503 })).status, 201);
    const started = performance.now();
    const slow = await call(`${sb.url}/${"a".repeat(4000)}!`, { signal: AbortSignal.timeout(10_000) });
    const ms = performance.now() - started;
    assert.equal(slow.status, 404, "not faulted: the path does not end in b");
    assert.ok(ms < 2000, `answered in ${Math.round(ms)} ms`);
    assert.equal(
      (await call(`${sb.url}/${"a".repeat(150)}b`)).status,
      500,
      "the glob matches where it should",
    );
    assert.equal((await call(`${sb.url}/x/one/y`)).status, 503);
    assert.equal((await call(`${sb.url}/x/one/two/y`)).status, 404, "* stays within a segment");
  });
});

Deno.test("sandbox control: bound beyond loopback, it asks for the token it was started with", async () => {
  const sb = await startSandbox({ hostname: "0.0.0.0", port: 0, signingKey: await testSigningKey() });
  try {
    assert.match(sb.controlToken ?? "", /^[0-9a-f]{32}$/, "a token is made");
    const host = new URL(sb.url).host;
    const without = await rawRequest(sb.url, "GET", "/_sandbox/state", { host });
    assert.equal(without.status, 401);
    assert.match(JSON.parse(without.body).error, /Authorization: Bearer <token>/);
    const wrong = await rawRequest(sb.url, "POST", "/_sandbox/reset", { host, authorization: "Bearer nope" });
    assert.equal(wrong.status, 401);
    const bearer = { host, authorization: `Bearer ${sb.controlToken}` };
    assert.equal((await rawRequest(sb.url, "GET", "/_sandbox/state", bearer)).status, 200);
    assert.equal((await rawRequest(sb.url, "POST", "/_sandbox/reset", bearer)).status, 200);
    // The container's health check knows no token; the dashboard passes it in its address.
    assert.equal((await rawRequest(sb.url, "GET", "/_sandbox/health", { host })).status, 200);
    const page = await rawRequest(sb.url, "GET", `/_sandbox/ui?token=${sb.controlToken}`, { host });
    assert.equal(page.status, 200);
    assert.equal(
      (await rawRequest(sb.url, "GET", `/_sandbox/overview?token=${sb.controlToken}`, { host })).status,
      200,
    );
    assert.equal(
      (await rawRequest(sb.url, "POST", `/_sandbox/reset?token=${sb.controlToken}`, { host })).status,
      401,
    );
    // With the token, a name it was reached by (a container's service name) is fine.
    assert.equal(
      (await rawRequest(sb.url, "GET", "/_sandbox/state", { ...bearer, host: "aps:8787" })).status,
      200,
    );
  } finally {
    await sb.close();
  }
});

/** Reads `stream` until `pattern` matches what came so far; the match. */
async function readUntil(
  reader: ReadableStreamDefaultReader<string>,
  pattern: RegExp,
): Promise<RegExpExecArray> {
  let text = "";
  for (;;) {
    const m = pattern.exec(text);
    if (m) return m;
    const { value, done } = await reader.read();
    if (done) throw new Error(`ended before ${pattern}: ${text}`);
    text += value;
  }
}

Deno.test("sandbox control: `diazo sandbox --host 0.0.0.0` prints the token its control API asks for", async () => {
  const home = await makeHome();
  const child = spawnChild(["sandbox", "--host", "0.0.0.0", "--port", "0"], { env: cliEnv(home) });
  const out = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const err = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  try {
    const url = (await readUntil(out, /^(http:\S+)\n/))[1];
    const shown =
      (await readUntil(err, /control API: .*Authorization: Bearer <token>.*token: ([0-9a-f]{32})\n/))[1];
    assert.equal((await control({ url }, "GET", "state")).status, 401);
    const state = await call(`${url}/_sandbox/state`, { headers: { authorization: `Bearer ${shown}` } });
    assert.equal(state.status, 200);
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await Promise.all([out.cancel(), err.cancel()]);
    await home.cleanup();
  }
});
