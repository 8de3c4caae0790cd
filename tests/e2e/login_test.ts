/** e2e: 3-legged login against the sandbox, silent refresh, one refresh for ten parallel processes. */
import assert from "node:assert/strict";
import {
  diazo,
  json,
  keyboard,
  requestLog,
  sandboxEnv,
  spawnDiazo,
  type TestHome,
  withSandboxHome,
} from "./harness.ts";
import { startLogin } from "./login_helpers.ts";

/** A free loopback port (closed again before use). */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** Registers an app whose callback is a free local port; returns its env. */
async function appEnv(url: string, home: TestHome, name: string): Promise<Record<string, string>> {
  const callback = `http://127.0.0.1:${freePort()}/callback`;
  const res = await fetch(`${url}/_sandbox/apps`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: name, client_secret: `${name}-secret`, callback_url: callback }),
  });
  assert.ok(res.ok, await res.text());
  return sandboxEnv(home, url, {
    SVC_CLIENT_ID: name,
    SVC_CLIENT_SECRET: `${name}-secret`,
    SVC_CALLBACK_URL: callback,
    DIAZO_NO_BROWSER: "1",
  });
}

/** Follows the authorize redirect by hand (no browser) and delivers it to the CLI's callback server. */
async function approve(authorize: string): Promise<string> {
  const res = await fetch(authorize, { redirect: "manual" });
  await res.body?.cancel();
  assert.equal(res.status, 302);
  return res.headers.get("location")!;
}

async function refreshCount(url: string): Promise<number> {
  const log = await requestLog(url, "/authentication/v2/token") as unknown as { grant_type?: string }[];
  return log.filter((e) => e.grant_type === "refresh_token").length;
}

Deno.test("3-legged login via the callback server, userinfo with the user token, silent refresh, 10 parallel refreshers", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = await appEnv(sb.url, home, "login-app");
    const login = await startLogin(["--scopes", "data:read,user-profile:read", "-o", "json"], env);
    const location = await approve(login.authorize);
    assert.match(location, /^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
    const page = await fetch(location);
    assert.match(await page.text(), /You can close this tab/);
    const done = await login.done;
    assert.equal(done.code, 0, done.stderr);
    const out = json<{ mode: string; scopes: string[] }>(done);
    assert.equal(out.mode, "3-legged");
    assert.deepEqual(out.scopes, ["data:read", "user-profile:read"]);

    const who = await diazo(["auth", "whoami", "-o", "json"], { env });
    assert.equal(who.code, 0, who.stderr);
    assert.match(json<{ email: string }>(who).email, /@/);

    // Let the access token expire: the next command refreshes silently.
    await fetch(`${sb.url}/_sandbox/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_seconds: 3600 }),
    }).then((r) => r.body?.cancel());
    const before = await refreshCount(sb.url);
    const again = await diazo(["auth", "whoami", "-o", "json"], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(await refreshCount(sb.url), before + 1);

    // Ten processes need a refresh at once: exactly one refresh reaches the platform.
    await fetch(`${sb.url}/_sandbox/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_seconds: 3600 }),
    }).then((r) => r.body?.cancel());
    const start = await refreshCount(sb.url);
    const runs = await Promise.all(
      // Processes: the refresh lock is between processes, not only between runs of one.
      Array.from({ length: 10 }, () => spawnDiazo(["auth", "whoami", "-o", "json"], { env })),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    assert.equal(await refreshCount(sb.url), start + 1);
    const inspect = await diazo(["auth", "inspect-token", "-o", "json"], { env });
    assert.equal(json<{ expired: boolean; mode: string }>(inspect).expired, false);
    assert.equal(json<{ mode: string }>(inspect).mode, "3-legged");
  }));

