/** Issue 14 item 9: a hook that leaves a `setsid` child holding stderr does not outlive its timeout. */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import { runShell } from "../../src/platform/shell.ts";
import { extHome } from "../e2e/ext_helpers.ts";
import { SANDBOX_ID, SANDBOX_SECRET } from "../e2e/harness.ts";
import { run } from "./_run.ts";

const HAS_SETSID = Deno.build.os === "linux";

Deno.test({
  name: "runShell: a setsid child holding the pipes is not waited for past the timeout",
  ignore: !HAS_SETSID,
  fn: async () => {
    const chunks: string[] = [];
    const r = await runShell("echo before; setsid sleep 8 & sleep 30", {
      timeoutMs: 500,
      onOutput: (c) => chunks.push(new TextDecoder().decode(c)),
    });
    assert.equal(r.timedOut, true);
    assert.ok(r.elapsedMs < 4000, `returned after ${r.elapsedMs} ms`);
    assert.match(chunks.join(""), /before/);
  },
});

Deno.test({
  name: "runShell: a shell that exits leaving a setsid child is done by the timeout, with its exit code",
  ignore: !HAS_SETSID,
  fn: async () => {
    const r = await runShell("setsid sleep 8 & exit 4", { timeoutMs: 500, onOutput: () => {} });
    assert.equal(r.timedOut, false);
    assert.equal(r.code, 4);
    assert.ok(r.elapsedMs < 4000, `returned after ${r.elapsedMs} ms`);
  },
});

Deno.test({
  name: "a pre hook leaving a setsid child: the command finishes soon after DIAZO_HOOK_TIMEOUT=1",
  ignore: !HAS_SETSID,
  fn: async () => {
    const sb = await startTestSandbox();
    const x = await extHome();
    try {
      await x.pluginsJson({ hooks: { pre_bucket_list: ["setsid sleep 8 & sleep 30"] } });
      const env = x.env({
        DIAZO_BASE_URL: sb.url,
        SVC_CLIENT_ID: SANDBOX_ID,
        SVC_CLIENT_SECRET: SANDBOX_SECRET,
        DIAZO_HOOK_TIMEOUT: "1",
      });
      const t0 = performance.now();
      const r = await run(["bucket", "list", "--region", "US"], env, x.home.cwd);
      const took = performance.now() - t0;
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /timed out after 1 s/);
      assert.ok(took < 5000, `took ${Math.round(took)} ms`);
    } finally {
      await x.close();
      await sb.close();
    }
  },
});
