/** The auth verbs that act (login, scope changes, logout) confirm with one line on a terminal, the record elsewhere. */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import { runCli } from "../../src/front/root.ts";
import { makeHome, sandboxEnv } from "../e2e/harness.ts";
import { captureIo } from "../storage/_cli.ts";

Deno.test("auth login/extend-scopes/logout: the action line instead of the table on a terminal; JSON and the line on stderr otherwise", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const env = sandboxEnv(home, sb.url);
    const run = async (argv: string[], terminal: boolean) => {
      const cap = captureIo(terminal);
      const code = await runCli(argv, cap.io, env, home.cwd);
      return { code, out: cap.out(), err: cap.err() };
    };
    const login = await run(["auth", "login", "--2legged", "--scopes", "bucket:read"], true);
    assert.equal(login.code, 0, login.err);
    assert.equal(login.out, "Logged in (2-legged) as app diazo-sandbox with bucket:read\n");

    const extend = await run(["auth", "extend-scopes", "--add", "data:read", "-o", "json"], false);
    assert.equal(extend.code, 0, extend.err);
    assert.deepEqual(JSON.parse(extend.out), {
      profile: "default",
      before: ["bucket:read"],
      after: ["bucket:read", "data:read"],
    });
    assert.match(extend.err, /^Profile default now has bucket:read data:read$/m);

    const logout = await run(["auth", "logout"], true);
    assert.equal(logout.code, 0, logout.err);
    assert.equal(logout.out, "Logged out of profile default\n");
    const again = await run(["auth", "logout", "-o", "json"], false);
    assert.deepEqual(JSON.parse(again.out), { profile: "default", removed: 0, revoked: 0 });
    assert.match(again.err, /No tokens were cached for profile default/);
  } finally {
    await sb.close();
    await home.cleanup();
  }
});
