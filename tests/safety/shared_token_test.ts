/**
 * Issue 14 item 17 (part): parallel diazo processes with an empty token cache share one
 * client-credentials token request (a lock around fetch-and-store, the cache read again under it)
 * instead of each asking the platform.
 */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import { makeHome, requestLog, sandboxEnv, spawnDiazo } from "../e2e/harness.ts";

const PROCESSES = 12;

Deno.test(`${PROCESSES} parallel 'bucket list' processes with an empty cache: one token request`, async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const env = sandboxEnv(home, sb.url);
    const runs = await Promise.all(
      // Each its own OS process (not in process): the lock is between processes.
      Array.from(
        { length: PROCESSES },
        () => spawnDiazo(["bucket", "list", "-o", "json"], { env, cwd: home.cwd }),
      ),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const log = await requestLog(sb.url, "/authentication/v2/token") as unknown as { grant_type?: string }[];
    const fetches = log.filter((e) => e.grant_type === "client_credentials").length;
    assert.equal(fetches, 1, `${fetches} client-credentials requests for ${PROCESSES} processes`);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});
