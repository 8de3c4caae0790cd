import assert from "node:assert/strict";
import { api, APP, basic, control, decodeJwt, tokenRequest, withSandbox } from "./helpers.ts";
import {
  authorizationCode,
  authorize,
  CALLBACK,
  exchangeCode,
  pkcePair,
  publicLogin,
  SANDBOX_USERID,
} from "./oauth_helpers.ts";

Deno.test("oauth: full PKCE round trip, following the 302 by hand", async () => {
  await withSandbox(async (sb) => {
    const { verifier, challenge } = await pkcePair();
    const a = await authorize(sb, {
      scope: "data:read bucket:read openid",
      state: "abc-123_x.y,z",
      code_challenge: challenge,
      code_challenge_method: "S256",
      nonce: "n-0S6",
    });
    assert.equal(a.status, 302);
    assert.equal(`${a.location!.origin}${a.location!.pathname}`, CALLBACK);
    assert.equal(a.location!.searchParams.get("state"), "abc-123_x.y,z");
    const code = a.location!.searchParams.get("code")!;
    assert.match(code, /^[A-Za-z0-9_-]{20,}$/);

    const t = await exchangeCode(sb, code, verifier);
    assert.equal(t.status, 200);
    assert.equal(t.headers.get("cache-control"), "no-store");
    assert.deepEqual(Object.keys(t.json).sort(), [
      "access_token",
      "expires_in",
      "id_token",
      "refresh_token",
      "token_type",
    ]);
    assert.equal(t.json.token_type, "Bearer");
    assert.equal(t.json.expires_in, 3599);
    const { payload } = decodeJwt(t.json.access_token);
    assert.deepEqual(Object.keys(payload).sort(), [
      "aud",
      "client_id",
      "exp",
      "iss",
      "jti",
      "scope",
      "userid",
    ]);
    assert.deepEqual(payload.scope, ["data:read", "bucket:read", "openid"]);
    assert.equal(payload.userid, SANDBOX_USERID);
    assert.equal(payload.client_id, APP.id);
    assert.equal(payload.aud, "https://autodesk.com");

    const id = decodeJwt(t.json.id_token).payload;
    assert.equal(id.sub, SANDBOX_USERID);
    assert.equal(id.aud, APP.id);
    assert.equal(id.nonce, "n-0S6");
    assert.equal(id.user_email, "sandbox.user@diazo.invalid");
    assert.equal((id.exp as number) - (id.iat as number), 3600);

    // The 3-legged token passes the bearer check of a resource API.
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", t.json.access_token)).status, 200);
  });
});

Deno.test("oauth: no id_token without the openid scope", async () => {
  await withSandbox(async (sb) => {
    const { code, verifier } = await authorizationCode(sb, "data:read");
    const t = await exchangeCode(sb, code, verifier);
    assert.equal(t.status, 200);
    assert.equal(t.json.id_token, undefined);
    assert.equal(typeof t.json.refresh_token, "string");
  });
});

Deno.test("oauth: a wrong verifier is invalid_grant and spends the code", async () => {
  await withSandbox(async (sb) => {
    const { code, verifier } = await authorizationCode(sb, "data:read");
    const other = await pkcePair();
    const bad = await exchangeCode(sb, code, other.verifier);
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error, "invalid_grant");
    assert.match(bad.json.error_description, /code_verifier/);
    const retry = await exchangeCode(sb, code, verifier);
    assert.equal(retry.status, 400);
    assert.equal(retry.json.error, "invalid_grant");
  });
});

Deno.test("oauth: a missing or malformed verifier is invalid_grant when PKCE was used", async () => {
  await withSandbox(async (sb) => {
    for (const verifier of ["", "short", "x".repeat(129), "a b".repeat(20)]) {
      const { code } = await authorizationCode(sb, "data:read");
      const a = await exchangeCode(sb, code, verifier);
      assert.equal(a.status, 400, `verifier '${verifier}'`);
      assert.equal(a.json.error, "invalid_grant");
    }
  });
});

Deno.test("oauth: a code is single-use", async () => {
  await withSandbox(async (sb) => {
    const { code, verifier } = await authorizationCode(sb, "data:read");
    assert.equal((await exchangeCode(sb, code, verifier)).status, 200);
    const again = await exchangeCode(sb, code, verifier);
    assert.equal(again.status, 400);
    assert.equal(again.json.error, "invalid_grant");
  });
});

