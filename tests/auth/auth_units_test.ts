import assert from "node:assert/strict";
import { codeChallenge, codeVerifier, randomState } from "../../src/auth/pkce.ts";
import { codeFromPaste, codeFromRedirect } from "../../src/auth/callback_server.ts";
import { signAssertion } from "../../src/auth/service_account.ts";
import { authorizeUrl } from "../../src/auth/three_legged.ts";
import { decodeJwt, jwtScopes } from "../../src/aps/jwt.ts";
import { DiazoError } from "../../src/core/errors.ts";
import { parsePeriod, summarise } from "../../src/config/scope_report.ts";
import { callbackProblems, credentialProblems } from "../../src/families/auth/report.ts";
import { checkedScopes } from "../../src/families/auth/scopes.ts";
import { openCommand } from "../../src/platform/browser.ts";
import { withFileLock } from "../../src/platform/lock.ts";

Deno.test("PKCE: S256 of a known verifier, and fresh random verifiers/states", async () => {
  // Expected value computed independently (Python hashlib + urlsafe_b64encode, padding stripped).
  assert.equal(
    await codeChallenge("dBjftJeZ4CVP-mJ92K27uhbUJU1p1r_wW1gFWFOEjXk"),
    "ngF5GsXcbwljx6u133FFr3Xht9xooA_DuaX_3QwODtc",
  );
  const v = codeVerifier();
  assert.match(v, /^[A-Za-z0-9_-]{43,128}$/);
  assert.notEqual(v, codeVerifier());
  assert.match(randomState(), /^[A-Za-z0-9_-]+$/);
});

Deno.test("authorize URL carries PKCE, state and space-separated scopes", () => {
  const u = new URL(
    authorizeUrl("http://x", {
      clientId: "c",
      redirectUri: "http://l/cb",
      scopes: ["a:b", "c:d"],
      state: "s",
      challenge: "ch",
    }),
  );
  assert.equal(u.pathname, "/authentication/v2/authorize");
  assert.equal(u.searchParams.get("scope"), "a:b c:d");
  assert.equal(u.searchParams.get("code_challenge_method"), "S256");
  assert.equal(u.searchParams.get("state"), "s");
});

Deno.test("callback parsing: code, wrong state, access_denied, pasted forms", () => {
  assert.equal(codeFromRedirect(new URLSearchParams("code=abc&state=s1"), "s1"), "abc");
  assert.throws(
    () => codeFromRedirect(new URLSearchParams("code=abc&state=s2"), "s1"),
    (e: unknown) => e instanceof DiazoError && e.code === "login_state_mismatch" && e.exitCode === 3,
  );
  assert.throws(
    () => codeFromRedirect(new URLSearchParams("error=access_denied&state=s1"), "s1"),
    (e: unknown) => e instanceof DiazoError && e.code === "login_denied",
  );
  assert.equal(codeFromPaste("http://localhost:8080/callback?code=xyz&state=s1\n", "s1"), "xyz");
  assert.equal(codeFromPaste("?code=q&state=s1", "s1"), "q");
  assert.equal(codeFromPaste("  rawcode  ", "s1"), "rawcode");
  assert.throws(() => codeFromPaste("", "s1"), DiazoError);
});

Deno.test("scopes per mode: unknown names and scopes the platform does not grant are usage errors; discouraged ones warn", () => {
  assert.deepEqual(checkedScopes("bucket:read, data:read", "2-legged"), ["bucket:read", "data:read"]);
  const warnings: string[] = [];
  assert.deepEqual(checkedScopes("account:read", "2-legged", (m) => warnings.push(m)), ["account:read"]);
  assert.match(
    warnings.join("\n"),
    /account:read: granted to a 2-legged token, but diazo recommends a 3-legged login/,
  );
  assert.throws(() => checkedScopes("openid", "2-legged"), /cannot be granted to a 2-legged token/);
  assert.deepEqual(checkedScopes("code:all", "3-legged"), ["code:all"]);
  assert.throws(() => checkedScopes("data:everything", "3-legged"), /unknown scope data:everything/);
});

Deno.test("JWT decoding: claims, scopes as array or string, malformed input", () => {
  const enc = (o: unknown) =>
    btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  const t = `${enc({ alg: "RS256" })}.${enc({ scope: ["a", "b"], client_id: "c", exp: 5 })}.sig`;
  assert.deepEqual(jwtScopes(decodeJwt(t).payload), ["a", "b"]);
  assert.deepEqual(jwtScopes({ scope: "x y" }), ["x", "y"]);
  for (const bad of ["abc", "a.b", "a.b.c.d", `${enc({})}.!!!.x`, `${enc({})}.${btoa("not json")}.x`]) {
    assert.throws(
      () => decodeJwt(bad),
      (e: unknown) => e instanceof DiazoError && e.code === "invalid_token" && e.exitCode === 2,
    );
  }
});

