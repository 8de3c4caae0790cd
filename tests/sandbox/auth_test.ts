import assert from "node:assert/strict";
import { addApp, APP, basic, call, control, decodeJwt, tokenRequest, withSandbox } from "./helpers.ts";

const CC = { grant_type: "client_credentials" };

async function verifyWithJwks(jwksUrl: string, jwt: string): Promise<boolean> {
  const { keys } = (await call(jwksUrl)).json as { keys: (JsonWebKey & { kid: string })[] };
  const { header } = decodeJwt(jwt);
  const jwk = keys.find((k) => k.kid === header.kid);
  assert.ok(jwk, "the token's kid is published");
  const key = await crypto.subtle.importKey(
    "jwk",
    jwk,
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    false,
    [
      "verify",
    ],
  );
  const [h, p, s] = jwt.split(".");
  return await crypto.subtle.verify(
    "RSASSA-PKCS1-v1_5",
    key,
    Uint8Array.fromBase64(s, { alphabet: "base64url" }),
    new TextEncoder().encode(`${h}.${p}`),
  );
}

Deno.test("token: client_credentials with Basic auth returns a signed JWT with the platform's claims", async () => {
  await withSandbox(async (sb) => {
    const before = Math.floor(Date.now() / 1000);
    const a = await tokenRequest(sb, { ...CC, scope: "data:read bucket:read data:read" }, {
      authorization: basic(APP.id, APP.secret),
    });
    assert.equal(a.status, 200);
    assert.deepEqual(Object.keys(a.json).sort(), ["access_token", "expires_in", "token_type"]);
    assert.equal(a.json.token_type, "Bearer");
    assert.equal(a.json.expires_in, 3599);
    const { header, payload } = decodeJwt(a.json.access_token);
    assert.equal(header.alg, "RS256");
    assert.equal(header["pi.atm"], "assc");
    assert.equal(typeof header.kid, "string");
    assert.deepEqual(Object.keys(payload).sort(), ["aud", "client_id", "exp", "iss", "jti", "scope"]);
    assert.deepEqual(payload.scope, ["data:read", "bucket:read"]);
    assert.equal(payload.client_id, APP.id);
    assert.equal(payload.iss, "https://developer.api.autodesk.com");
    assert.equal(payload.aud, "https://autodesk.com");
    const exp = payload.exp as number;
    assert.ok(exp >= before + 3599 && exp <= before + 3601, `exp ${exp} is about now + 3599`);
    assert.ok(await verifyWithJwks(`${sb.url}/authentication/v2/keys`, a.json.access_token));

    // A second token has its own jti.
    const b = await tokenRequest(sb, { ...CC, scope: "data:read" }, {
      authorization: basic(APP.id, APP.secret),
    });
    assert.notEqual(decodeJwt(b.json.access_token).payload.jti, payload.jti);
  });
});

Deno.test("token: a tampered token no longer verifies against the JWKS", async () => {
  await withSandbox(async (sb) => {
    const a = await tokenRequest(sb, { ...CC, scope: "data:read" }, {
      authorization: basic(APP.id, APP.secret),
    });
    const [h, p, s] = a.json.access_token.split(".");
    const forged = JSON.parse(new TextDecoder().decode(Uint8Array.fromBase64(p, { alphabet: "base64url" })));
    forged.scope = ["data:write"];
    const p2 = new TextEncoder().encode(JSON.stringify(forged)).toBase64({
      alphabet: "base64url",
      omitPadding: true,
    });
    assert.equal(await verifyWithJwks(`${sb.url}/authentication/v2/keys`, `${h}.${p2}.${s}`), false);
  });
});

Deno.test("token: JWKS publishes one RS256 signing key", async () => {
  await withSandbox(async (sb) => {
    const a = await call(`${sb.url}/authentication/v2/keys`);
    assert.equal(a.status, 200);
    assert.equal(a.json.keys.length, 1);
    const k = a.json.keys[0];
    assert.deepEqual(Object.keys(k).sort(), ["alg", "e", "kid", "kty", "n", "use"]);
    assert.equal(k.kty, "RSA");
    assert.equal(k.use, "sig");
    assert.equal(k.alg, "RS256");
    assert.equal(k.e, "AQAB");
    assert.equal(Uint8Array.fromBase64(k.n, { alphabet: "base64url" }).length, 256, "2048-bit modulus");
  });
});

Deno.test("token: credentials in the form body are accepted too", async () => {
  await withSandbox(async (sb) => {
    const a = await tokenRequest(sb, {
      ...CC,
      scope: "code:all",
      client_id: APP.id,
      client_secret: APP.secret,
    });
    assert.equal(a.status, 200);
    assert.deepEqual(decodeJwt(a.json.access_token).payload.scope, ["code:all"]);
  });
});

Deno.test("token: a second registered app gets tokens with its own client id", async () => {
  await withSandbox(async (sb) => {
    const other = await addApp(sb);
    const a = await tokenRequest(sb, { ...CC, scope: "data:read" }, {
      authorization: basic(other.id, other.secret),
    });
    assert.equal(a.status, 200);
    assert.equal(decodeJwt(a.json.access_token).payload.client_id, other.id);
    const dup = await control(sb, "POST", "apps", { client_id: other.id, client_secret: "x" });
    assert.equal(dup.status, 409);
  });
});