Deno.test("oauth: a code expires after 5 minutes on the sandbox clock", async () => {
  await withSandbox(async (sb) => {
    const early = await authorizationCode(sb, "data:read");
    const late = await authorizationCode(sb, "data:read");
    await control(sb, "POST", "clock", { advance_seconds: 299 });
    assert.equal((await exchangeCode(sb, early.code, early.verifier)).status, 200, "valid just before");
    await control(sb, "POST", "clock", { advance_seconds: 2 });
    const a = await exchangeCode(sb, late.code, late.verifier);
    assert.equal(a.status, 400);
    assert.equal(a.json.error, "invalid_grant");
    assert.match(a.json.error_description, /expired/);
  });
});

Deno.test("oauth: a code is bound to its client and redirect_uri", async () => {
  await withSandbox(async (sb) => {
    await control(sb, "POST", "apps", { client_id: "other", client_secret: "other-secret" });
    const { code, verifier } = await authorizationCode(sb, "data:read");
    const form = { grant_type: "authorization_code", code, redirect_uri: CALLBACK, code_verifier: verifier };
    const stolen = await tokenRequest(sb, form, { authorization: basic("other", "other-secret") });
    assert.equal(stolen.status, 400);
    assert.equal(stolen.json.error, "invalid_grant");
    const wrongUri = await tokenRequest(sb, { ...form, redirect_uri: "http://localhost:8080/other" }, {
      authorization: basic(APP.id, APP.secret),
    });
    assert.equal(wrongUri.status, 400);
    assert.equal(wrongUri.json.error, "invalid_grant");
    assert.match(wrongUri.json.error_description, /redirect_uri/);
  });
});

Deno.test("oauth: a redirect_uri other than the registered callback is 400 with no redirect", async () => {
  await withSandbox(async (sb) => {
    for (const uri of [`${CALLBACK}/`, "http://localhost:8081/callback", "http://evil.example/cb"]) {
      const a = await authorize(sb, { scope: "data:read", state: "s1", redirect_uri: uri });
      assert.equal(a.status, 400, uri);
      assert.equal(a.location, undefined);
      assert.deepEqual(a.json, {
        error: "invalid_request",
        error_description: "redirect_uri mismatch",
        developerMessage: "The redirect_uri does not match the callback URL registered for the app",
      });
    }
    // A registered callback of another app is matched exactly too.
    const reg = await control(sb, "POST", "apps", {
      client_id: "web",
      client_secret: "web-secret",
      callback_url: "http://127.0.0.1:9999/cb?x=1",
    });
    assert.equal(reg.status, 201);
    const ok = await authorize(sb, {
      client_id: "web",
      redirect_uri: "http://127.0.0.1:9999/cb?x=1",
      scope: "data:read",
    });
    assert.equal(ok.status, 302);
    assert.equal(ok.location!.searchParams.get("x"), "1");
    assert.ok(ok.location!.searchParams.get("code"));
    assert.equal(
      (await control(sb, "POST", "apps", { client_id: "bad", client_secret: "s", callback_url: "not a url" }))
        .status,
      400,
    );
  });
});

Deno.test("oauth: an unknown client is 400 with no redirect", async () => {
  await withSandbox(async (sb) => {
    const a = await authorize(sb, { client_id: "nobody", scope: "data:read" });
    assert.equal(a.status, 400);
    assert.equal(a.location, undefined);
    assert.equal(a.json.error, "invalid_client");
  });
});

Deno.test("oauth: unknown or missing scopes redirect with invalid_scope and the state", async () => {
  await withSandbox(async (sb) => {
    // No scope is 2-legged-only: code:all is granted to a user too.
    for (const scope of ["data:read bogus:scope", "bogus:scope", ""]) {
      const a = await authorize(sb, { scope, state: "keep-me" });
      assert.equal(a.status, 302, `scope '${scope}'`);
      const p = a.location!.searchParams;
      assert.equal(`${a.location!.origin}${a.location!.pathname}`, CALLBACK);
      assert.equal(p.get("error"), "invalid_scope");
      assert.ok(p.get("error_description"));
      assert.equal(p.get("state"), "keep-me");
      assert.equal(p.get("code"), null);
    }
  });
});