Deno.test("service-account assertion: RS256 signature verifies with the public key; claims as the platform wants", async () => {
  const pair = await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    },
    true,
    ["sign", "verify"],
  );
  const der = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  const pem = `-----BEGIN PRIVATE KEY-----\n${
    btoa(String.fromCharCode(...der)).replace(/(.{64})/g, "$1\n")
  }\n-----END PRIVATE KEY-----\n`;
  const jwt = await signAssertion({
    clientId: "cid",
    serviceAccountId: "sa1",
    keyId: "k1",
    pem,
    scopes: ["data:read"],
    now: 1_000_000,
  });
  const [h, p, s] = jwt.split(".");
  const { header, payload } = decodeJwt(jwt);
  assert.deepEqual(header, { alg: "RS256", typ: "JWT", kid: "k1" });
  assert.equal(payload.iss, "cid");
  assert.equal(payload.sub, "sa1");
  assert.equal(payload.exp, 1000 + 300);
  const sig = Uint8Array.from(
    atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - s.length % 4) % 4)),
    (c) => c.charCodeAt(0),
  );
  assert.ok(
    await crypto.subtle.verify(
      "RSASSA-PKCS1-v1_5",
      pair.publicKey,
      sig,
      new TextEncoder().encode(`${h}.${p}`),
    ),
  );
  await assert.rejects(
    () => signAssertion({ clientId: "c", serviceAccountId: "s", pem: "nope", scopes: [] }),
    /PKCS#8/,
  );
});

Deno.test("diagnose helpers: stray characters and callback URL shape", () => {
  assert.deepEqual(credentialProblems("client id", "abc"), []);
  assert.equal(credentialProblems("client id", " abc ").length, 1);
  assert.match(credentialProblems("client secret", '"abc"').join(), /quotes/);
  assert.deepEqual(callbackProblems("http://localhost:8080/callback"), []);
  assert.match(callbackProblems("http://example.com/cb").join(), /only allowed for localhost/);
  assert.match(callbackProblems("http://localhost:8080").join(), /no path/);
  assert.match(callbackProblems("nonsense").join(), /not a URL/);
});

Deno.test("scope usage: periods and summaries", () => {
  assert.equal(parsePeriod("7d"), 7 * 86_400_000);
  assert.equal(parsePeriod("12h"), 12 * 3_600_000);
  assert.throws(() => parsePeriod("0d"), /invalid period/);
  assert.throws(() => parsePeriod("week"), /invalid period/);
  const uses = [
    {
      time: "2026-01-01T00:00:00Z",
      command: "bucket list",
      profile: "p",
      mode: "2-legged" as const,
      scopes: ["bucket:read"],
      exit: 0,
    },
    {
      time: "2026-01-02T00:00:00Z",
      command: "bucket create",
      profile: "p",
      mode: "2-legged" as const,
      scopes: ["bucket:create"],
      exit: 0,
    },
    {
      time: "2026-01-03T00:00:00Z",
      command: "bucket list",
      profile: "p",
      mode: "2-legged" as const,
      scopes: ["bucket:read"],
      exit: 0,
    },
  ];
  const s = summarise(uses, ["bucket:read", "bucket:create", "code:all"]);
  assert.deepEqual(s.used[0], {
    scope: "bucket:read",
    uses: 2,
    commands: ["bucket list"],
    last_used: "2026-01-03T00:00:00Z",
  });
  assert.deepEqual(s.unused_granted, ["code:all"]);
});

Deno.test("browser command per OS", () => {
  assert.deepEqual(openCommand("linux", "http://x"), { cmd: "xdg-open", args: ["http://x"] });
  assert.deepEqual(openCommand("darwin", "http://x"), { cmd: "open", args: ["http://x"] });
  assert.deepEqual(openCommand("windows", "http://x?a=1&b=2").args.at(-1), "http://x?a=1^&b=2");
});

Deno.test("file lock: holders take turns; a stale lock is taken over", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/l.lock`;
    let inside = 0;
    let maxInside = 0;
    await Promise.all(Array.from({ length: 8 }, () =>
      withFileLock(file, async () => {
        inside++;
        maxInside = Math.max(maxInside, inside);
        await new Promise((r) => setTimeout(r, 10));
        inside--;
      })));
    assert.equal(maxInside, 1);
    await Deno.writeTextFile(file, "999999\n");
    await Deno.utime(file, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    assert.equal(await withFileLock(file, () => Promise.resolve("got it"), { timeoutMs: 2000 }), "got it");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
