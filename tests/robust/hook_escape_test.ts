/** A hook child that escapes to its own session (`setsid`) is stopped with the hook on timeout (Linux). */
import assert from "node:assert/strict";
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import { extHome } from "../e2e/ext_helpers.ts";
import { SANDBOX_ID, SANDBOX_SECRET } from "../e2e/harness.ts";
import { runShell } from "../../src/platform/shell.ts";
import { run } from "./_run.ts";

/** Pids of live (not zombie) processes whose command line is exactly `argv`. */
function running(argv: string[]): number[] {
  const want = argv.join("\0");
  const found: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`).replace(/\0$/, "");
      if (cmd === want) found.push(Number(e.name));
    } catch { /* gone */ }
  }
  return found;
}

/** Waits (at most a few seconds) for `argv` to be gone; returns the pids still there. */
async function gone(argv: string[]): Promise<number[]> {
  for (let i = 0; i < 50 && running(argv).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  return running(argv);
}

const IS_LINUX = Deno.build.os === "linux";

Deno.test({
  name: "item 8: runShell's timeout stops a setsid child too, and says how many escaped",
  ignore: !IS_LINUX,
  fn: async () => {
    const marker = ["sleep", "1013"];
    const r = await runShell(`setsid ${marker.join(" ")} & sleep 30`, { timeoutMs: 500, onOutput: () => {} });
    assert.equal(r.timedOut, true);
    assert.equal(r.escaped, 1);
    const left = await gone(marker);
    left.forEach((pid) => Deno.kill(pid, "SIGKILL"));
    assert.deepEqual(left, [], "the setsid child outlived the hook's timeout");
  },
});

Deno.test({
  name: "item 8: a pre hook's `setsid sleep` is not running after 'timed out ... and was stopped'",
  ignore: !IS_LINUX,
  fn: async () => {
    const marker = ["sleep", "1019"];
    const sb = await startTestSandbox();
    const x = await extHome();
    try {
      await x.pluginsJson({ hooks: { pre_bucket_list: [`setsid ${marker.join(" ")} & sleep 30`] } });
      const env = x.env({
        DIAZO_BASE_URL: sb.url,
        SVC_CLIENT_ID: SANDBOX_ID,
        SVC_CLIENT_SECRET: SANDBOX_SECRET,
        DIAZO_HOOK_TIMEOUT: "1",
      });
      const r = await run(["bucket", "list", "--region", "US"], env, x.home.cwd);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stderr,
        /timed out after 1 s and was stopped with every process it started \(1 of them in a session of their own\)/,
      );
      const left = await gone(marker);
      left.forEach((pid) => Deno.kill(pid, "SIGKILL"));
      assert.deepEqual(left, [], "the setsid child outlived the hook");
    } finally {
      await x.close();
      await sb.close();
    }
  },
});
