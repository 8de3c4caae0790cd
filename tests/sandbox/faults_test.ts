import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import { createFaultStore, parseFaultSpec } from "../../src/sandbox/faults.ts";
import { api, call, control, token, withSandbox } from "./helpers.ts";

const KEYS = "/authentication/v2/keys";

Deno.test("faults: status with Retry-After fires count times, then requests pass", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "bucket:read");
    const added = await control(sb, "POST", "faults", {
      path: "/oss/v2/buckets",
      status: 429,
      retry_after: 7,
      count: 2,
    });
    assert.equal(added.status, 201);
    const id = added.json.id;
    assert.equal(typeof id, "string");
    for (let i = 0; i < 2; i++) {
      const a = await api(sb, "GET", "/oss/v2/buckets", t);
      assert.equal(a.status, 429);
      assert.equal(a.headers.get("retry-after"), "7");
      assert.deepEqual(a.json, { developerMessage: "Injected fault" });
    }
    const ok = await api(sb, "GET", "/oss/v2/buckets", t);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get("retry-after"), null);
    const [fault] = (await control(sb, "GET", "faults")).json;
    assert.equal(fault.id, id);
    assert.equal(fault.remaining, 0);
    assert.equal(fault.fired, 2);
    const log = (await control(sb, "GET", "requests?path=/oss")).json;
    assert.deepEqual(log.map((e: { status: number; fault_id?: string }) => [e.status, e.fault_id]), [
      [429, id],
      [429, id],
      [200, undefined],
    ]);
  });
});

Deno.test("faults: method filter, glob paths, and the control API is never faulted", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "bucket:read bucket:create");
    await control(sb, "POST", "faults", { method: "post", path: "/oss/v2/buckets", status: 503 });
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", t)).status, 200);
    const post = await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "never", policyKey: "transient" });
    assert.equal(post.status, 503);
    assert.equal(
      (await control(sb, "GET", "state")).json.buckets.length,
      0,
      "the faulted create did nothing",
    );

    await control(sb, "DELETE", "faults");
    await control(sb, "POST", "faults", { path: "glob:/oss/v2/buckets/*/details", status: 500 });
    await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "real", policyKey: "transient" });
    assert.equal((await api(sb, "GET", "/oss/v2/buckets/real/details", t)).status, 500);
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", t)).status, 200);

    // A prefix of "/" matches every path, yet the control API keeps answering.
    await control(sb, "POST", "faults", { path: "/", status: 500 });
    assert.equal((await call(`${sb.url}${KEYS}`)).status, 500);
    assert.equal((await control(sb, "GET", "state")).status, 200);
    assert.equal((await control(sb, "GET", "requests")).status, 200);
  });
});

Deno.test("faults: rate 0 never fires, rate 0.5 fires about half the time", async () => {
  await withSandbox(async (sb) => {
    await control(sb, "POST", "faults", { path: KEYS, status: 500, rate: 0 });
    for (let i = 0; i < 20; i++) assert.equal((await call(`${sb.url}${KEYS}`)).status, 200);
    await control(sb, "DELETE", "faults");
    await control(sb, "POST", "faults", { path: KEYS, status: 500, rate: 0.5 });
    let failed = 0;
    for (let i = 0; i < 200; i++) if ((await call(`${sb.url}${KEYS}`)).status === 500) failed++;
    // Binomial(200, 0.5): outside 50..150 has a probability far below 1e-12.
    assert.ok(failed > 50 && failed < 150, `fired ${failed} of 200`);
    assert.equal((await control(sb, "GET", "faults")).json[0].fired, failed);
  });
});

Deno.test("faults: rate and count in the store, with a scripted random source", () => {
  const rolls = [0.9, 0.1, 0.4, 0.6, 0.2];
  const store = createFaultStore(() => rolls.shift() ?? 0);
  const f = store.add({ path: "/x", status: 500, rate: 0.5, count: 2 });
  const fired = ["/x/1", "/x/2", "/x/3", "/x/4", "/x/5"].map((p) => store.take("GET", p)?.id);
  // 0.9 misses, 0.1 fires, 0.4 fires (count now spent), the rest never roll.
  assert.deepEqual(fired, [undefined, f.id, f.id, undefined, undefined]);
  assert.equal(store.list()[0].remaining, 0);
  assert.equal(store.list()[0].fired, 2);
  assert.equal(store.take("GET", "/y"), undefined);
});

