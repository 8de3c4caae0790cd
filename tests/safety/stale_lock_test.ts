/**
 * Issue 14 item 14: a process killed while it held the 3-legged refresh lock does not stall the
 * next run (its dead holder is seen at once), and a refresh token spent by that killed refresh ends
 * in "log in again" with the platform's reason, not in the system-clock advice.
 */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import path from "node:path";
import { threeLeggedKey } from "../../src/auth/user_token.ts";
import { tokenLockFile } from "../../src/auth/token_lock.ts";
import { withFileLock } from "../../src/platform/lock.ts";
import { json, makeHome, sandboxEnv, spawnDiazo, type TestHome } from "../e2e/harness.ts";
import { startLogin } from "../e2e/login_helpers.ts";

const APP = "lock-app";

/** A free loopback port (closed again before use). */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Registers an app, logs in as its user (3-legged) and lets the access token expire. */
async function loggedIn(url: string, home: TestHome, extra: Record<string, string>) {
  const callback = `http://127.0.0.1:${freePort()}/callback`;
  const made = await fetch(`${url}/_sandbox/apps`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: APP, client_secret: `${APP}-secret`, callback_url: callback }),
  });
  assert.ok(made.ok, await made.text());
  const env = sandboxEnv(home, url, {
    SVC_CLIENT_ID: APP,
    SVC_CLIENT_SECRET: `${APP}-secret`,
    SVC_CALLBACK_URL: callback,
    DIAZO_NO_BROWSER: "1",
    ...extra,
  });
  const login = await startLogin(["--scopes", "data:read,user-profile:read", "-o", "json"], env);
  const redirect = await fetch(login.authorize, { redirect: "manual" });
  await redirect.body?.cancel();
  await (await fetch(redirect.headers.get("location")!)).body?.cancel();
  const done = await login.done;
  assert.equal(done.code, 0, done.stderr);
  await fetch(`${url}/_sandbox/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ advance_seconds: 3600 }),
  })
    .then((r) => r.body?.cancel());
  return env;
}

/** Starts a process that takes `lockFile`; once it holds it, a way to SIGKILL it (and reap it). */
async function holder(lockFile: string): Promise<{ kill(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", path.join(import.meta.dirname!, "_hold_lock.ts"), lockFile],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await reader.read()).value, "held\n");
  return {
    async kill() {
      child.kill("SIGKILL");
      await child.status; // reaped: its pid names no process now
      await reader.cancel();
    },
  };
}

/** Starts a process that takes `lockFile`, waits until it holds it, then SIGKILLs it. */
async function killWhileHolding(lockFile: string): Promise<void> {
  await (await holder(lockFile)).kill();
  assert.ok(await Deno.stat(lockFile), "the killed holder left its lock file behind");
}

/** The refresh lock of the test app's login in `home`. */
function lockOf(home: TestHome, url: string): Promise<string> {
  return tokenLockFile(home.stateDir, "refresh", threeLeggedKey("default", APP, url));
}

/** Bounds a run: a lock left to age would hold it for 30 s or more (the old stale rule). */
async function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`still waiting after ${ms} ms: a stale lock held the run`)),
      ms,
    );
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("a refresh lock left by a SIGKILLed holder is taken over at once", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const env = await loggedIn(sb.url, home, { DIAZO_LOCK_WAIT_MS: "3000" });
    const lockFile = await lockOf(home, sb.url);
    await killWhileHolding(lockFile);
    const who = await within(15_000, spawnDiazo(["auth", "whoami", "-o", "json"], { env }));
    assert.equal(who.code, 0, who.stderr);
    assert.match(json<{ email: string }>(who).email, /@/);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("a refresh token spent by a killed refresh: 'log in again' with the reason, not the clock", async () => {
  const sb = await startTestSandbox();
  const home = await makeHome();
  try {
    const env = await loggedIn(sb.url, home, { DIAZO_LOCK_WAIT_MS: "3000" });
    // The killed process had sent the refresh (the platform rotated the token) but stored nothing.
    const stored = Object.values(JSON.parse(await Deno.readTextFile(`${home.configDir}/tokens.json`))) as {
      refresh_token?: string;
    }[];
    const refresh = stored.find((t) => t.refresh_token)!.refresh_token!;
    const spent = await fetch(`${sb.url}/authentication/v2/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${btoa(`${APP}:${APP}-secret`)}`,
      },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refresh }),
    });
    assert.equal(spent.status, 200, await spent.text());
    await killWhileHolding(await lockOf(home, sb.url));
    const who = await within(15_000, spawnDiazo(["auth", "whoami"], { env }));
    assert.equal(who.code, 3, who.stderr);
    assert.match(who.stderr, /^error: The saved login can no longer be refreshed: invalid_grant/m);
    assert.match(who.stderr, /^hint: Log in again with `diazo auth login`/m);
    assert.doesNotMatch(who.stderr, /clock/);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("a lock held by a live process is waited for, up to DIAZO_LOCK_WAIT_MS, with a clear error", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/held.lock`;
    let release = () => {};
    const holding = withFileLock(file, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 50));
    await assert.rejects(
      () => withFileLock(file, () => Promise.resolve(), { timeoutMs: 200 }),
      (e: Error) => e.name === "LockTimeoutError" && /held the lock/.test(e.message),
    );
    release();
    await holding;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a lock held by another live process is not taken over", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/live.lock`;
  const child = await holder(file);
  try {
    await assert.rejects(
      () => withFileLock(file, () => Promise.resolve(), { timeoutMs: 1500 }),
      (e: Error) => e.name === "LockTimeoutError",
    );
  } finally {
    await child.kill();
    await Deno.remove(dir, { recursive: true });
  }
});
