/** The 2-legged token cache is keyed by a fingerprint of the client secret too: a changed secret is never answered from it. */
import assert from "node:assert/strict";
import { secretFingerprint } from "../../src/auth/two_legged.ts";
import { assertOneError, diazo, requestLog, sandboxEnv, withSandboxHome } from "./harness.ts";

Deno.test("token cache: after a good run, a wrong SVC_CLIENT_SECRET fails (exit 3) instead of using the cached token", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    const first = await diazo(["bucket", "list", "-o", "json"], { env });
    assert.equal(first.code, 0, first.stderr);
    const again = await diazo(["bucket", "list", "-o", "json"], { env });
    assert.equal(again.code, 0, again.stderr);
    const tokenRequests = () => requestLog(sb.url, "/authentication/v2/token").then((l) => l.length);
    assert.equal(await tokenRequests(), 1, "the second run used the cache");

    const wrong = await diazo(["bucket", "list", "-o", "table"], {
      env: { ...env, SVC_CLIENT_SECRET: "wrong-secret" },
    });
    assertOneError(wrong, 3, /^error: Authentication failed$/, /auth logout.*auth test/);
    assert.equal(await tokenRequests(), 2, "the wrong secret went to the token endpoint");

    const tokens = await Deno.readTextFile(`${home.configDir}/tokens.json`);
    assert.ok(
      !tokens.includes(env.SVC_CLIENT_SECRET) && !tokens.includes("wrong-secret"),
      "no secret in the cache",
    );
    assert.ok(
      tokens.includes(await secretFingerprint(env.SVC_CLIENT_SECRET)),
      "the fingerprint keys the token",
    );
  }));

Deno.test("secretFingerprint: 16 hex digits, stable, different for different secrets, not the secret", async () => {
  const a = await secretFingerprint("diazo-sandbox-secret");
  assert.match(a, /^[0-9a-f]{16}$/);
  assert.equal(a, await secretFingerprint("diazo-sandbox-secret"));
  assert.notEqual(a, await secretFingerprint("diazo-sandbox-secreT"));
});
