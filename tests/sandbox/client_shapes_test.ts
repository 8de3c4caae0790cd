/**
 * Requests shaped as widely used third-party clients of the platform send them: their default
 * 2-legged scope set (with `account:read`) and the official SDK's `//`-prefixed paths. The sandbox
 * must answer them as the platform does, or such a client fails on its first request.
 */
import assert from "node:assert/strict";
import { api, APP, basic, call, control, decodeJwt, tokenRequest, withSandbox } from "./helpers.ts";

/** The default 2-legged scope set of widely used clients. */
const CLIENT_DEFAULT_SCOPES = "data:read data:write data:create bucket:read bucket:create account:read";

Deno.test("a 2-legged token request with a client's default scope set, account:read included, is granted", async () => {
  await withSandbox(async (sb) => {
    const a = await tokenRequest(sb, { grant_type: "client_credentials", scope: CLIENT_DEFAULT_SCOPES }, {
      authorization: basic(APP.id, APP.secret),
    });
    assert.equal(a.status, 200, JSON.stringify(a.json));
    assert.deepEqual(
      [...decodeJwt(a.json.access_token).payload.scope as string[]].sort(),
      CLIENT_DEFAULT_SCOPES.split(" ").sort(),
    );
    for (const s of ["account:write", "code:all"]) {
      const t = await tokenRequest(sb, { grant_type: "client_credentials", scope: s }, {
        authorization: basic(APP.id, APP.secret),
      });
      assert.equal(t.status, 200, `${s}: ${JSON.stringify(t.json)}`);
    }
    // Scopes that need a user are still refused to an app alone.
    const user = await tokenRequest(sb, { grant_type: "client_credentials", scope: "data:read openid" }, {
      authorization: basic(APP.id, APP.secret),
    });
    assert.equal(user.status, 400);
    assert.match(JSON.stringify(user.json), /openid cannot be granted to a 2-legged token/);
  });
});

Deno.test("repeated slashes are collapsed as the platform's gateway does; the request log shows both paths", async () => {
  await withSandbox(async (sb) => {
    const sdkToken = await call(`${sb.url}//authentication/v2/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basic(APP.id, APP.secret),
      },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        scope: "bucket:read bucket:create data:read",
      }),
    });
    assert.equal(sdkToken.status, 200, JSON.stringify(sdkToken.json));
    const t = sdkToken.json.access_token;
    const created = await api(sb, "POST", "//oss/v2//buckets", t, {
      bucketKey: "slashes-b1",
      policyKey: "transient",
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const listed = await api(sb, "GET", "//oss/v2/buckets//slashes-b1/objects", t);
    assert.equal(listed.status, 200, JSON.stringify(listed.json));
    assert.deepEqual(listed.json.items, []);
    const formats = await api(sb, "GET", "//modelderivative/v2/designdata//formats", t);
    assert.equal(formats.status, 200);
    assert.ok(formats.json.formats);

    const log = (await control(sb, "GET", "requests")).json as { path: string; sent_path?: string }[];
    assert.deepEqual(log.map((e) => [e.path, e.sent_path]), [
      ["/authentication/v2/token", "//authentication/v2/token"],
      ["/oss/v2/buckets", "//oss/v2//buckets"],
      ["/oss/v2/buckets/slashes-b1/objects", "//oss/v2/buckets//slashes-b1/objects"],
      ["/modelderivative/v2/designdata/formats", "//modelderivative/v2/designdata//formats"],
    ]);
    // A single-slash path is logged as sent, without sent_path.
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", t)).status, 200);
    const last = (await control(sb, "GET", "requests")).json.at(-1);
    assert.equal(last.path, "/oss/v2/buckets");
    assert.equal("sent_path" in last, false);
  });
});
