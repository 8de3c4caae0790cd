/**
 * e2e: a run with nobody to answer (CI set, no terminal on stdin) never waits for a person: every
 * prompt of src/ either fails at once with exit 2 and a hint, or goes on without asking.
 */
import assert from "node:assert/strict";
import {
  assertOneError,
  type Keyboard,
  keyboard,
  requestLog,
  sandboxEnv,
  spawnDiazo,
  withSandboxHome,
} from "./harness.ts";

/** The logins that need no browser, as the hint of a browser login without a person names them. */
const NO_BROWSER_HINT = /--device.*--service-account.*--no-browser/;

/** A terminal on stdin that nobody types on: a read never ends (a run that asks would hang). */
function silentTerminal(): Keyboard {
  const kb = keyboard(undefined, true);
  return { ...kb, stdin: { ...kb.stdin, readSecret: () => new Promise<string | null>(() => {}) } };
}

Deno.test("CI=true diazo auth login </dev/null: exit 2 within 2 s, naming the logins without a browser", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url, { CI: "true", DIAZO_NO_BROWSER: "1" });
    await spawnDiazo(["--version"], { env }); // the module cache warm: the bound is the login's, not Deno's
    const started = performance.now();
    const r = await spawnDiazo(["auth", "login"], { env, cwd: home.cwd });
    const took = performance.now() - started;
    assertOneError(r, 2, /a browser login needs a person/, NO_BROWSER_HINT);
    assert.ok(took < 2000, `auth login took ${Math.round(took)} ms`);
    assert.equal((await requestLog(sb.url, "/authentication")).length, 0, "no request before the refusal");
  }));

Deno.test("auth login (and --3legged) with stdin no terminal and no CI: exit 2 at once", () =>
  withSandboxHome(async ({ env, run }) => {
    for (const args of [["auth", "login"], ["auth", "login", "--3legged", "--scopes", "data:read"]]) {
      const r = await run(args, { env: { ...env, DIAZO_NO_BROWSER: "1" } });
      assertOneError(r, 2, /a browser login needs a person/, NO_BROWSER_HINT);
    }
  }));

Deno.test("auth login with CI set refuses even with a terminal on stdin; --non-interactive likewise", () =>
  withSandboxHome(async ({ env, run }) => {
    const ci = await run(["auth", "login"], { env: { ...env, CI: "1" }, stdin: silentTerminal() });
    assertOneError(ci, 2, /a browser login needs a person/, NO_BROWSER_HINT);
    const flag = await run(["auth", "login", "--non-interactive"], { stdin: silentTerminal() });
    assertOneError(flag, 2, /a browser login needs a person/, NO_BROWSER_HINT);
  }));

Deno.test("auth login --no-browser with an empty stdin: exit 2 at once (the pasted redirect is missing)", () =>
  withSandboxHome(async ({ env, run }) => {
    const r = await run(["auth", "login", "--no-browser"], { env: { ...env, CI: "true" } });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /\nerror: no redirect URL on stdin\nhint: Paste the whole redirect URL/);
  }));

Deno.test("a confirmation with CI set fails at once naming --yes; nothing is deleted", () =>
  withSandboxHome(async ({ env, run }) => {
    const made = await run(["bucket", "create", "-k", "nobody-here-b1"]);
    assert.equal(made.code, 0, made.stderr);
    const r = await run(["bucket", "delete", "nobody-here-b1"], {
      env: { ...env, CI: "true" },
      stdin: silentTerminal(),
    });
    assertOneError(r, 2, /confirmation required/, /Pass --yes/);
    const list = await run(["bucket", "list", "-o", "json", "--query", "[].bucketKey"]);
    assert.ok(JSON.parse(list.stdout).includes("nobody-here-b1"), "the bucket is still there");
  }));

Deno.test("config profile create with CI set does not ask for the secret: the profile has none", () =>
  withSandboxHome(async ({ env, run }) => {
    const r = await run(["config", "profile", "create", "quiet", "--client-id", "ABC"], {
      env: { ...env, CI: "true" },
      stdin: silentTerminal(),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /Client secret for profile/);
  }));
