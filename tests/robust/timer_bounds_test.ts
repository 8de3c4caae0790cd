/** Issue 14 item 7: a number that becomes a timer is refused beyond the timer range, with the range. */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import path from "node:path";
import { assertUsageError, makeHome, requestLog, sandboxEnv } from "../e2e/harness.ts";
import { run } from "./_run.ts";

const LIST = ["bucket", "list", "--region", "US"];
const RANGE = /must be a (positive|non-negative) number of (seconds|ms) up to 2147483(647)?, got/;

Deno.test("--timeout 2147484, DIAZO_TIMEOUT=1e300, settings.timeout 1e300, retry base and hook timeout: exit 2 before any request", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const env = sandboxEnv(home, sb.url);
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ["--timeout", "2147484", ...LIST],
        {},
        /^error: --timeout must be a positive number of seconds up to 2147483, got '2147484'$/,
      ],
      [["--timeout", "1e300", ...LIST], {}, /--timeout/],
      [LIST, { DIAZO_TIMEOUT: "1e300" }, /DIAZO_TIMEOUT/],
      [LIST, { DIAZO_RETRY_BASE_MS: "3000000000" }, /DIAZO_RETRY_BASE_MS/],
      [LIST, { DIAZO_MAX_RETRY_AFTER: "99999999" }, /DIAZO_MAX_RETRY_AFTER/],
      [LIST, { DIAZO_POLL_BASE_MS: "1e12" }, /DIAZO_POLL_BASE_MS must be a non-negative number of ms/],
    ];
    for (const [argv, extra, message] of cases) {
      const r = await run(argv, { ...env, ...extra }, home.cwd);
      assertUsageError(r, message);
      assert.match(r.stderr, RANGE);
    }
    await Deno.mkdir(home.configDir, { recursive: true });
    await Deno.writeTextFile(path.join(home.configDir, "config.json"), '{"settings":{"timeout":1e300}}');
    assertUsageError(
      await run(LIST, env, home.cwd),
      /settings\.timeout must be a positive number of seconds up to 2147483/,
    );
    assert.deepEqual(await requestLog(sb.url), [], "no request was sent");
    // The hint's repair works: `config set` is not blocked by the value it replaces.
    assert.equal((await run(["config", "set", "timeout", "30"], env, home.cwd)).code, 0);
    assert.equal((await run(LIST, env, home.cwd)).code, 0);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("DIAZO_HOOK_TIMEOUT=1e300 with a hook configured: exit 2 before the command", async () => {
  const home = await makeHome();
  try {
    await Deno.mkdir(home.configDir, { recursive: true });
    await Deno.writeTextFile(
      path.join(home.configDir, "plugins.json"),
      JSON.stringify({ hooks: { pre_bucket_list: ["echo hi"] } }),
    );
    const env = sandboxEnv(home, "http://127.0.0.1:9", { DIAZO_HOOK_TIMEOUT: "1e300" });
    assertUsageError(
      await run(LIST, env, home.cwd),
      /DIAZO_HOOK_TIMEOUT must be a positive number of seconds up to 2147483/,
    );
  } finally {
    await home.cleanup();
  }
});

Deno.test("the largest timer values are accepted", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const r = await run(["--timeout", "2147483", ...LIST], sandboxEnv(home, sb.url), home.cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "[]");
  } finally {
    await home.cleanup();
    await sb.close();
  }
});
