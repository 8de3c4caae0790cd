import assert from "node:assert/strict";
import {
  base64UrlDecode,
  base64UrlEncode,
  generateSigningKey,
  jwks,
  signJwt,
  verifyJwt,
} from "../../src/sandbox/auth/jwt.ts";

Deno.test("jwt: sign then verify returns header and payload", async () => {
  const key = await generateSigningKey();
  const token = await signJwt(key, { sub: "x", n: 1 }, { typ: "JWT" });
  const r = await verifyJwt([key], token);
  assert.ok(r.ok);
  assert.deepEqual(r.jwt.payload, { sub: "x", n: 1 });
  assert.deepEqual(r.jwt.header, { alg: "RS256", kid: key.kid, typ: "JWT" });
});

Deno.test("jwt: tampering, a foreign key and malformed tokens fail verification", async () => {
  const key = await generateSigningKey();
  const other = await generateSigningKey();
  const token = await signJwt(key, { scope: ["data:read"] });
  const [h, , s] = token.split(".");
  const forged = `${h}.${base64UrlEncode(JSON.stringify({ scope: ["data:write"] }))}.${s}`;
  assert.deepEqual(await verifyJwt([key], forged), { ok: false, reason: "bad_signature" });
  assert.deepEqual(await verifyJwt([other], token), { ok: false, reason: "unknown_kid" });
  const foreign = await signJwt(other, { scope: [] });
  const swapped = `${h}.${foreign.split(".")[1]}.${foreign.split(".")[2]}`;
  assert.deepEqual(await verifyJwt([key, other], swapped), { ok: false, reason: "bad_signature" });
  for (const bad of ["", "a.b", "a.b.c.d", "!!.e30.e30", `${h}..${s}`, `e30.e30.${s}`, `${h}.W10.${s}`]) {
    assert.deepEqual(await verifyJwt([key], bad), { ok: false, reason: "malformed" }, bad);
  }
});

Deno.test("jwt: the kid is the RFC 7638 thumbprint and the JWKS carries the public key", async () => {
  const key = await generateSigningKey();
  const [published] = jwks([key]).keys;
  assert.deepEqual(published, {
    kid: key.kid,
    kty: "RSA",
    use: "sig",
    alg: "RS256",
    n: key.jwk.n,
    e: "AQAB",
  });
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(`{"e":"${published.e}","kty":"RSA","n":"${published.n}"}`),
  );
  assert.equal(key.kid, base64UrlEncode(new Uint8Array(digest)));
  assert.notEqual((await generateSigningKey()).kid, key.kid);
});

Deno.test("jwt: base64url round-trips and refuses other alphabets", () => {
  const bytes = new Uint8Array([0xfb, 0xff, 0xfe, 0x00]);
  assert.equal(base64UrlEncode(bytes), "-__-AA");
  assert.deepEqual(base64UrlDecode("-__-AA"), bytes);
  assert.equal(base64UrlDecode("+//+AA"), undefined);
  assert.equal(base64UrlDecode("AA=="), undefined);
  assert.equal(new TextDecoder().decode(base64UrlDecode(base64UrlEncode("héllo"))), "héllo");
});
