import assert from "node:assert/strict";
import { createRequestLog, type RequestLogEntry } from "../../src/sandbox/request_log.ts";
import { addApp, api, APP, basic, call, control, token, tokenRequest, withSandbox } from "./helpers.ts";

type Entry = RequestLogEntry;

Deno.test("request log: records API calls in order, without control calls or secrets", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "bucket:read bucket:create");
    await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "logged", policyKey: "transient" });
    await api(sb, "GET", `/oss/v2/buckets?limit=5&access_token=${t}&client_secret=${APP.secret}`, t);
    await api(sb, "GET", "/oss/v2/buckets", "not-a-token");
    await call(`${sb.url}/no/such/route`);
    await control(sb, "GET", "state");

    const a = await control(sb, "GET", "requests");
    assert.equal(a.status, 200);
    const log = a.json as Entry[];
    assert.deepEqual(log.map((e) => [e.method, e.path, e.status, e.client_id]), [
      ["POST", "/authentication/v2/token", 200, APP.id],
      ["POST", "/oss/v2/buckets", 200, APP.id],
      ["GET", "/oss/v2/buckets", 200, APP.id],
      ["GET", "/oss/v2/buckets", 401, undefined],
      ["GET", "/no/such/route", 404, undefined],
    ]);
    assert.deepEqual(log.map((e) => e.seq), [1, 2, 3, 4, 5]);
    assert.deepEqual(log[2].query, { limit: "5", access_token: "[redacted]", client_secret: "[redacted]" });
    for (const e of log) {
      assert.deepEqual(
        Object.keys(e).filter((k) => !["client_id", "fault_id", "grant_type", "scope"].includes(k)).sort(),
        ["duration_ms", "method", "path", "query", "seq", "status", "time"],
      );
      assert.ok(!Number.isNaN(Date.parse(e.time)));
      assert.ok(e.duration_ms >= 0);
    }
    assert.equal(log[1].scope, log[2].scope, "the token's scopes are recorded");
    assert.equal(log[3].scope, undefined, "a request without a valid token has none");
    const text = JSON.stringify(log);
    for (const secret of [APP.secret, t, t.split(".")[2], "Bearer", "Basic", "not-a-token"]) {
      assert.ok(!text.includes(secret), `log leaks ${secret.slice(0, 20)}`);
    }
  });
});

Deno.test("request log: path prefix filter and clearing", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "bucket:read");
    await api(sb, "GET", "/oss/v2/buckets", t);
    await call(`${sb.url}/authentication/v2/keys`);
    const oss = (await control(sb, "GET", "requests?path=/oss/")).json as Entry[];
    assert.deepEqual(oss.map((e) => e.path), ["/oss/v2/buckets"]);
    const auth = (await control(sb, "GET", "requests?path=/authentication")).json as Entry[];
    assert.deepEqual(auth.map((e) => e.path), ["/authentication/v2/token", "/authentication/v2/keys"]);
    assert.equal((await control(sb, "DELETE", "requests")).status, 204);
    assert.deepEqual((await control(sb, "GET", "requests")).json, []);
    await call(`${sb.url}/authentication/v2/keys`);
    assert.equal(((await control(sb, "GET", "requests")).json as Entry[]).length, 1);
  });
});

Deno.test("request log: a full log drops its oldest entries", () => {
  const log = createRequestLog(3);
  const entry = { time: "", method: "GET", query: {}, status: 200, duration_ms: 1 };
  for (const path of ["/a", "/b", "/c", "/d", "/e"]) log.add({ ...entry, path });
  assert.equal(log.size, 3);
  assert.deepEqual(log.list().map((e) => [e.seq, e.path]), [[3, "/c"], [4, "/d"], [5, "/e"]]);
  assert.deepEqual(log.list("/d").map((e) => e.seq), [4]);
  log.clear();
  assert.deepEqual(log.list(), []);
  assert.equal(log.add({ ...entry, path: "/f" }).seq, 6, "numbering continues after a clear");
});

Deno.test("access log: one line per request, never a token", async () => {
  const lines: string[] = [];
  let t = "";
  await withSandbox(async (sb) => {
    t = await token(sb, "bucket:read");
    await api(sb, "GET", "/oss/v2/buckets?limit=3", t);
    await api(sb, "GET", "/oss/v2/buckets/nope/details", t);
  }, (line) => lines.push(line));
  assert.equal(lines.length, 3);
  assert.match(lines[0], /^POST \/authentication\/v2\/token 200 \d+ms$/);
  assert.match(lines[1], /^GET \/oss\/v2\/buckets 200 \d+ms$/);
  assert.match(lines[2], /^GET \/oss\/v2\/buckets\/nope\/details 404 \d+ms$/);
  assert.ok(!lines.join("\n").includes(t.split(".")[2]));
});

