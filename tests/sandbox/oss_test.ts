import assert from "node:assert/strict";
import { addApp, api, call, control, token, withSandbox } from "./helpers.ts";

const ALL = "bucket:read bucket:create bucket:delete";
const BAD_KEY = "Valid field 'bucketKey' must be of the form [-_.a-z0-9]{3,128}";

Deno.test("oss: listing follows next across pages with exact keys", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, ALL);
    const keys = Array.from({ length: 25 }, (_, i) => `bkt-${String(i).padStart(2, "0")}`);
    // Created out of order: the list is sorted by key regardless.
    for (const key of [...keys].reverse()) {
      assert.equal(
        (await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: key, policyKey: "transient" })).status,
        200,
      );
    }
    const pages: string[][] = [];
    let url: string | undefined = `${sb.url}/oss/v2/buckets?limit=10`;
    const nexts: (string | undefined)[] = [];
    while (url) {
      const a = await call(url, { headers: { authorization: `Bearer ${t}` } });
      assert.equal(a.status, 200);
      pages.push(a.json.items.map((i: { bucketKey: string }) => i.bucketKey));
      nexts.push(a.json.next);
      url = a.json.next;
      assert.ok(pages.length <= 3, "no more than three pages");
    }
    assert.deepEqual(pages, [keys.slice(0, 10), keys.slice(10, 20), keys.slice(20)]);
    assert.equal(nexts[0], `${sb.url}/oss/v2/buckets?startAt=bkt-09&limit=10`);
    assert.equal(nexts[1], `${sb.url}/oss/v2/buckets?startAt=bkt-19&limit=10`);
    assert.equal(nexts[2], undefined);
  });
});

Deno.test("oss: default page size is 10 and next is absent when the page ends exactly", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, ALL);
    for (let i = 0; i < 10; i++) {
      await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: `k${i}00`, policyKey: "temporary" });
    }
    const a = await api(sb, "GET", "/oss/v2/buckets", t);
    assert.equal(a.json.items.length, 10);
    assert.ok(!("next" in a.json));
    const item = a.json.items[0];
    assert.deepEqual(Object.keys(item).sort(), ["bucketKey", "createdDate", "policyKey"]);
    assert.equal(item.policyKey, "temporary");
    assert.equal(typeof item.createdDate, "number");
    const one = await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "k999", policyKey: "temporary" });
    assert.equal(one.status, 200);
    const b = await api(sb, "GET", "/oss/v2/buckets", t);
    assert.equal(b.json.items.length, 10);
    assert.equal(b.json.next, `${sb.url}/oss/v2/buckets?startAt=k900&limit=10`);
  });
});

Deno.test("oss: startAt is exclusive and limit must be 1..100", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, ALL);
    for (const k of ["aaa", "bbb", "ccc"]) {
      await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: k, policyKey: "transient" });
    }
    const a = await api(sb, "GET", "/oss/v2/buckets?startAt=aaa&limit=1", t);
    assert.deepEqual(a.json.items.map((i: { bucketKey: string }) => i.bucketKey), ["bbb"]);
    assert.equal(a.json.next, `${sb.url}/oss/v2/buckets?startAt=bbb&limit=1`);
    for (const limit of ["0", "101", "abc", "1.5", "-3", ""]) {
      const bad = await api(sb, "GET", `/oss/v2/buckets?limit=${limit}`, t);
      assert.equal(bad.status, 400, `limit=${limit}`);
      assert.equal(typeof bad.json.reason, "string");
    }
    assert.equal((await api(sb, "GET", "/oss/v2/buckets?limit=100", t)).status, 200);
  });
});

