/** e2e: service-account login, --device with and without a device endpoint, migrate-from-forge, status. */
import assert from "node:assert/strict";
import path from "node:path";
import { diazo, json, requestLog, sandboxEnv, withSandboxHome } from "./harness.ts";
import { startLogin } from "./login_helpers.ts";

/**
 * A service account registered at the sandbox, its private key written to a file, and the
 * `auth login` arguments that use it with the given scopes.
 */
async function serviceAccount(url: string, dir: string, name: string) {
  const sa = await fetch(`${url}/_sandbox/service-accounts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name }),
  }).then((r) => r.json());
  const keyFile = path.join(dir, "sa.pem");
  await Deno.writeTextFile(keyFile, sa.privateKey);
  const loginArgs = (scopes: string) => [
    ...["auth", "login", "--service-account", sa.serviceAccountId, "--key-file", keyFile],
    ...["--key-id", sa.keyId, "--scopes", scopes],
  ];
  return { sa, keyFile, loginArgs };
}

Deno.test("service account: JWT-bearer login gives a 3-legged token usable for user commands", () =>
  withSandboxHome(async ({ sb, home }) => {
    const { sa, keyFile, loginArgs } = await serviceAccount(sb.url, home.dir, "robot");
    const env = sandboxEnv(home, sb.url);
    const r = await diazo([...loginArgs("data:read,user-profile:read"), "-o", "json", "--debug"], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(json<{ mode: string }>(r).mode, "3-legged");
    const status = json<{ tokens: { mode: string; user: string | null }[] }>(
      await diazo(["auth", "status", "-o", "json"], { env }),
    );
    assert.equal(status.tokens.find((t) => t.mode === "3-legged")?.user, sa.serviceAccountId);
    const who = await diazo(["auth", "whoami", "-o", "json"], { env });
    assert.equal(who.code, 0, who.stderr);

    const missingKey = await diazo([
      "auth",
      "login",
      "--service-account",
      sa.serviceAccountId,
      "--key-file",
      "nope.pem",
    ], { env, cwd: home.cwd });
    assert.equal(missingKey.code, 2);
    assert.match(missingKey.stderr, /^error: File not found: nope\.pem/);
    await Deno.writeTextFile(keyFile, "not a key");
    const badKey = await diazo([
      "auth",
      "login",
      "--service-account",
      sa.serviceAccountId,
      "--key-file",
      keyFile,
    ], { env });
    assert.equal(badKey.code, 2);
    assert.match(badKey.stderr, /PKCS#8/);
  }));

Deno.test("--device explains that the platform has no device authorization and points to --no-browser", () =>
  withSandboxHome(async ({ sb, home }) => {
    const r = await diazo(["auth", "login", "--device"], { env: sandboxEnv(home, sb.url) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: the platform offers no device authorization.*\nhint: .*--no-browser/);
  }));

Deno.test("--device where the platform offers it: code on stderr, approval elsewhere, polling, stored login", () =>
  withSandboxHome(async ({ sb, home }) => {
    const cfg = await fetch(`${sb.url}/_sandbox/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ device_flow: true, device_interval_seconds: 1 }),
    });
    assert.equal(cfg.status, 200, await cfg.text());
    const env = sandboxEnv(home, sb.url, { DIAZO_NO_BROWSER: "1" });
    const login = await startLogin(
      ["--device", "--scopes", "data:read,account:read", "-o", "json"],
      env,
      "null",
      /or open (http:\/\/\S+user_code=[A-Z]{4}-[A-Z]{4})/,
    );
    // The CLI polls (pending) until the user approves; its next poll then completes the login.
    while ((await requestLog(sb.url, "/authentication/v2/token")).length === 0) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const approved = await fetch(login.authorize);
    assert.equal(approved.status, 200);
    await approved.body?.cancel();
    const done = await login.done;
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stderr, /enter the code [A-Z]{4}-[A-Z]{4}/);
    const summary = JSON.parse(done.stdout);
    assert.equal(summary.mode, "3-legged");
    assert.deepEqual(summary.scopes, ["account:read", "data:read"]);
    const polls = (await requestLog(sb.url, "/authentication/v2/token")).length;
    assert.ok(polls >= 2, `polled until approved (${polls} token requests)`);
    const status = json<{ mode: string }[]>(await diazo(["auth", "status", "-o", "json"], { env }));
    assert.ok(JSON.stringify(status).includes("3-legged"));
    // A user who refuses ends the login with exit 3 and the catalog's message.
    await fetch(`${sb.url}/_sandbox/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ consent: "deny" }),
    })
      .then((r) => r.body?.cancel());
    const refused = await startLogin(["--device"], env, "null", /or open (http:\/\/\S+user_code=\S+)/);
    await fetch(refused.authorize).then((r) => r.body?.cancel());
    const end = await refused.done;
    assert.equal(end.code, 3);
    assert.match(end.stderr, /error: Authorization was refused \(access_denied\)\nhint: /);
  }));

Deno.test("migrate-from-forge moves FORGE_* credentials into the profile and verifies the scopes", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url, {
      FORGE_CLIENT_ID: "diazo-sandbox",
      FORGE_CLIENT_SECRET: "diazo-sandbox-secret",
    });
    delete env.SVC_CLIENT_ID;
    delete env.SVC_CLIENT_SECRET;
    const r = await diazo([
      "auth",
      "migrate-from-forge",
      "--verify-scopes",
      "--scopes",
      "bucket:read,data:read",
      "-o",
      "json",
    ], { env });
    assert.equal(r.code, 0, r.stderr);
    const out = json<{ moved: string[]; verified: boolean; scopes: { legacy: string; current: string }[] }>(
      r,
    );
    assert.deepEqual(out.moved, ["FORGE_CLIENT_ID -> client_id", "FORGE_CLIENT_SECRET -> client_secret"]);
    assert.equal(out.verified, true);
    assert.deepEqual(out.scopes.map((s) => s.legacy === s.current), [true, true]);
    // The profile alone now works, without the FORGE_* variables.
    const plain = sandboxEnv(home, sb.url);
    delete plain.SVC_CLIENT_ID;
    delete plain.SVC_CLIENT_SECRET;
    const t = await diazo(["auth", "test", "-o", "json"], { env: plain });
    assert.equal(t.code, 0, t.stderr);
    assert.deepEqual(json<{ scopes: string[] }>(t).scopes, ["bucket:read", "data:read"]);
  }));

Deno.test("a user token without a scope: the hint says to log in again with it, not extend-scopes", () =>
  withSandboxHome(async ({ sb, home }) => {
    const { loginArgs } = await serviceAccount(sb.url, home.dir, "narrow");
    const env = sandboxEnv(home, sb.url);
    const login = await diazo(loginArgs("data:read"), { env });
    assert.equal(login.code, 0, login.stderr);
    const who = await diazo(["auth", "whoami"], { env });
    assert.equal(who.code, 3);
    assert.match(
      who.stderr,
      /^error: Insufficient privileges to access this resource\nhint: Your login lacks the scope user-profile:read: log in again/,
    );
    assert.doesNotMatch(who.stderr, /extend-scopes/);
  }));