Deno.test("token: wrong secret or unknown client is 401 invalid_client", async () => {
  await withSandbox(async (sb) => {
    const expected = {
      error: "invalid_client",
      error_description: "Client authentication failed",
      developerMessage: "Client authentication failed",
      errorCode: "AUTH-001",
    };
    for (const auth of [basic(APP.id, "wrong"), basic("nobody", APP.secret), "Basic !!!not-base64"]) {
      const a = await tokenRequest(sb, { ...CC, scope: "data:read" }, { authorization: auth });
      assert.equal(a.status, 401, auth);
      assert.deepEqual(a.json, expected);
    }
    const form = await tokenRequest(sb, {
      ...CC,
      scope: "data:read",
      client_id: APP.id,
      client_secret: "nope",
    });
    assert.equal(form.status, 401);
    assert.deepEqual(form.json, expected);
  });
});

Deno.test("token: missing credentials is 400 AUTH-008", async () => {
  await withSandbox(async (sb) => {
    for (const form of [{ ...CC, scope: "data:read" }, { ...CC, scope: "data:read", client_id: APP.id }]) {
      const a = await tokenRequest(sb, form);
      assert.equal(a.status, 400);
      assert.deepEqual(a.json, {
        developerMessage: "The required parameter(s) client_id,client_secret not present in the request",
        errorCode: "AUTH-008",
      });
    }
  });
});

Deno.test("token: unknown, missing and user-only scopes are invalid_scope (account:* is granted to apps)", async () => {
  await withSandbox(async (sb) => {
    const auth = { authorization: basic(APP.id, APP.secret) };
    for (
      const scope of ["data:read bogus:scope", "", "data:read user-profile:read", "openid"]
    ) {
      const a = await tokenRequest(sb, { ...CC, scope }, auth);
      assert.equal(a.status, 400, `scope '${scope}'`);
      assert.equal(a.json.error, "invalid_scope");
      assert.equal(typeof a.json.error_description, "string");
      assert.ok(a.json.error_description.length > 0);
    }
    const noScope = await tokenRequest(sb, CC, auth);
    assert.equal(noScope.status, 400);
    assert.equal(noScope.json.error, "invalid_scope");
    // data:read:<urn> narrows data:read and is grantable.
    const narrow = await tokenRequest(sb, { ...CC, scope: "data:read:dXJuOmFkc2s" }, auth);
    assert.equal(narrow.status, 200);
  });
});

Deno.test("token: unsupported or missing grant_type is 400 unsupported_grant_type", async () => {
  await withSandbox(async (sb) => {
    const auth = { authorization: basic(APP.id, APP.secret) };
    const forms: Record<string, string>[] = [{ grant_type: "password", scope: "data:read" }, {
      scope: "data:read",
    }];
    for (const form of forms) {
      const a = await tokenRequest(sb, form, auth);
      assert.equal(a.status, 400);
      assert.equal(a.json.error, "unsupported_grant_type");
    }
  });
});

Deno.test("token: the configured TTL sets expires_in and exp", async () => {
  await withSandbox(async (sb) => {
    const c = await control(sb, "POST", "config", { token_ttl_seconds: 120 });
    assert.equal(c.status, 200);
    assert.deepEqual(c.json, {
      token_ttl_seconds: 120,
      auto_approve: false,
      refresh_token_ttl_seconds: 1_296_000,
      consent: "approve",
      refresh_reuse_revokes_family: false,
      job_seconds: 4,
      device_flow: false,
      device_interval_seconds: 5,
      da_health: {},
      webhook_timeout_ms: 7000,
      webhook_retries: 8,
      webhook_retry_delay_ms: 20_000,
      webhook_failure_limit: 5,
      webhook_page_size: 200,
    });
    const a = await tokenRequest(sb, { ...CC, scope: "data:read" }, {
      authorization: basic(APP.id, APP.secret),
    });
    assert.equal(a.json.expires_in, 120);
    const exp = decodeJwt(a.json.access_token).payload.exp as number;
    const now = Math.floor(Date.now() / 1000);
    assert.ok(exp >= now + 119 && exp <= now + 121);
    assert.equal((await control(sb, "POST", "config", { token_ttl_seconds: 0 })).status, 400);
  });
});

Deno.test("token: exp follows the sandbox clock", async () => {
  await withSandbox(async (sb) => {
    await control(sb, "POST", "clock", { advance_seconds: 7200 });
    const a = await tokenRequest(sb, { ...CC, scope: "data:read" }, {
      authorization: basic(APP.id, APP.secret),
    });
    const exp = decodeJwt(a.json.access_token).payload.exp as number;
    const now = Math.floor(Date.now() / 1000);
    assert.ok(exp >= now + 7200 + 3598 && exp <= now + 7200 + 3600, `exp ${exp}`);
  });
});

Deno.test("discovery: endpoints on the sandbox base URL, no device endpoint", async () => {
  await withSandbox(async (sb) => {
    const a = await call(`${sb.url}/.well-known/openid-configuration`);
    assert.equal(a.status, 200);
    const d = a.json;
    assert.equal(d.issuer, "https://developer.api.autodesk.com");
    assert.equal(d.authorization_endpoint, `${sb.url}/authentication/v2/authorize`);
    assert.equal(d.token_endpoint, `${sb.url}/authentication/v2/token`);
    assert.equal(d.jwks_uri, `${sb.url}/authentication/v2/keys`);
    assert.equal(d.revocation_endpoint, `${sb.url}/authentication/v2/revoke`);
    assert.equal(d.introspection_endpoint, `${sb.url}/authentication/v2/introspect`);
    assert.equal(d.userinfo_endpoint, `${sb.url}/userinfo`);
    assert.equal(d.device_authorization_endpoint, undefined);
    assert.ok(!JSON.stringify(d).includes("device"));
    assert.ok(d.scopes_supported.includes("bucket:read"));
    assert.deepEqual(d.id_token_signing_alg_values_supported, ["RS256"]);
    // The published JWKS is the one the sandbox signs with.
    assert.equal((await call(d.jwks_uri)).status, 200);
  });
});