Deno.test("oss: region filter, and next keeps the filter", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, ALL);
    for (
      const [key, region] of [["us-1", "US"], ["emea-1", "EMEA"], ["emea-2", "EMEA"], ["emea-3", "EMEA"]]
    ) {
      const a = await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: key, policyKey: "transient" }, {
        region,
      });
      assert.equal(a.status, 200);
    }
    const a = await api(sb, "GET", "/oss/v2/buckets?region=EMEA&limit=2", t);
    assert.deepEqual(a.json.items.map((i: { bucketKey: string }) => i.bucketKey), ["emea-1", "emea-2"]);
    assert.equal(a.json.next, `${sb.url}/oss/v2/buckets?startAt=emea-2&limit=2&region=EMEA`);
    const b = await call(a.json.next, { headers: { authorization: `Bearer ${t}` } });
    assert.deepEqual(b.json.items.map((i: { bucketKey: string }) => i.bucketKey), ["emea-3"]);
    const us = await api(sb, "GET", "/oss/v2/buckets?region=US", t);
    assert.deepEqual(us.json.items.map((i: { bucketKey: string }) => i.bucketKey), ["us-1"]);
    assert.equal((await api(sb, "GET", "/oss/v2/buckets?region=MARS", t)).status, 400);
  });
});

Deno.test("oss: create answers the bucket with owner, permissions and region", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, ALL);
    const before = Date.now();
    const a = await api(sb, "POST", "/oss/v2/buckets", t, {
      bucketKey: "my-bucket_1.x",
      policyKey: "persistent",
    });
    assert.equal(a.status, 200);
    assert.ok(a.headers.get("content-type")?.startsWith("application/json"));
    const { createdDate, ...rest } = a.json;
    assert.deepEqual(rest, {
      bucketKey: "my-bucket_1.x",
      bucketOwner: "diazo-sandbox",
      permissions: [{ authId: "diazo-sandbox", access: "full" }],
      policyKey: "persistent",
      region: "US",
    });
    assert.ok(createdDate >= before && createdDate <= Date.now() + 5);
  });
});

Deno.test("oss: create validates key, policy and region", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, ALL);
    for (const bucketKey of ["UPPER", "ab", "a".repeat(129), "has space", "slash/x", 42, undefined]) {
      const a = await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey, policyKey: "transient" });
      assert.equal(a.status, 400, String(bucketKey));
      assert.deepEqual(a.json, { reason: BAD_KEY });
    }
    assert.equal(
      (await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "a".repeat(128), policyKey: "transient" }))
        .status,
      200,
    );
    for (const policyKey of ["forever", "", undefined, "Transient"]) {
      const a = await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "pol-ok", policyKey });
      assert.equal(a.status, 400, String(policyKey));
      assert.match(a.json.reason, /policyKey/);
    }
    const badRegion = await api(sb, "POST", "/oss/v2/buckets", t, {
      bucketKey: "reg-x",
      policyKey: "transient",
    }, {
      region: "MARS",
    });
    assert.equal(badRegion.status, 400);
    assert.match(badRegion.json.reason, /region/i);
    assert.equal((await api(sb, "POST", "/oss/v2/buckets", t, "not json")).status, 400);
    const state = await control(sb, "GET", "state");
    assert.deepEqual(state.json.buckets.map((b: { bucketKey: string }) => b.bucketKey), ["a".repeat(128)]);
  });
});

Deno.test("oss: the region header wins over x-ads-region; either alone works", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, ALL);
    const both = await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "both", policyKey: "transient" }, {
      region: "EMEA",
      "x-ads-region": "JPN",
    });
    assert.equal(both.json.region, "EMEA");
    const legacy = await api(sb, "POST", "/oss/v2/buckets", t, {
      bucketKey: "legacy",
      policyKey: "transient",
    }, {
      "x-ads-region": "AUS",
    });
    assert.equal(legacy.json.region, "AUS");
    const details = await api(sb, "GET", "/oss/v2/buckets/legacy/details", t);
    assert.equal(details.json.region, "AUS");
    // A valid region header wins even over an invalid legacy one.
    const mixed = await api(
      sb,
      "POST",
      "/oss/v2/buckets",
      t,
      { bucketKey: "mixed", policyKey: "transient" },
      {
        region: "GBR",
        "x-ads-region": "NOWHERE",
      },
    );
    assert.equal(mixed.status, 200);
    assert.equal(mixed.json.region, "GBR");
  });
});

