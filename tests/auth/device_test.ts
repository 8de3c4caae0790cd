/** Unit: the RFC 8628 poll loop (interval, slow_down, denial, expiry) on a fake clock. */
import assert from "node:assert/strict";
import { pollDeviceToken } from "../../src/auth/device.ts";
import { DiazoError } from "../../src/core/errors.ts";
import type { TokenResponse } from "../../src/auth/authentication.ts";

const TOKEN: TokenResponse = { access_token: "at", token_type: "Bearer", expires_in: 3600 };

/** A fake clock and a scripted token endpoint: each answer is an OAuth error code or "ok". */
function fake(answers: string[]) {
  let now = 0;
  const sleeps: number[] = [];
  const deps = {
    now: () => now,
    sleep: (ms: number) => {
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
    poll: () => {
      const a = answers.shift();
      if (a === "ok") return Promise.resolve(TOKEN);
      return Promise.reject(
        new DiazoError("bad_request", { params: { detail: a }, status: 400, body: { error: a } }),
      );
    },
  };
  return { deps, sleeps };
}

const GRANT = { device_code: "d", user_code: "U", verification_uri: "v", expires_in: 60, interval: 2 };

Deno.test("polls at the interval until approved, adding 5 s after slow_down", async () => {
  const { deps, sleeps } = fake(["authorization_pending", "slow_down", "authorization_pending", "ok"]);
  assert.deepEqual(await pollDeviceToken(deps, GRANT), TOKEN);
  assert.deepEqual(sleeps, [2000, 2000, 7000, 7000]);
});

Deno.test("denial and expiry end the login with the catalog's errors", async () => {
  await assert.rejects(pollDeviceToken(fake(["access_denied"]).deps, GRANT), (e: unknown) => {
    assert.ok(e instanceof DiazoError);
    assert.equal(e.code, "login_denied");
    assert.equal(e.exitCode, 3);
    return true;
  });
  await assert.rejects(pollDeviceToken(fake(["expired_token"]).deps, GRANT), { code: "device_code_expired" });
  // The code's lifetime runs out while the user never approves: no poll after the deadline.
  const pending = fake(Array(100).fill("authorization_pending"));
  await assert.rejects(pollDeviceToken(pending.deps, GRANT), { code: "device_code_expired" });
  assert.ok(pending.sleeps.reduce((a, b) => a + b, 0) <= 60_000);
  // Any other refusal passes through unchanged.
  await assert.rejects(pollDeviceToken(fake(["invalid_client"]).deps, GRANT), { code: "bad_request" });
});
