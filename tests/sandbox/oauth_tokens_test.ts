import assert from "node:assert/strict";
import { addApp, api, APP, basic, control, decodeJwt, token, withSandbox } from "./helpers.ts";
import {
  authorizationCode,
  exchangeCode,
  login,
  refresh,
  SANDBOX_USERID,
  tokenManagement,
} from "./oauth_helpers.ts";

const INVALID = {
  developerMessage: "The token is not valid",
  errorCode: "AUTH-006",
  moreInfo: "https://aps.autodesk.com/en/docs/oauth/v2/developers_guide/error_handling/",
};

Deno.test("introspect: active tokens with their scope string, client, exp and userid", async () => {
  await withSandbox(async (sb) => {
    const t = await login(sb, "data:read bucket:read");
    const a = await tokenManagement(sb, "introspect", { token: t.access_token });
    assert.equal(a.status, 200);
    assert.deepEqual(a.json, {
      active: true,
      scope: "data:read bucket:read",
      client_id: APP.id,
      exp: decodeJwt(t.access_token).payload.exp,
      userid: SANDBOX_USERID,
    });
    const r = await tokenManagement(sb, "introspect", { token: t.refresh_token });
    assert.equal(r.json.active, true);
    assert.equal(r.json.userid, SANDBOX_USERID);

    const two = await token(sb, "bucket:read");
    const b = await tokenManagement(sb, "introspect", { token: two });
    assert.equal(b.json.active, true);
    assert.equal(b.json.scope, "bucket:read");
    assert.equal(b.json.userid, undefined, "2-legged tokens act for no user");

    // A public client introspects with its client id in the form.
    const pub = await tokenManagement(sb, "introspect", { token: two, client_id: APP.id }, {});
    assert.equal(pub.json.active, true);
  });
});

Deno.test("introspect: expired, revoked, spent, unknown, malformed and foreign tokens are inactive", async () => {
  await withSandbox(async (sb) => {
    const other = await addApp(sb);
    const foreign = await token(sb, "data:read", other);
    const t = await login(sb, "data:read");
    const spent = (await login(sb, "data:read")).refresh_token;
    assert.equal((await refresh(sb, spent)).status, 200);
    const revoked = (await login(sb, "data:read")).access_token;
    assert.equal(
      (await tokenManagement(sb, "revoke", { token: revoked, token_type_hint: "access_token" })).status,
      200,
    );
    for (const tok of [foreign, spent, revoked, "not-a-token", "a.b.c", `${t.access_token}x`]) {
      const a = await tokenManagement(sb, "introspect", { token: tok });
      assert.equal(a.status, 200);
      assert.deepEqual(a.json, { active: false }, tok.slice(0, 12));
    }
    await control(sb, "POST", "clock", { advance_seconds: 3600 });
    assert.deepEqual((await tokenManagement(sb, "introspect", { token: t.access_token })).json, {
      active: false,
    });
    assert.equal((await tokenManagement(sb, "introspect", { token: t.refresh_token })).json.active, true);
  });
});

Deno.test("introspect and revoke: client authentication and a token are required", async () => {
  await withSandbox(async (sb) => {
    for (const endpoint of ["introspect", "revoke"] as const) {
      const none = await tokenManagement(sb, endpoint, { token: "x", token_type_hint: "access_token" }, {});
      assert.equal(none.status, 400, endpoint);
      assert.equal(none.json.errorCode, "AUTH-008");
      const wrong = await tokenManagement(sb, endpoint, { token: "x", token_type_hint: "access_token" }, {
        authorization: basic(APP.id, "wrong"),
      });
      assert.equal(wrong.status, 401, endpoint);
      const noToken = await tokenManagement(sb, endpoint, {});
      assert.equal(noToken.status, 400, endpoint);
      assert.equal(noToken.json.error, "invalid_request");
    }
  });
});

Deno.test("revoke: a revoked access token fails the bearer check with AUTH-006", async () => {
  await withSandbox(async (sb) => {
    const t = await login(sb, "bucket:read");
    const keep = await login(sb, "bucket:read");
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", t.access_token)).status, 200);
    const res = await fetch(`${sb.url}/authentication/v2/revoke`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basic(APP.id, APP.secret),
      },
      body: new URLSearchParams({ token: t.access_token, token_type_hint: "access_token" }),
    });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "", "an empty body");
    const a = await api(sb, "GET", "/oss/v2/buckets", t.access_token);
    assert.equal(a.status, 401);
    assert.deepEqual(a.json, INVALID);
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", keep.access_token)).status, 200);
    // Revoking an access token leaves its refresh token usable.
    assert.equal((await refresh(sb, t.refresh_token)).status, 200);
  });
});

