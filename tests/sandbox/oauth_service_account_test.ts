import assert from "node:assert/strict";
import type { Sandbox } from "../../src/sandbox/server.ts";
import { addApp, api, APP, basic, control, decodeJwt, tokenRequest, withSandbox } from "./helpers.ts";

const AUD = "https://developer.api.autodesk.com/authentication/v2/token";
const GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ALG = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

interface CreatedAccount {
  serviceAccountId: string;
  email: string;
  keyId: string;
  privateKey: string;
}

async function createAccount(sb: Sandbox, body: Record<string, unknown> = {}): Promise<CreatedAccount> {
  const a = await control(sb, "POST", "service-accounts", body);
  assert.equal(a.status, 201, JSON.stringify(a.json));
  return a.json;
}

async function importPem(pem: string): Promise<CryptoKey> {
  const b64 = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, "").replace(/\s+/g, "");
  return await crypto.subtle.importKey("pkcs8", Uint8Array.fromBase64(b64), ALG, false, ["sign"]);
}

const enc = (o: unknown) =>
  new TextEncoder().encode(JSON.stringify(o)).toBase64({ alphabet: "base64url", omitPadding: true });

/** Signs an assertion with `pem`; `claims` override the valid defaults. */
async function assertion(
  pem: string,
  sa: CreatedAccount,
  claims: Record<string, unknown> = {},
  header: Record<string, unknown> = { kid: sa.keyId },
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const head = enc({ alg: "RS256", typ: "JWT", ...header });
  const body = enc({
    iss: APP.id,
    sub: sa.serviceAccountId,
    aud: AUD,
    exp: now + 300,
    scope: ["data:read"],
    ...claims,
  });
  const sig = await crypto.subtle.sign(
    ALG,
    await importPem(pem),
    new TextEncoder().encode(`${head}.${body}`),
  );
  return `${head}.${body}.${new Uint8Array(sig).toBase64({ alphabet: "base64url", omitPadding: true })}`;
}

function exchange(sb: Sandbox, jwt: string, extra: Record<string, string> = {}) {
  return tokenRequest(sb, { grant_type: GRANT, assertion: jwt, ...extra }, {
    authorization: basic(APP.id, APP.secret),
  });
}

Deno.test("service account: create via control, sign an assertion, get a 3-legged token", async () => {
  await withSandbox(async (sb) => {
    const sa = await createAccount(sb, { name: "ci-robot" });
    assert.match(sa.serviceAccountId, /^[A-Z0-9]{16}$/);
    assert.equal(sa.email, `ci-robot@${APP.id}.adskserviceaccount.autodesk.com`);
    assert.match(sa.keyId, /^[0-9a-f-]{36}$/);
    assert.match(
      sa.privateKey,
      /^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+\n-----END PRIVATE KEY-----\n$/,
    );

    const a = await exchange(sb, await assertion(sa.privateKey, sa, { scope: ["data:read", "bucket:read"] }));
    assert.equal(a.status, 200, JSON.stringify(a.json));
    assert.deepEqual(Object.keys(a.json).sort(), ["access_token", "expires_in", "token_type"]);
    assert.equal(a.json.token_type, "Bearer");
    const claims = decodeJwt(a.json.access_token).payload;
    assert.equal(claims.userid, sa.serviceAccountId);
    assert.equal(claims.client_id, APP.id);
    assert.deepEqual(claims.scope, ["data:read", "bucket:read"]);
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", a.json.access_token)).status, 200);

    // The form's scope narrows the assertion's; the key id may be left out.
    const narrow = await exchange(
      sb,
      await assertion(sa.privateKey, sa, { scope: ["data:read", "bucket:read"] }, {}),
      { scope: "bucket:read" },
    );
    assert.equal(narrow.status, 200, JSON.stringify(narrow.json));
    assert.deepEqual(decodeJwt(narrow.json.access_token).payload.scope, ["bucket:read"]);
    const wide = await exchange(sb, await assertion(sa.privateKey, sa), { scope: "data:write" });
    assert.equal(wide.status, 400);
    assert.equal(wide.json.error, "invalid_scope");

    const state = await control(sb, "GET", "state");
    assert.equal(state.json.service_accounts[0].serviceAccountId, sa.serviceAccountId);
    assert.ok(!JSON.stringify(state.json).includes("PRIVATE KEY"), "the private key is not kept");
  });
});

