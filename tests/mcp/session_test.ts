/**
 * A long-lived `diazo serve` session outlives its tokens: calls after the platform's clock has passed
 * every token's expiry still succeed, and parallel calls share one renewal per login.
 */
import assert from "node:assert/strict";
import { requestLog } from "../e2e/harness.ts";
import { fixture, loginAsUser, ok, startServe } from "./helpers.ts";

async function grants(url: string, from: number): Promise<string[]> {
  const log = await requestLog(url, "/authentication/v2/token") as unknown as { grant_type?: string }[];
  return log.slice(from).map((e) => e.grant_type ?? "?").sort();
}

Deno.test("serve: after every token expired, parallel calls succeed with one app token and one user refresh", async () => {
  const fx = await fixture();
  try {
    const env = await loginAsUser(fx.url, fx.env);
    const serve = await startServe(env);
    try {
      await ok(serve.client, "bucket_create", { bucket_key: "mcp-session", policy: "transient" });
      assert.ok((await ok(serve.client, "hub_list", { auth: "user" })).count >= 1);
      const before = (await requestLog(fx.url, "/authentication/v2/token")).length;

      // Two hours pass on the platform: both the app's and the user's access tokens have expired.
      const clock = await fetch(`${fx.url}/_sandbox/clock`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ advance_seconds: 7200 }),
      });
      assert.ok(clock.ok, await clock.text());

      const calls = await Promise.all([
        ...Array.from({ length: 4 }, () => ok(serve.client, "bucket_get", { bucket_key: "mcp-session" })),
        ...Array.from({ length: 3 }, () => ok(serve.client, "hub_list", { auth: "user" })),
      ]);
      assert.deepEqual(calls.slice(0, 4).map((b) => b.bucketKey), Array(4).fill("mcp-session"));
      assert.ok(calls.slice(4).every((h) => h.count >= 1));
      assert.deepEqual(
        await grants(fx.url, before),
        ["client_credentials", "refresh_token"],
        "one new app token and one refresh for seven calls",
      );
    } finally {
      await serve.close();
    }
  } finally {
    await fx.close();
  }
});
