/**
 * e2e: the token store the CLI chooses by itself. The harness passes no D-Bus session, so on Linux
 * the keychain probe fails and the file fallback is what runs (on macOS and Windows the keychain
 * would be the user's own, so these tests run on Linux only).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { diazo, json, makeHome, requestLog, sandboxEnv, withSandboxHome } from "./harness.ts";

const linuxOnly = Deno.build.os !== "linux";

Deno.test({
  name: "no keychain: tokens.json (0600), one token request, the warning once and on stderr only",
  ignore: linuxOnly,
  fn: () =>
    withSandboxHome(async ({ sb, home }) => {
      const env = sandboxEnv(home, sb.url, { DIAZO_TOKEN_STORE: "" });
      const first = await diazo(["bucket", "list", "--region", "US"], { env });
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual(json(first), []);
      const file = path.join(home.configDir, "tokens.json");
      const warnings = first.stderr.split("\n").filter((l) => l.startsWith("warning:"));
      assert.equal(warnings.length, 1, first.stderr);
      assert.ok(warnings[0].includes(file), warnings[0]);
      assert.match(
        warnings[0],
        /OS keychain is not available \((no D-Bus session bus|secret-tool not found)\)/,
      );
      assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);

      const second = await diazo(["bucket", "list", "--region", "US"], { env });
      assert.equal(second.code, 0, second.stderr);
      assert.equal(second.stderr, "", "the warning is shown once per machine");
      assert.equal((await requestLog(sb.url, "/authentication/v2/token")).length, 1, "the token was reused");

      const status = await diazo(["auth", "status", "-o", "json"], { env });
      assert.equal(status.code, 0, status.stderr);
      const out = json<{
        token_store: { kind: string; location: string; reason: string };
        tokens: { source: string }[];
      }>(status);
      assert.equal(out.token_store.kind, "file");
      assert.equal(out.token_store.location, file);
      assert.match(out.token_store.reason, /OS keychain not available/);
      assert.deepEqual(out.tokens.map((t) => t.source), ["file"]);
    }),
});

Deno.test({
  name: "DIAZO_TOKEN_STORE=keychain without a keychain: exit 1, error and hint, nothing on stdout",
  ignore: linuxOnly,
  fn: () =>
    withSandboxHome(async ({ sb, home }) => {
      const r = await diazo(["bucket", "list"], {
        env: sandboxEnv(home, sb.url, { DIAZO_TOKEN_STORE: "keychain" }),
      });
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(
        r.stderr,
        /^error: The OS keychain cannot be used: .+\nhint: DIAZO_TOKEN_STORE=keychain requires/,
      );
      assert.equal((await requestLog(sb.url, "/authentication/v2/token")).length, 0);
    }),
});

Deno.test("parallel requests of one command share one token: cold start, then every request refused at once", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    const dir = path.join(home.cwd, "many");
    await Deno.mkdir(dir);
    for (let i = 0; i < 24; i++) await Deno.writeTextFile(path.join(dir, `f${i}.txt`), `file ${i}`);
    const other = await makeHome(); // creates the bucket without warming this home's token cache
    const made = await diazo(["bucket", "create", "--key", "e2e-one-token"], {
      env: sandboxEnv(other, sb.url),
    });
    await other.cleanup();
    assert.equal(made.code, 0, made.stderr);
    const tokenRequests = async () => (await requestLog(sb.url, "/authentication/v2/token")).length;
    const upload = async (prefix: string) => {
      const before = await tokenRequests();
      const r = await diazo(
        ["object", "upload", "e2e-one-token", "many", "--batch", "--prefix", prefix, "--concurrency", "8"],
        { env, cwd: home.cwd },
      );
      assert.equal(r.code, 0, r.stderr);
      return (await tokenRequests()) - before;
    };
    assert.equal(await upload("cold/"), 1, "no cached token: one token request for eight parallel uploads");
    // Two hours on the platform's clock: the cached token is refused by every request in flight.
    await fetch(`${sb.url}/_sandbox/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_seconds: 7200 }),
    }).then((r) => r.body?.cancel());
    assert.equal(await upload("later/"), 1, "eight refusals of one token: one renewal");
    const objects = await diazo(["object", "list", "e2e-one-token", "-o", "json"], { env });
    assert.equal(json<unknown[]>(objects).length, 48, objects.stderr);
  }));
