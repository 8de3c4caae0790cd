import assert from "node:assert/strict";
import { knownSecrets, redact, redactHeaders, registerSecret } from "../../src/core/redact.ts";

const JWT = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzY29wZSI6WyJkYXRhOnJlYWQiXX0.AbC-dEf_123";

Deno.test("authorization headers keep their scheme and lose their credentials", () => {
  assert.equal(redact("Authorization: Bearer abc.def-123"), "Authorization: Bearer ***");
  assert.equal(redact("authorization: Basic aWQ6c2VjcmV0"), "authorization: Basic ***");
  assert.equal(redact('{"Authorization":"Bearer xyz987654"}'), '{"Authorization":"Bearer ***"}');
  assert.equal(redact("Authorization: opaque-value"), "Authorization: ***");
  assert.equal(redact("sent Bearer Zm9vYmFyYmF6 to it"), "sent Bearer *** to it");
  assert.equal(redact("use Basic authentication here"), "use Basic authentication here");
});

Deno.test("JWTs are removed wherever they appear", () => {
  assert.equal(redact(`token is ${JWT}.`), "token is ***.");
  assert.equal(redact(`["${JWT}"]`), '["***"]');
  assert.equal(redact("eyJnotajwt"), "eyJnotajwt");
});

Deno.test("secret JSON members are masked, other members kept", () => {
  const body = JSON.stringify({
    access_token: "a1b2c3",
    refresh_token: "r-1",
    id_token: "i-1",
    client_secret: "s3cr3t",
    code: "auth-code",
    code_verifier: "v-1",
    assertion: "as-1",
    password: 'pa"ss',
    token: "t-1",
    token_type: "Bearer",
    expires_in: 3599,
  });
  const out = redact(body);
  assert.deepEqual(JSON.parse(out), {
    access_token: "***",
    refresh_token: "***",
    id_token: "***",
    client_secret: "***",
    code: "***",
    code_verifier: "***",
    assertion: "***",
    password: "***",
    token: "***",
    token_type: "Bearer",
    expires_in: 3599,
  });
  assert.equal(redact('{ "Password" : "x1y2" }'), '{ "Password" : "***" }');
});

Deno.test("form fields and query parameters are masked by key", () => {
  assert.equal(
    redact(
      "grant_type=authorization_code&code=abc123&code_verifier=zzz&client_secret=s%2Bx&scope=data%3Aread",
    ),
    "grant_type=authorization_code&code=***&code_verifier=***&client_secret=***&scope=data%3Aread",
  );
  assert.equal(redact("refresh_token=r1 and password=p2"), "refresh_token=*** and password=***");
  // names that merely end like a secret key are left alone
  assert.equal(
    redact("response_type=code&zipcode=123&mytoken=4"),
    "response_type=code&zipcode=123&mytoken=4",
  );
});

Deno.test("signed URL parameters are masked, case-insensitively", () => {
  const s3 = "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIA%2F2024&X-Amz-Date=1" +
    "&X-Amz-Security-Token=FwoG&x-amz-signature=deadbeef&partNumber=1";
  assert.equal(
    redact(s3),
    "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4&X-Amz-Credential=***&X-Amz-Date=1" +
      "&X-Amz-Security-Token=***&x-amz-signature=***&partNumber=1",
  );
  const cf = "https://cdn.example.com/f?Policy=eyJTdGF0&Signature=abc~def&Key-Pair-Id=K2&Expires=9";
  assert.equal(redact(cf), "https://cdn.example.com/f?Policy=***&Signature=***&Key-Pair-Id=***&Expires=9");
  assert.equal(redact("https://x.blob/f?sv=1&SIG=abc%3D&TOKEN=q"), "https://x.blob/f?sv=1&SIG=***&TOKEN=***");
});

Deno.test("exact secrets are removed, short ones ignored, URL-encoded forms too", () => {
  assert.equal(redact("id=app secret=my+secret/value!", ["my+secret/value"]), "id=app secret=***!");
  assert.equal(redact("x my%2Bsecret%2Fvalue y", ["my+secret/value"]), "x *** y");
  assert.equal(redact("abc abc", ["abc"]), "abc abc");
  assert.equal(redact("longer-secret-1", ["longer-secret", "longer-secret-1"]), "***");
});

Deno.test("registered secrets are removed by every later call", () => {
  registerSecret("regist3red-value");
  registerSecret("ab");
  registerSecret(undefined);
  assert.ok(knownSecrets().includes("regist3red-value"));
  assert.ok(!knownSecrets().includes("ab"));
  assert.equal(redact("plain regist3red-value text"), "plain *** text");
});

Deno.test("redactHeaders masks credential headers and secrets in other values", () => {
  const h = new Headers({
    Authorization: "Bearer abc",
    Cookie: "session=1",
    "Content-Type": "application/json",
    Location: "https://s3/x?X-Amz-Signature=abc&a=1",
  });
  assert.deepEqual(redactHeaders(h), {
    authorization: "Bearer ***",
    cookie: "***",
    "content-type": "application/json",
    location: "https://s3/x?X-Amz-Signature=***&a=1",
  });
  assert.deepEqual(redactHeaders({ Authorization: "Basic Zm9v", "X-Thing": "k1x-secret" }, ["k1x-secret"]), {
    Authorization: "Basic ***",
    "X-Thing": "***",
  });
});

Deno.test("redaction is idempotent", () => {
  const once = redact(`Authorization: Bearer ${JWT} code=1 {"token":"x"}`);
  assert.equal(redact(once), once);
  assert.ok(!once.includes(JWT));
});
