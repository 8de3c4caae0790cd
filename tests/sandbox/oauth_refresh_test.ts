import assert from "node:assert/strict";
import { api, APP, basic, control, decodeJwt, tokenRequest, withSandbox } from "./helpers.ts";
import { login, publicLogin, refresh, SANDBOX_USERID } from "./oauth_helpers.ts";

Deno.test("refresh: rotation — the new refresh token works, the spent one is invalid_grant", async () => {
  await withSandbox(async (sb) => {
    const first = await login(sb, "data:read bucket:read");
    const r1 = await refresh(sb, first.refresh_token);
    assert.equal(r1.status, 200);
    assert.equal(r1.headers.get("cache-control"), "no-store");
    assert.deepEqual(Object.keys(r1.json).sort(), [
      "access_token",
      "expires_in",
      "refresh_token",
      "token_type",
    ]);
    assert.notEqual(r1.json.refresh_token, first.refresh_token);
    assert.notEqual(r1.json.access_token, first.access_token);
    const claims = decodeJwt(r1.json.access_token).payload;
    assert.equal(claims.userid, SANDBOX_USERID);
    assert.deepEqual(claims.scope, ["data:read", "bucket:read"]);

    const reused = await refresh(sb, first.refresh_token);
    assert.equal(reused.status, 400);
    assert.equal(reused.json.error, "invalid_grant");
    // Reuse revokes nothing else by default: the rotated token still works once.
    const r2 = await refresh(sb, r1.json.refresh_token);
    assert.equal(r2.status, 200);
    assert.equal((await refresh(sb, r1.json.refresh_token)).status, 400);
    assert.equal((await refresh(sb, "never-issued")).status, 400);
  });
});

Deno.test("refresh: with reuse detection on, a spent token revokes its family", async () => {
  await withSandbox(async (sb) => {
    await control(sb, "POST", "config", { refresh_reuse_revokes_family: true });
    const first = await login(sb, "data:read");
    const other = await login(sb, "data:read");
    const r1 = await refresh(sb, first.refresh_token);
    assert.equal(r1.status, 200);
    assert.equal((await refresh(sb, first.refresh_token)).status, 400);
    const r2 = await refresh(sb, r1.json.refresh_token);
    assert.equal(r2.status, 400, "the live token of the family was revoked");
    assert.equal(r2.json.error, "invalid_grant");
    assert.equal((await refresh(sb, other.refresh_token)).status, 200, "other logins are untouched");
  });
});

Deno.test("refresh: works after the access token expired on the sandbox clock", async () => {
  await withSandbox(async (sb) => {
    const t = await login(sb, "bucket:read");
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", t.access_token)).status, 200);
    await control(sb, "POST", "clock", { advance_seconds: 3600 });
    const expired = await api(sb, "GET", "/oss/v2/buckets", t.access_token);
    assert.equal(expired.status, 401);
    assert.equal(expired.json.errorCode, "AUTH-010");
    const r = await refresh(sb, t.refresh_token);
    assert.equal(r.status, 200);
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", r.json.access_token)).status, 200);
  });
});

Deno.test("refresh: a refresh token lives 15 days, or the configured TTL", async () => {
  await withSandbox(async (sb) => {
    const t = await login(sb, "data:read");
    await control(sb, "POST", "clock", { advance_seconds: 15 * 86400 - 5 });
    const r = await refresh(sb, t.refresh_token);
    assert.equal(r.status, 200, "still valid just before 15 days");
    await control(sb, "POST", "clock", { advance_seconds: 15 * 86400 });
    assert.equal((await refresh(sb, r.json.refresh_token)).status, 400, "expired after 15 days");

    const c = await control(sb, "POST", "config", { refresh_token_ttl_seconds: 60 });
    assert.equal(c.json.refresh_token_ttl_seconds, 60);
    const short = await login(sb, "data:read");
    await control(sb, "POST", "clock", { advance_seconds: 61 });
    const a = await refresh(sb, short.refresh_token);
    assert.equal(a.status, 400);
    assert.equal(a.json.error, "invalid_grant");
    assert.equal((await control(sb, "POST", "config", { refresh_token_ttl_seconds: -1 })).status, 400);
  });
});

Deno.test("refresh: scope may narrow the access token but not widen it", async () => {
  await withSandbox(async (sb) => {
    const t = await login(sb, "data:read data:write openid");
    const narrow = await refresh(sb, t.refresh_token, { scope: "data:read" });
    assert.equal(narrow.status, 200);
    assert.deepEqual(decodeJwt(narrow.json.access_token).payload.scope, ["data:read"]);
    assert.equal(narrow.json.id_token, undefined, "no openid, no ID token");
    // The rotated token keeps the original grant.
    const back = await refresh(sb, narrow.json.refresh_token, { scope: "data:write openid" });
    assert.equal(back.status, 200);
    assert.deepEqual(decodeJwt(back.json.access_token).payload.scope, ["data:write", "openid"]);
    assert.equal(typeof back.json.id_token, "string");

    const wide = await refresh(sb, back.json.refresh_token, { scope: "data:read bucket:delete" });
    assert.equal(wide.status, 400);
    assert.equal(wide.json.error, "invalid_scope");
    // A refused scope does not spend the token.
    assert.equal((await refresh(sb, back.json.refresh_token)).status, 200);
  });
});

Deno.test("refresh: bound to its client; a confidential grant needs the secret", async () => {
  await withSandbox(async (sb) => {
    await control(sb, "POST", "apps", { client_id: "other", client_secret: "other-secret" });
    const t = await login(sb, "data:read");
    const form = { grant_type: "refresh_token", refresh_token: t.refresh_token };
    const stolen = await tokenRequest(sb, form, { authorization: basic("other", "other-secret") });
    assert.equal(stolen.status, 400);
    assert.equal(stolen.json.error, "invalid_grant");
    const noSecret = await tokenRequest(sb, { ...form, client_id: APP.id });
    assert.equal(noSecret.status, 400);
    assert.equal(noSecret.json.errorCode, "AUTH-008");
    const wrong = await tokenRequest(sb, form, { authorization: basic(APP.id, "wrong") });
    assert.equal(wrong.status, 401);
    assert.equal((await refresh(sb, t.refresh_token)).status, 200, "none of the above spent it");
  });
});

Deno.test("refresh: a public client refreshes with its client id alone", async () => {
  await withSandbox(async (sb) => {
    const t = await publicLogin(sb, "data:read");
    assert.equal(t.status, 200);
    const r = await tokenRequest(sb, {
      grant_type: "refresh_token",
      client_id: APP.id,
      refresh_token: t.json.refresh_token,
    });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.equal(decodeJwt(r.json.access_token).payload.userid, SANDBOX_USERID);
  });
});