Deno.test("--no-browser: the pasted redirect URL completes the login", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = await appEnv(sb.url, home, "paste-app");
    const login = await startLogin(
      ["--no-browser", "--scopes", "data:read,user-profile:read", "-o", "json", "--debug"],
      env,
      "piped",
    );
    const location = await approve(login.authorize);
    const code = new URL(location).searchParams.get("code")!;
    login.type(location + "\n");
    login.close();
    const done = await login.done;
    assert.equal(done.code, 0, done.stderr);
    assert.equal(json<{ mode: string }>(done).mode, "3-legged");
    // The debug log of the login and of a refresh shows no code, token or secret.
    await fetch(`${sb.url}/_sandbox/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_seconds: 3600 }),
    }).then((r) => r.body?.cancel());
    const refreshed = await diazo(["auth", "whoami", "--debug"], { env });
    assert.equal(refreshed.code, 0, refreshed.stderr);
    const stored = Object.values(JSON.parse(await Deno.readTextFile(`${home.configDir}/tokens.json`))) as {
      access_token: string;
      refresh_token?: string;
    }[];
    const text = done.stdout + done.stderr + refreshed.stdout + refreshed.stderr;
    assert.match(text, /grant_type=refresh_token/);
    for (
      const secret of [
        code,
        env.SVC_CLIENT_SECRET,
        ...stored.flatMap((t) => [t.access_token, t.refresh_token ?? "none"]),
      ]
    ) {
      assert.ok(!text.includes(secret), "a secret reached the debug log");
    }
  }));

Deno.test("login failures: wrong state, access_denied, callback port in use, unknown scope, malformed JWT", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = await appEnv(sb.url, home, "bad-app");
    // A callback with the wrong state.
    const wrong = await startLogin(["--scopes", "data:read"], env);
    const callback = new URL(env.SVC_CALLBACK_URL);
    await fetch(`${callback}?code=abc&state=not-the-state`).then((r) => r.body?.cancel());
    const w = await wrong.done;
    assert.equal(w.code, 3);
    assert.match(w.stderr, /error: The login callback carried the wrong state\nhint: /);

    // The user refuses.
    await fetch(`${sb.url}/_sandbox/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ consent: "deny" }),
    })
      .then((r) => r.body?.cancel());
    const denied = await startLogin(["--scopes", "data:read"], env);
    await fetch(await approve(denied.authorize)).then((r) => r.body?.cancel());
    const d = await denied.done;
    assert.equal(d.code, 3);
    assert.match(d.stderr, /error: Authorization was refused \(access_denied/);

    // The callback port is taken.
    const l = Deno.listen({ hostname: "127.0.0.1", port: Number(callback.port) });
    try {
      const busy = await diazo(["auth", "login", "--scopes", "data:read"], {
        env,
        stdin: keyboard("", true),
      });
      assert.equal(busy.code, 2);
      assert.match(busy.stderr, new RegExp(`^error: Port ${callback.port} is already in use\\nhint: `));
    } finally {
      l.close();
    }

    const mismatch = await diazo(["auth", "login", "--scopes", "data:read"], {
      env: { ...env, SVC_CALLBACK_URL: "http://127.0.0.1:1/not-registered" },
      stdin: keyboard("", true),
    });
    assert.equal(mismatch.code, 3);
    assert.match(mismatch.stderr, /^error: Callback URL mismatch\nhint: Make SVC_CALLBACK_URL/);

    const unknown = await diazo(["auth", "login", "--scopes", "data:read,data:everything"], { env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^error: unknown scope data:everything\nhint: /);

    const bad = await diazo(["auth", "inspect-token", "--token", "not.a-jwt"], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error: Not a valid JWT: /);
  }));

Deno.test("a 3-legged command without a 3-legged login fails before any request", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    const r = await diazo(["auth", "whoami"], { env });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /^error: Authentication required \(3-legged OAuth\)\nhint: /);
    assert.equal((await requestLog(sb.url)).length, 0);
  }));

Deno.test("a browser login that opened no browser says one thing: open this URL (also with --quiet)", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = await appEnv(sb.url, home, "one-thing-app");
    const login = await startLogin(["--scopes", "data:read", "--quiet"], env);
    await fetch(await approve(login.authorize)).then((r) => r.body?.cancel());
    const r = await login.done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /^Open this URL in a browser to sign in:\n {2}http:\/\/\S+\/authorize\?\S+\nWaiting for the sign-in\.\.\.\n/,
    );
    assert.doesNotMatch(r.stderr, /Could not open|If nothing happens/);
  }));
