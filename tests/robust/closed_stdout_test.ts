/** Issue 14 item 12: a reader that closes stdout early (`| head -c1`) ends the run quietly with 141. */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import { cliCommand, makeHome, sandboxEnv } from "../e2e/harness.ts";

Deno.test("bucket list -o json with stdout closed before it writes: exit 141, nothing on stderr", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const env = sandboxEnv(home, sb.url);
    const child = new Deno.Command(Deno.execPath(), {
      args: cliCommand(["bucket", "list", "--region", "US", "-o", "json"]),
      env,
      clearEnv: true,
      cwd: home.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // As `head -c1` after its byte: the read end is closed while diazo is still starting.
    await child.stdout.cancel();
    const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
    assert.equal(stderr, "", "no error line");
    assert.equal(status.code, 141);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});