Deno.test("service account: the token reads the account's profile from userinfo", async () => {
  await withSandbox(async (sb) => {
    const sa = await createAccount(sb, { name: "profile-bot" });
    const a = await exchange(sb, await assertion(sa.privateKey, sa, { scope: ["user-profile:read"] }));
    assert.equal(a.status, 200);
    const info = await api(sb, "GET", "/userinfo", a.json.access_token);
    assert.equal(info.status, 200);
    assert.equal(info.json.sub, sa.serviceAccountId);
    assert.equal(info.json.email, sa.email);
  });
});

Deno.test("service account: bad signature, wrong aud, iss or sub, expired or too long are invalid_grant", async () => {
  await withSandbox(async (sb) => {
    const sa = await createAccount(sb);
    const other = await createAccount(sb);
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, Promise<string>][] = [
      ["signed by another account's key", assertion(other.privateKey, sa, {}, {})],
      ["unknown kid", assertion(sa.privateKey, sa, {}, { kid: other.keyId })],
      ["wrong aud", assertion(sa.privateKey, sa, { aud: "https://autodesk.com" })],
      ["wrong iss", assertion(sa.privateKey, sa, { iss: "someone-else" })],
      ["unknown sub", assertion(sa.privateKey, sa, { sub: "NOSUCHACCOUNT000" })],
      ["expired", assertion(sa.privateKey, sa, { exp: now - 10 })],
      ["exp over an hour ahead", assertion(sa.privateKey, sa, { exp: now + 3700 })],
      ["no exp", assertion(sa.privateKey, sa, { exp: undefined })],
      ["scope not an array", assertion(sa.privateKey, sa, { scope: "data:read" })],
    ];
    for (const [what, jwt] of cases) {
      const a = await exchange(sb, await jwt);
      assert.equal(a.status, 400, what);
      assert.equal(a.json.error, "invalid_grant", what);
    }
    const good = await assertion(sa.privateKey, sa);
    const [h, p, s] = good.split(".");
    const tampered = await exchange(
      sb,
      `${h}.${enc({ ...decodeJwt(good).payload, sub: sa.serviceAccountId, scope: ["data:write"] })}.${s}`,
    );
    assert.equal(tampered.status, 400);
    assert.equal(tampered.json.error, "invalid_grant");
    assert.equal((await exchange(sb, "not.a.jwt")).status, 400);
    assert.equal((await exchange(sb, `${h}.${p}.${s}`)).status, 200, "the untouched assertion works");

    // The sandbox clock decides expiry.
    await control(sb, "POST", "clock", { advance_seconds: 600 });
    const late = await exchange(sb, good);
    assert.equal(late.status, 400);
    assert.match(late.json.error_description, /expired/);
  });
});

Deno.test("service account: scopes, client authentication and ownership", async () => {
  await withSandbox(async (sb) => {
    const sa = await createAccount(sb);
    const unknown = await exchange(sb, await assertion(sa.privateKey, sa, { scope: ["bogus:scope"] }));
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.error, "invalid_scope");

    const jwt = await assertion(sa.privateKey, sa);
    const publicClient = await tokenRequest(sb, { grant_type: GRANT, assertion: jwt, client_id: APP.id });
    assert.equal(publicClient.status, 400);
    assert.equal(publicClient.json.errorCode, "AUTH-008");
    const wrong = await tokenRequest(sb, { grant_type: GRANT, assertion: jwt }, {
      authorization: basic(APP.id, "wrong"),
    });
    assert.equal(wrong.status, 401);
    const missing = await tokenRequest(sb, { grant_type: GRANT }, {
      authorization: basic(APP.id, APP.secret),
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.error, "invalid_request");

    // Another app may not use this app's account, even naming itself as iss.
    const app2 = await addApp(sb);
    const foreign = await tokenRequest(sb, {
      grant_type: GRANT,
      assertion: await assertion(sa.privateKey, sa, { iss: app2.id }),
    }, { authorization: basic(app2.id, app2.secret) });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.json.error, "invalid_grant");
    // An account created for the other app works for it.
    const own = await createAccount(sb, { client_id: app2.id });
    assert.match(own.email, new RegExp(`@${app2.id}\\.`));
    const ok = await tokenRequest(sb, {
      grant_type: GRANT,
      assertion: await assertion(own.privateKey, own, { iss: app2.id }),
    }, { authorization: basic(app2.id, app2.secret) });
    assert.equal(ok.status, 200, JSON.stringify(ok.json));

    assert.equal((await control(sb, "POST", "service-accounts", { name: "bad name!" })).status, 400);
    assert.equal((await control(sb, "POST", "service-accounts", { client_id: "nobody" })).status, 404);
    await control(sb, "POST", "reset");
    assert.equal((await exchange(sb, jwt)).status, 400, "accounts are gone after a reset");
  });
});
