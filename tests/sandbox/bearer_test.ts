import assert from "node:assert/strict";
import { startSandbox } from "../../src/sandbox/server.ts";
import { api, control, token, withSandbox } from "./helpers.ts";

const HELP = "https://aps.autodesk.com/en/docs/oauth/v2/developers_guide/error_handling/";
const INVALID = { developerMessage: "The token is not valid", errorCode: "AUTH-006", moreInfo: HELP };
const EXPIRED = { developerMessage: "The token has expired", errorCode: "AUTH-010", moreInfo: HELP };
const FORBIDDEN = {
  developerMessage: "Token does not have the privilege for this request.",
  errorCode: "AUTH-012",
  moreInfo: HELP,
};

Deno.test("bearer: a missing or malformed token is 401 AUTH-006", async () => {
  await withSandbox(async (sb) => {
    for (const bearer of [undefined, "garbage", "a.b.c", "e30.e30.e30"]) {
      const a = await api(sb, "GET", "/oss/v2/buckets", bearer);
      assert.equal(a.status, 401, String(bearer));
      assert.deepEqual(a.json, INVALID);
    }
    const basicAuth = await api(sb, "GET", "/oss/v2/buckets", undefined, undefined, {
      authorization: "Basic eDp5",
    });
    assert.equal(basicAuth.status, 401);
    assert.deepEqual(basicAuth.json, INVALID);
  });
});

Deno.test("bearer: a token with a broken signature is 401 AUTH-006", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "bucket:read");
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", t)).status, 200);
    const [h, p, s] = t.split(".");
    const flipped = s.slice(0, 10) + (s[10] === "A" ? "B" : "A") + s.slice(11);
    const a = await api(sb, "GET", "/oss/v2/buckets", `${h}.${p}.${flipped}`);
    assert.equal(a.status, 401);
    assert.deepEqual(a.json, INVALID);
  });
});

Deno.test("bearer: a token of another sandbox (unknown kid) is 401 AUTH-006", async () => {
  const other = await startSandbox({ port: 0 });
  try {
    const foreign = await token(other, "bucket:read");
    await withSandbox(async (sb) => {
      const a = await api(sb, "GET", "/oss/v2/buckets", foreign);
      assert.equal(a.status, 401);
      assert.deepEqual(a.json, INVALID);
    });
  } finally {
    await other.close();
  }
});

Deno.test("bearer: a token expires when the sandbox clock reaches exp (AUTH-010)", async () => {
  await withSandbox(async (sb) => {
    await control(sb, "POST", "config", { token_ttl_seconds: 60 });
    const t = await token(sb, "bucket:read");
    await control(sb, "POST", "clock", { advance_seconds: 58 });
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", t)).status, 200, "still valid before exp");
    const clock = await control(sb, "POST", "clock", { advance_seconds: 3 });
    assert.equal(clock.json.offset_seconds, 61);
    const a = await api(sb, "GET", "/oss/v2/buckets", t);
    assert.equal(a.status, 401);
    assert.deepEqual(a.json, EXPIRED);
    // A new token is valid again on the advanced clock.
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", await token(sb, "bucket:read"))).status, 200);
  });
});

Deno.test("bearer: a token lacking every accepted scope is 403 AUTH-012", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "data:read data:write bucket:create");
    const a = await api(sb, "GET", "/oss/v2/buckets", t);
    assert.equal(a.status, 403);
    assert.deepEqual(a.json, FORBIDDEN);
    const del = await api(sb, "DELETE", "/oss/v2/buckets/whatever", t);
    assert.equal(del.status, 403);
    assert.deepEqual(del.json, FORBIDDEN);
  });
});

Deno.test("bearer: any one of a route's scopes is enough (details accepts viewables:read)", async () => {
  await withSandbox(async (sb) => {
    const creator = await token(sb, "bucket:create");
    assert.equal(
      (await api(sb, "POST", "/oss/v2/buckets", creator, { bucketKey: "vis", policyKey: "transient" }))
        .status,
      200,
    );
    const viewer = await token(sb, "viewables:read");
    const a = await api(sb, "GET", "/oss/v2/buckets/vis/details", viewer);
    assert.equal(a.status, 200);
    assert.equal(a.json.bucketKey, "vis");
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", viewer)).status, 403, "list needs bucket:read");
  });
});

Deno.test("bearer: tokens issued before a reset are no longer valid", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "bucket:read");
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", t)).status, 200);
    await control(sb, "POST", "reset");
    const a = await api(sb, "GET", "/oss/v2/buckets", t);
    assert.equal(a.status, 401);
    assert.deepEqual(a.json, INVALID);
  });
});