Deno.test("oauth: plain PKCE and other malformed requests redirect with invalid_request", async () => {
  await withSandbox(async (sb) => {
    const { challenge } = await pkcePair();
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge: challenge, code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge: challenge }, "invalid_request"],
      [{ code_challenge_method: "S256" }, "invalid_request"],
      [{ code_challenge: "too-short", code_challenge_method: "S256" }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
    ];
    for (const [params, error] of cases) {
      const a = await authorize(sb, { scope: "data:read", state: "s", ...params });
      assert.equal(a.status, 302, JSON.stringify(params));
      assert.equal(a.location!.searchParams.get("error"), error, JSON.stringify(params));
      assert.equal(a.location!.searchParams.get("state"), "s");
    }
    const badState = await authorize(sb, { scope: "data:read", state: "no spaces!" });
    assert.equal(badState.location!.searchParams.get("error"), "invalid_request");
    assert.equal(badState.location!.searchParams.get("state"), null);
  });
});

Deno.test("oauth: consent switched to deny redirects with access_denied", async () => {
  await withSandbox(async (sb) => {
    const c = await control(sb, "POST", "config", { consent: "deny" });
    assert.equal(c.status, 200);
    assert.equal(c.json.consent, "deny");
    const a = await authorize(sb, { scope: "data:read", state: "d-1" });
    assert.equal(a.status, 302);
    assert.equal(a.location!.searchParams.get("error"), "access_denied");
    assert.equal(a.location!.searchParams.get("state"), "d-1");
    assert.equal(a.location!.searchParams.get("code"), null);
    await control(sb, "POST", "config", { consent: "approve" });
    assert.ok((await authorize(sb, { scope: "data:read" })).location!.searchParams.get("code"));
    assert.equal((await control(sb, "POST", "config", { consent: "maybe" })).status, 400);
  });
});

Deno.test("oauth: a public client exchanges with client_id and verifier, no secret", async () => {
  await withSandbox(async (sb) => {
    const t = await publicLogin(sb, "data:read");
    assert.equal(t.status, 200, JSON.stringify(t.json));
    assert.equal(decodeJwt(t.json.access_token).payload.userid, SANDBOX_USERID);

    // Without PKCE a client must authenticate with its secret.
    const plain = await authorize(sb, { scope: "data:read" });
    const noPkceCode = plain.location!.searchParams.get("code")!;
    const pub = await tokenRequest(sb, {
      grant_type: "authorization_code",
      client_id: APP.id,
      code: noPkceCode,
      redirect_uri: CALLBACK,
    });
    assert.equal(pub.status, 400);
    assert.equal(pub.json.errorCode, "AUTH-008");
    const conf = await tokenRequest(
      sb,
      { grant_type: "authorization_code", code: noPkceCode, redirect_uri: CALLBACK },
      { authorization: basic(APP.id, APP.secret) },
    );
    assert.equal(conf.status, 200);

    const unknown = await tokenRequest(sb, {
      grant_type: "authorization_code",
      client_id: "nobody",
      code: "x",
      redirect_uri: CALLBACK,
    });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.json.error, "invalid_client");
  });
});

Deno.test("oauth: fragment response mode puts the code in the fragment", async () => {
  await withSandbox(async (sb) => {
    const a = await authorize(sb, { scope: "data:read", state: "f", response_mode: "fragment" });
    assert.equal(a.status, 302);
    assert.equal(a.location!.search, "");
    const frag = new URLSearchParams(a.location!.hash.slice(1));
    assert.ok(frag.get("code"));
    assert.equal(frag.get("state"), "f");
  });
});

Deno.test("oauth: logout redirects to post_logout_redirect_uri, or answers 200", async () => {
  await withSandbox(async (sb) => {
    const to = "http://localhost:8080/bye?x=1";
    const res = await fetch(
      `${sb.url}/authentication/v2/logout?post_logout_redirect_uri=${encodeURIComponent(to)}`,
      { redirect: "manual" },
    );
    await res.body?.cancel();
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), to);
    const plain = await fetch(`${sb.url}/authentication/v2/logout`, { redirect: "manual" });
    await plain.body?.cancel();
    assert.equal(plain.status, 200);
  });
});