Deno.test("revoke: a revoked refresh token fails the refresh grant", async () => {
  await withSandbox(async (sb) => {
    const t = await login(sb, "data:read");
    const r = await tokenManagement(sb, "revoke", {
      token: t.refresh_token,
      token_type_hint: "refresh_token",
    });
    assert.equal(r.status, 200);
    const a = await refresh(sb, t.refresh_token);
    assert.equal(a.status, 400);
    assert.equal(a.json.error, "invalid_grant");
  });
});

Deno.test("revoke: another app's token, an unknown token and a wrong hint", async () => {
  await withSandbox(async (sb) => {
    const other = await addApp(sb);
    const t = await login(sb, "bucket:read");
    const byOther = await tokenManagement(sb, "revoke", {
      token: t.access_token,
      token_type_hint: "access_token",
    }, {
      authorization: basic(other.id, other.secret),
    });
    assert.equal(byOther.status, 200);
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", t.access_token)).status, 200, "not revoked");
    assert.equal(
      (await tokenManagement(sb, "revoke", { token: "nope", token_type_hint: "access_token" })).status,
      200,
    );
    const hint = await tokenManagement(sb, "revoke", { token: t.access_token, token_type_hint: "id_token" });
    assert.equal(hint.status, 400);
    assert.equal(hint.json.error, "unsupported_token_type");
  });
});

Deno.test("userinfo: the sandbox user's profile for a 3-legged token; 2-legged is refused", async () => {
  await withSandbox(async (sb) => {
    const discovery = await api(sb, "GET", "/.well-known/openid-configuration", undefined);
    assert.equal(discovery.json.userinfo_endpoint, `${sb.url}/userinfo`);
    for (const scope of ["user-profile:read", "user:read", "openid"]) {
      const t = await login(sb, scope);
      const a = await api(sb, "GET", "/userinfo", t.access_token);
      assert.equal(a.status, 200, scope);
      assert.equal(a.json.sub, SANDBOX_USERID);
      assert.equal(a.json.email, "sandbox.user@diazo.invalid");
      assert.equal(a.json.name, "Sandbox User");
      assert.equal(a.json.email_verified, true);
      for (
        const k of ["given_name", "family_name", "preferred_username", "locale", "address", "thumbnails"]
      ) {
        assert.ok(k in a.json, k);
      }
      assert.equal(typeof a.json.updated_at, "number");
      assert.equal(a.json.thumbnails.sizeX360.endsWith("X360.png"), true);
    }
    const noScope = await login(sb, "data:read");
    assert.equal((await api(sb, "GET", "/userinfo", noScope.access_token)).status, 403);
    const twoLegged = await token(sb, "data:read");
    const a = await api(sb, "GET", "/userinfo", twoLegged);
    assert.equal(a.status, 403);
    assert.equal(a.json.developerMessage, "Token does not have the privilege for this request.");
    assert.equal(a.json.errorCode, "AUTH-012");
    assert.equal((await api(sb, "GET", "/userinfo", undefined)).status, 401);
  });
});

Deno.test("request log: records grant types, counts refreshes, and holds no secrets", async () => {
  await withSandbox(async (sb) => {
    const secrets: string[] = [APP.secret];
    const two = await token(sb, "data:read");
    const { code, verifier } = await authorizationCode(sb, "data:read openid");
    const t = await exchangeCode(sb, code, verifier);
    secrets.push(two, code, verifier, t.json.access_token, t.json.refresh_token, t.json.id_token);
    let rt = t.json.refresh_token as string;
    for (let i = 0; i < 3; i++) {
      const r = await refresh(sb, rt);
      assert.equal(r.status, 200);
      secrets.push(r.json.access_token, r.json.refresh_token);
      rt = r.json.refresh_token;
    }
    await refresh(sb, t.json.refresh_token); // a reuse, refused
    await tokenManagement(sb, "introspect", { token: rt });
    await tokenManagement(sb, "revoke", { token: rt, token_type_hint: "refresh_token" });

    const log = (await control(sb, "GET", "requests")).json as Record<string, unknown>[];
    const tokenCalls = log.filter((e) => e.path === "/authentication/v2/token");
    assert.deepEqual(tokenCalls.map((e) => [e.grant_type, e.status]), [
      ["client_credentials", 200],
      ["authorization_code", 200],
      ["refresh_token", 200],
      ["refresh_token", 200],
      ["refresh_token", 200],
      ["refresh_token", 400],
    ]);
    assert.equal(tokenCalls.filter((e) => e.grant_type === "refresh_token" && e.status === 200).length, 3);
    assert.ok(tokenCalls.every((e) => e.client_id === APP.id));
    assert.ok(log.some((e) => e.path === "/authentication/v2/authorize" && e.status === 302));
    const text = JSON.stringify(log);
    for (const s of secrets) assert.ok(!text.includes(s), `the log holds no ${s.slice(0, 8)}...`);
  });
});
