/** Issue 14 item 6: a `.env` directory is skipped silently; a config.json directory is a clear error with its path. */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import path from "node:path";
import { assertUsageError, makeHome, sandboxEnv } from "../e2e/harness.ts";
import { run } from "./_run.ts";

Deno.test("a .env directory (python -m venv .env) is skipped: the command runs as without it", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    await Deno.mkdir(path.join(home.cwd, ".env", "bin"), { recursive: true });
    const r = await run(["bucket", "list", "--region", "US"], sandboxEnv(home, sb.url), home.cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "[]");
    assert.doesNotMatch(r.stderr, /\.env|unexpected/);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("a config.json directory: exit 2 naming the file, not 'unexpected error'", async () => {
  const home = await makeHome();
  try {
    const file = path.join(home.configDir, "config.json");
    await Deno.mkdir(file, { recursive: true });
    const r = await run(
      ["bucket", "list", "--region", "US"],
      sandboxEnv(home, "http://127.0.0.1:9"),
      home.cwd,
    );
    assertUsageError(
      r,
      new RegExp(`^error: Invalid configuration file ${file.replace(/[.\\/]/g, "\\$&")}: it is a directory`),
    );
  } finally {
    await home.cleanup();
  }
});