Deno.test("oss: a taken key is 409 for any app", async () => {
  await withSandbox(async (sb) => {
    const other = await addApp(sb);
    const mine = await token(sb, ALL);
    const theirs = await token(sb, ALL, other);
    assert.equal(
      (await api(sb, "POST", "/oss/v2/buckets", mine, { bucketKey: "taken", policyKey: "transient" })).status,
      200,
    );
    for (const t of [mine, theirs]) {
      const a = await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "taken", policyKey: "persistent" });
      assert.equal(a.status, 409);
      assert.deepEqual(a.json, { reason: "Bucket already exists" });
    }
    const details = await api(sb, "GET", "/oss/v2/buckets/taken/details", mine);
    assert.equal(details.json.policyKey, "transient", "the conflict changed nothing");
  });
});

Deno.test("oss: apps see and touch only their own buckets", async () => {
  await withSandbox(async (sb) => {
    const other = await addApp(sb);
    const mine = await token(sb, ALL);
    const theirs = await token(sb, ALL, other);
    await api(sb, "POST", "/oss/v2/buckets", mine, { bucketKey: "mine-1", policyKey: "transient" });
    await api(sb, "POST", "/oss/v2/buckets", theirs, { bucketKey: "theirs-1", policyKey: "transient" });
    const a = await api(sb, "GET", "/oss/v2/buckets", mine);
    assert.deepEqual(a.json.items.map((i: { bucketKey: string }) => i.bucketKey), ["mine-1"]);
    const b = await api(sb, "GET", "/oss/v2/buckets", theirs);
    assert.deepEqual(b.json.items.map((i: { bucketKey: string }) => i.bucketKey), ["theirs-1"]);
    assert.equal(
      (await api(sb, "GET", "/oss/v2/buckets/theirs-1/details", theirs)).json.bucketOwner,
      other.id,
    );
    const peek = await api(sb, "GET", "/oss/v2/buckets/theirs-1/details", mine);
    assert.equal(peek.status, 403);
    assert.equal(typeof peek.json.reason, "string");
    const del = await api(sb, "DELETE", "/oss/v2/buckets/theirs-1", mine);
    assert.equal(del.status, 403);
    assert.equal(
      (await api(sb, "GET", "/oss/v2/buckets/theirs-1/details", theirs)).status,
      200,
      "still there",
    );
  });
});

Deno.test("oss: details, delete and 404", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, ALL);
    const created = await api(sb, "POST", "/oss/v2/buckets", t, {
      bucketKey: "gone-soon",
      policyKey: "temporary",
    });
    const details = await api(sb, "GET", "/oss/v2/buckets/gone-soon/details", t);
    assert.equal(details.status, 200);
    assert.deepEqual(details.json, created.json);
    const del = await call(`${sb.url}/oss/v2/buckets/gone-soon`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${t}` },
    });
    assert.equal(del.status, 200);
    assert.equal(del.json, null, "empty body");
    for (
      const [method, path] of [["GET", "/oss/v2/buckets/gone-soon/details"], [
        "DELETE",
        "/oss/v2/buckets/gone-soon",
      ]]
    ) {
      const a = await api(sb, method, path, t);
      assert.equal(a.status, 404, `${method} ${path}`);
      assert.deepEqual(a.json, { reason: "Bucket not found" });
    }
    assert.deepEqual((await api(sb, "GET", "/oss/v2/buckets", t)).json, { items: [] });
    assert.equal((await api(sb, "GET", "/oss/v2/buckets/BAD!/details", t)).status, 400);
  });
});

Deno.test("oss: createdDate follows the sandbox clock", async () => {
  await withSandbox(async (sb) => {
    await control(sb, "POST", "clock", { advance_seconds: 86_400 });
    const t = await token(sb, ALL);
    const a = await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "future", policyKey: "transient" });
    assert.equal(a.status, 200);
    assert.ok(a.json.createdDate >= Date.now() + 86_399_000);
  });
});