Deno.test("faults: invalid specs are refused with 400", async () => {
  for (
    const bad of [
      {},
      { path: "" },
      { path: "re:^/x$", status: 500 },
      { path: "glob:", status: 500 },
      { path: "/" + "x".repeat(600), status: 500 },
      { path: "/x", status: 99 },
      { path: "/x", status: 500, rate: 1.5 },
      { path: "/x", status: 500, count: 0 },
      { path: "/x", delay_ms: -1 },
      { path: "/x" },
      { path: "/x", drop: "yes" },
    ]
  ) {
    assert.ok("error" in parseFaultSpec(bad), JSON.stringify(bad));
  }
  await withSandbox(async (sb) => {
    const a = await control(sb, "POST", "faults", { path: "/x", rate: 2, status: 500 });
    assert.equal(a.status, 400);
    assert.equal(typeof a.json.error, "string");
    assert.deepEqual((await control(sb, "GET", "faults")).json, []);
  });
});

Deno.test("faults: delay slows the answer; without a status the request then proceeds", async () => {
  await withSandbox(async (sb) => {
    await control(sb, "POST", "faults", { path: KEYS, delay_ms: 300, count: 1 });
    let started = performance.now();
    const slow = await call(`${sb.url}${KEYS}`);
    const slowMs = performance.now() - started;
    assert.equal(slow.status, 200);
    assert.equal(slow.json.keys.length, 1, "the real answer");
    assert.ok(slowMs >= 290, `took ${slowMs} ms`);
    started = performance.now();
    assert.equal((await call(`${sb.url}${KEYS}`)).status, 200);
    assert.ok(performance.now() - started < 250, "the fault was spent");

    await control(sb, "POST", "faults", { path: KEYS, delay_ms: 200, status: 504, count: 1 });
    started = performance.now();
    const failed = await call(`${sb.url}${KEYS}`);
    assert.equal(failed.status, 504);
    assert.ok(performance.now() - started >= 190);
  });
});

Deno.test("faults: drop closes the connection so that fetch rejects with a TypeError", async () => {
  await withSandbox(async (sb) => {
    // Warm up so that the client holds a pooled keep-alive connection.
    assert.equal((await call(`${sb.url}${KEYS}`)).status, 200);
    const { id } = (await control(sb, "POST", "faults", { path: KEYS, drop: true, count: 1 })).json;
    await assert.rejects(() => fetch(`${sb.url}${KEYS}`), TypeError);
    assert.equal((await call(`${sb.url}${KEYS}`)).status, 200, "count spent: served again");
    const log = (await control(sb, "GET", `requests?path=${KEYS}`)).json;
    assert.deepEqual(log.map((e: { status: number; fault_id?: string }) => [e.status, e.fault_id]), [
      [200, undefined],
      [0, id],
      [200, undefined],
    ]);
  });
});

Deno.test("faults: a drop for one method leaves the others alone, each drop is seen", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "bucket:read bucket:create");
    await control(sb, "POST", "faults", { path: "/oss/v2/buckets", method: "POST", drop: true, count: 3 });
    for (let i = 0; i < 3; i++) {
      assert.equal((await api(sb, "GET", "/oss/v2/buckets", t)).status, 200);
      await assert.rejects(
        () => api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: `drop-${i}`, policyKey: "transient" }),
        TypeError,
      );
    }
    const created = await api(sb, "POST", "/oss/v2/buckets", t, {
      bucketKey: "after",
      policyKey: "transient",
    });
    assert.equal(created.status, 200);
    const log = (await control(sb, "GET", "requests?path=/oss")).json;
    assert.equal(log.filter((e: { status: number }) => e.status === 0).length, 3, "each drop fired once");
  });
});

Deno.test("faults: delete one by id, or all", async () => {
  await withSandbox(async (sb) => {
    const a = (await control(sb, "POST", "faults", { path: KEYS, status: 500 })).json.id;
    const b = (await control(sb, "POST", "faults", { path: "/oss", status: 502 })).json.id;
    assert.equal((await control(sb, "DELETE", `faults/${a}`)).status, 204);
    assert.equal((await control(sb, "DELETE", `faults/${a}`)).status, 404);
    assert.deepEqual((await control(sb, "GET", "faults")).json.map((f: { id: string }) => f.id), [b]);
    assert.equal((await call(`${sb.url}${KEYS}`)).status, 200);
    await control(sb, "DELETE", "faults");
    assert.deepEqual((await control(sb, "GET", "faults")).json, []);
  });
});

Deno.test("faults: closing the sandbox cuts a long injected delay short", async () => {
  const sb = await startTestSandbox();
  let pending: Promise<unknown> | undefined;
  try {
    await control(sb, "POST", "faults", { path: KEYS, delay_ms: 60_000 });
    pending = fetch(`${sb.url}${KEYS}`).then((r) => r.body?.cancel(), () => undefined);
    await new Promise((r) => setTimeout(r, 100));
  } finally {
    const started = performance.now();
    await sb.close();
    assert.ok(performance.now() - started < 5_000);
    await pending;
  }
});
