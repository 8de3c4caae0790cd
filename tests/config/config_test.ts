import assert from "node:assert/strict";
import {
  DEFAULT_BASE_URL,
  DEFAULT_CALLBACK_URL,
  emptyConfig,
  parseConfig,
  resolve,
} from "../../src/config/config.ts";
import { DiazoError } from "../../src/core/errors.ts";
import { parseDotenv } from "../../src/config/dotenv.ts";

const base = { flags: {}, env: {}, dotenv: {}, config: emptyConfig() };

Deno.test("resolve: SVC_CLIENT_ID wins over APS_CLIENT_ID in the environment", () => {
  const r = resolve({ ...base, env: { SVC_CLIENT_ID: "svc", APS_CLIENT_ID: "aps" } });
  assert.equal(r.clientId.value, "svc");
  assert.equal(r.clientId.from, "SVC_CLIENT_ID");
});

Deno.test("resolve: APS_* is used when SVC_* is absent", () => {
  const r = resolve({ ...base, env: { APS_CLIENT_SECRET: "s3" } });
  assert.equal(r.clientSecret.value, "s3");
  assert.equal(r.clientSecret.source, "env");
});

Deno.test("resolve: .env never overrides a variable already set", () => {
  const r = resolve({
    ...base,
    env: { SVC_CLIENT_ID: "exported" },
    dotenv: { SVC_CLIENT_ID: "from-file", SVC_CLIENT_SECRET: "sec" },
  });
  assert.equal(r.clientId.value, "exported");
  assert.equal(r.clientSecret.value, "sec");
  assert.equal(r.clientSecret.source, "dotenv");
});

Deno.test("resolve: an exported but empty variable still blocks .env", () => {
  const r = resolve({ ...base, env: { SVC_CLIENT_ID: "" }, dotenv: { SVC_CLIENT_ID: "from-file" } });
  assert.equal(r.clientId.value, undefined);
});

Deno.test("resolve: precedence env > .env > profile > default for each field", () => {
  const config = parseConfig(
    JSON.stringify({
      active_profile: "work",
      profiles: {
        work: {
          client_id: "p-id",
          client_secret: "p-sec",
          base_url: "http://p.example/",
          callback_url: "http://p/cb",
        },
      },
      settings: { timeout: 12 },
    }),
    "config.json",
  );
  const r = resolve({ flags: {}, env: {}, dotenv: { SVC_CLIENT_SECRET: "d-sec" }, config });
  assert.equal(r.profileName, "work");
  assert.equal(r.clientId.value, "p-id");
  assert.equal(r.clientId.source, "profile");
  assert.equal(r.clientSecret.value, "d-sec");
  assert.equal(r.baseUrl.value, "http://p.example");
  assert.equal(r.callbackUrl.value, "http://p/cb");
  assert.equal(r.timeoutSec, 12);
  const r2 = resolve({ flags: { timeout: 3, profile: "other" }, env: {}, dotenv: {}, config });
  assert.equal(r2.profileName, "other");
  assert.equal(r2.profileExists, false);
  assert.equal(r2.clientId.value, undefined);
  assert.equal(r2.timeoutSec, 3);
  assert.equal(r2.baseUrl.value, DEFAULT_BASE_URL);
  assert.equal(r2.callbackUrl.value, DEFAULT_CALLBACK_URL);
});

Deno.test("resolve: --profile beats DIAZO_PROFILE beats active_profile", () => {
  const config = { ...emptyConfig(), active_profile: "a" };
  assert.equal(resolve({ ...base, config }).profileName, "a");
  assert.equal(resolve({ ...base, config, env: { DIAZO_PROFILE: "b" } }).profileName, "b");
  assert.equal(
    resolve({ ...base, config, env: { DIAZO_PROFILE: "b" }, flags: { profile: "c" } }).profileName,
    "c",
  );
});

Deno.test("parseConfig: malformed JSON names file, line and column", () => {
  const text = '{\n  "profiles": {\n    "a": { "client_id": "x", }\n  }\n}';
  assert.throws(() => parseConfig(text, "/tmp/config.json"), (e: unknown) => {
    assert.ok(e instanceof DiazoError);
    assert.equal(e.code, "invalid_config");
    assert.equal(e.exitCode, 2);
    assert.match(e.message, /\/tmp\/config\.json: line 3, column \d+/);
    return true;
  });
});

Deno.test("parseConfig: wrong types are reported with their path", () => {
  assert.throws(
    () => parseConfig('{"profiles":{"a":{"client_id":3}}}', "c.json"),
    /profiles\.a\.client_id must be a string/,
  );
  assert.throws(
    () => parseConfig('{"settings":{"timeout":"x"}}', "c.json"),
    /settings\.timeout must be a number/,
  );
  assert.throws(() => parseConfig("[]", "c.json"), /expected a JSON object/);
});

Deno.test("parseDotenv: values, quotes, export and comments", () => {
  const env = parseDotenv('# comment\nexport A=1\nB="two words"\nC=\'x\'\n\nD="multi\nline"\n', ".env");
  assert.deepEqual(env, { A: "1", B: "two words", C: "x", D: "multi\nline" });
});

Deno.test("parseDotenv: a malformed line is an error with its line number", () => {
  assert.throws(() => parseDotenv("A=1\nthis is not valid\n", "/p/.env"), (e: unknown) => {
    assert.ok(e instanceof DiazoError);
    assert.equal(e.code, "invalid_dotenv");
    assert.equal(e.exitCode, 2);
    assert.match(e.message, /\/p\/\.env:2: expected KEY=VALUE/);
    return true;
  });
  assert.throws(() => parseDotenv('A="open\n', ".env"), /unterminated/);
});
