/**
 * A `.env` in a cloned directory may not say where the platform is unless it also brings the app's
 * credentials (config/config.ts): the shell's or a profile's client secret is never sent to the host
 * the directory chose.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { cliEnv, makeHome, SANDBOX_ID, SANDBOX_SECRET, startTestSandbox } from "../e2e/harness.ts";
import { hostileHome, startHostile } from "./_hostile.ts";
import { run } from "./_run.ts";

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

Deno.test(".env sets DIAZO_BASE_URL while the shell holds the credentials: refused (exit 2), nothing sent", async () => {
  const h = startHostile(() => undefined);
  const { home, env } = await hostileHome(h);
  try {
    // The shell has the credentials and no address; the directory's .env names the hostile host.
    const shell = { ...env };
    delete shell.DIAZO_BASE_URL;
    const dotenv = path.join(home.cwd, ".env");
    await Deno.writeTextFile(dotenv, `DIAZO_BASE_URL=${h.url}\n`);
    for (const argv of [["bucket", "list"], ["auth", "login", "--2legged"], ["auth", "status"]]) {
      const started = Date.now();
      const r = await run(argv, shell, home.cwd);
      assert.ok(Date.now() - started < 10_000, "refused at once");
      assert.equal(r.code, 2, `${argv.join(" ")}: ${r.stderr}`);
      assert.equal(r.stdout, "");
      const lines = r.stderr.trimEnd().split("\n");
      assert.equal(lines.length, 2, r.stderr);
      assert.match(
        lines[0],
        new RegExp(
          `^error: ${
            escaped(dotenv)
          } sets DIAZO_BASE_URL, but the app's credentials come from the environment \\(SVC_CLIENT_ID\\)`,
        ),
      );
      assert.match(lines[1], /^hint: .*`diazo help environment`/);
    }
    assert.deepEqual(h.hits, [], "nothing reached the host the .env chose");
    assert.doesNotMatch(JSON.stringify(h.hits), /hostile-secret/);
  } finally {
    await home.cleanup();
    await h.close();
  }
});

Deno.test(".env that sets DIAZO_BASE_URL and the credentials too: allowed, the command runs", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    await Deno.writeTextFile(
      path.join(home.cwd, ".env"),
      `DIAZO_BASE_URL=${sb.url}\nSVC_CLIENT_ID=${SANDBOX_ID}\nSVC_CLIENT_SECRET=${SANDBOX_SECRET}\n`,
    );
    const r = await run(["bucket", "list", "--region", "US"], cliEnv(home), home.cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "[]");
  } finally {
    await home.cleanup();
    await sb.close();
  }
});