Deno.test("state: dump shows apps without secrets, buckets, faults, clock and config", async () => {
  await withSandbox(async (sb) => {
    const other = await addApp(sb, "second-app", "second-secret");
    const t = await token(sb, "bucket:create", other);
    await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "dumped", policyKey: "persistent" }, {
      region: "EMEA",
    });
    await control(sb, "POST", "faults", { path: "/oss", status: 500, count: 1 });
    const a = await control(sb, "GET", "state");
    assert.equal(a.status, 200);
    const s = a.json;
    assert.deepEqual(s.apps.map((x: { client_id: string }) => x.client_id), [APP.id, "second-app"]);
    assert.equal(s.buckets.length, 1);
    assert.equal(s.buckets[0].bucketKey, "dumped");
    assert.equal(s.buckets[0].bucketOwner, "second-app");
    assert.equal(s.buckets[0].region, "EMEA");
    assert.equal(s.faults.length, 1);
    assert.equal(s.faults[0].status, 500);
    assert.equal(typeof s.clock.now, "number");
    assert.equal(s.config.token_ttl_seconds, 3599);
    const text = JSON.stringify(s);
    assert.ok(!text.includes(APP.secret) && !text.includes("second-secret"), "no secrets in the dump");
  });
});

Deno.test("clock: GET tells the sandbox time, POST advances it", async () => {
  await withSandbox(async (sb) => {
    const before = (await control(sb, "GET", "clock")).json.now;
    assert.ok(Math.abs(before - Date.now()) < 5_000);
    const a = await control(sb, "POST", "clock", { advance_seconds: 3600 });
    assert.equal(a.status, 200);
    assert.ok(a.json.now >= before + 3_600_000);
    const after = (await control(sb, "GET", "clock")).json.now;
    assert.ok(after >= before + 3_600_000 && after < before + 3_600_000 + 5_000);
    assert.equal((await control(sb, "POST", "clock", { advance_seconds: "soon" })).status, 400);
  });
});

Deno.test("reset: clears buckets, extra apps, tokens, log, faults, clock and config", async () => {
  await withSandbox(async (sb) => {
    const other = await addApp(sb);
    const t = await token(sb, "bucket:create bucket:read", other);
    await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "wiped", policyKey: "transient" });
    await control(sb, "POST", "faults", { path: "/nothing", status: 500 });
    await control(sb, "POST", "clock", { advance_seconds: 100 });
    await control(sb, "POST", "config", { token_ttl_seconds: 30 });

    assert.equal((await control(sb, "POST", "reset")).status, 200);
    const s = (await control(sb, "GET", "state")).json;
    assert.deepEqual(s.apps.map((x: { client_id: string }) => x.client_id), [APP.id]);
    assert.deepEqual(s.buckets, []);
    assert.deepEqual(s.faults, []);
    assert.equal(s.clock.offset_seconds, 0);
    assert.equal(s.config.token_ttl_seconds, 3599);
    assert.deepEqual((await control(sb, "GET", "requests")).json, []);
    const gone = await tokenRequest(sb, { grant_type: "client_credentials", scope: "bucket:read" }, {
      authorization: basic(other.id, other.secret),
    });
    assert.equal(gone.status, 401, "the extra app is gone");
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", t)).status, 401, "its token too");
    // The well-known app still works and the key is free again.
    const fresh = await token(sb, "bucket:create");
    assert.equal(
      (await api(sb, "POST", "/oss/v2/buckets", fresh, { bucketKey: "wiped", policyKey: "transient" }))
        .status,
      200,
    );
  });
});

Deno.test("control: bad bodies are 400, unknown control paths 404", async () => {
  await withSandbox(async (sb) => {
    assert.equal((await control(sb, "POST", "apps", { client_id: "x" })).status, 400);
    assert.equal((await control(sb, "POST", "config", { token_ttl_seconds: -5 })).status, 400);
    assert.equal((await control(sb, "GET", "nothing-here")).status, 404);
  });
});

Deno.test("unknown routes are 404 JSON in the gateway's shape", async () => {
  await withSandbox(async (sb) => {
    for (
      const [method, path] of [["GET", "/nope"], ["PUT", "/oss/v2/buckets"], ["GET", "/oss/v2/buckets/a/b/c"]]
    ) {
      const a = await call(`${sb.url}${path}`, { method });
      assert.equal(a.status, 404, `${method} ${path}`);
      assert.ok(a.headers.get("content-type")?.startsWith("application/json"));
      assert.equal(a.json.developerMessage, "The requested resource does not exist.");
      assert.equal(typeof a.json.errorCode, "string");
    }
  });
});
