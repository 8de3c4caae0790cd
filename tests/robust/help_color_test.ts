/**
 * Issue 14 item 17 (parts): `--output table` to a pipe has no colour codes; `diazo help <cmd>` shows
 * that command's help (exit 0, as gh); an unknown or incomplete command is one `error:` line, exit 2.
 */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import { assertUsageError, cliEnv, makeHome, sandboxEnv } from "../e2e/harness.ts";
import { run } from "./_run.ts";

Deno.test("--output table to a non-terminal stdout: no escape codes", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const env = sandboxEnv(home, sb.url);
    delete (env as Record<string, string | undefined>).NO_COLOR;
    assert.equal((await run(["bucket", "create", "-k", "colour-check"], env, home.cwd)).code, 0);
    const r = await run(["bucket", "list", "--region", "US", "--output", "table"], env, home.cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.length > 0, "a table was written");
    assert.ok(!r.stdout.includes("\u001b["), "no escape sequence");
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("diazo help, help <family>, help <family> <sub>: that help on stdout, exit 0", async () => {
  const home = await makeHome();
  try {
    const env = cliEnv(home);
    for (
      const [argv, usage] of [
        [["help"], /^Usage: diazo \[options\] \[command\]/],
        [["help", "bucket"], /^Usage: diazo bucket \[options\] \[command\]/],
        [["help", "bucket", "list"], /^Usage: diazo bucket list\|ls \[options\]/],
        [["bucket", "help", "list"], /^Usage: diazo bucket list\|ls \[options\]/],
      ] as const
    ) {
      const r = await run([...argv], env, home.cwd);
      assert.equal(r.code, 0, `${argv.join(" ")}: ${r.stderr}`);
      assert.match(r.stdout, usage, argv.join(" "));
      assert.equal(r.stderr, "");
    }
  } finally {
    await home.cleanup();
  }
});

Deno.test("help of an unknown command, and a family without its subcommand: exit 2 with one error line", async () => {
  const home = await makeHome();
  try {
    const env = cliEnv(home);
    assertUsageError(
      await run(["help", "nosuch"], env, home.cwd),
      /^error: unknown command or help topic 'nosuch'$/,
    );
    assertUsageError(
      await run(["help", "bucket", "lst"], env, home.cwd),
      /^error: unknown command 'bucket lst'$/,
    );
    const bare = await run(["bucket"], env, home.cwd);
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /^error: 'diazo bucket' needs a subcommand: .*list/m);
    const unknown = await run(["bucket", "help", "nosuch"], env, home.cwd);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^error: unknown command 'bucket nosuch'$/m);
  } finally {
    await home.cleanup();
  }
});
