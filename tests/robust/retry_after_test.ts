/** Issue 14 item 3: a `Retry-After` wait is capped, bounded by --timeout, and said on stderr. */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import { addFault, makeHome, requestLog, sandboxEnv } from "../e2e/harness.ts";
import { run } from "./_run.ts";

const LIST = ["bucket", "list", "--region", "US", "-o", "json"];

async function withFault(
  extraEnv: Record<string, string>,
  argv: string[],
): Promise<{ code: number; stderr: string; statuses: number[] }> {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const env = sandboxEnv(home, sb.url, extraEnv);
    assert.equal((await run(["auth", "test"], env, home.cwd)).code, 0);
    await addFault(sb.url, {
      method: "GET",
      path: "/oss/v2/buckets",
      status: 429,
      retry_after: 3600,
      count: 1,
    });
    const r = await run(argv, env, home.cwd);
    const statuses = (await requestLog(sb.url, "/oss/v2/buckets")).map((e) => e.status);
    return { code: r.code, stderr: r.stderr, statuses };
  } finally {
    await home.cleanup();
    await sb.close();
  }
}

Deno.test("Retry-After: 3600 with DIAZO_MAX_RETRY_AFTER=1 -> waits 1 s, says so, then succeeds", async () => {
  const r = await withFault({ DIAZO_MAX_RETRY_AFTER: "1" }, LIST);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.statuses, [429, 200]);
  assert.match(r.stderr, /waiting 1 s \(Retry-After\) before retrying GET \/oss\/v2\/buckets/);
});

Deno.test("Retry-After: 3600 with --timeout 1 -> the wait never exceeds the timeout", async () => {
  const r = await withFault({}, ["--timeout", "1", ...LIST]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.statuses, [429, 200]);
  assert.match(r.stderr, /waiting 1 s \(Retry-After\)/);
});

Deno.test("DIAZO_MAX_RETRY_AFTER must be a positive number", async () => {
  const home = await makeHome();
  try {
    const r = await run(
      LIST,
      sandboxEnv(home, "http://127.0.0.1:9", { DIAZO_MAX_RETRY_AFTER: "-5" }),
      home.cwd,
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^error: DIAZO_MAX_RETRY_AFTER must be a positive number of seconds/m);
  } finally {
    await home.cleanup();
  }
});
