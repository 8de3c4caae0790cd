/** e2e: service-account login, --device without a device endpoint, migrate-from-forge, status. */
import assert from "node:assert/strict";
import path from "node:path";
import { startSandbox } from "../../src/sandbox/server.ts";
import { diazo, json, makeHome, sandboxEnv } from "./harness.ts";

/** A service account registered at the sandbox, with its private key written to a file. */
async function serviceAccount(url: string, dir: string, name: string) {
  const sa = await fetch(`${url}/_sandbox/service-accounts`, {
    method: "POST",
    body: JSON.stringify({ name }),
  }).then((r) => r.json());
  const keyFile = path.join(dir, "sa.pem");
  await Deno.writeTextFile(keyFile, sa.privateKey);
  return { sa, keyFile };
}

Deno.test("service account: JWT-bearer login gives a 3-legged token usable for user commands", async () => {
  const sb = await startSandbox({ port: 0 });
  const home = await makeHome();
  try {
    const { sa, keyFile } = await serviceAccount(sb.url, home.dir, "robot");
    const env = sandboxEnv(home, sb.url);
    const r = await diazo(
      [
        "auth",
        "login",
        "--service-account",
        sa.serviceAccountId,
        "--key-file",
        keyFile,
        "--key-id",
        sa.keyId,
        "--scopes",
        "data:read,user-profile:read",
        "-o",
        "json",
        "--debug",
      ],
      { env },
    );
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
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("--device explains that the platform has no device authorization and points to --no-browser", async () => {
  const sb = await startSandbox({ port: 0 });
  const home = await makeHome();
  try {
    const r = await diazo(["auth", "login", "--device"], { env: sandboxEnv(home, sb.url) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: the platform offers no device authorization.*\nhint: .*--no-browser/);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("migrate-from-forge moves FORGE_* credentials into the profile and verifies the scopes", async () => {
  const sb = await startSandbox({ port: 0 });
  const home = await makeHome();
  try {
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
  } finally {
    await home.cleanup();
    await sb.close();
  }
});

Deno.test("a user token without a scope: the hint says to log in again with it, not extend-scopes", async () => {
  const sb = await startSandbox({ port: 0 });
  const home = await makeHome();
  try {
    const { sa, keyFile } = await serviceAccount(sb.url, home.dir, "narrow");
    const env = sandboxEnv(home, sb.url);
    const login = await diazo(
      [
        "auth",
        "login",
        "--service-account",
        sa.serviceAccountId,
        "--key-file",
        keyFile,
        "--key-id",
        sa.keyId,
        "--scopes",
        "data:read",
      ],
      { env },
    );
    assert.equal(login.code, 0, login.stderr);
    const who = await diazo(["auth", "whoami"], { env });
    assert.equal(who.code, 3);
    assert.match(
      who.stderr,
      /^error: Insufficient privileges to access this resource\nhint: Your login lacks the scope user-profile:read: log in again/,
    );
    assert.doesNotMatch(who.stderr, /extend-scopes/);
  } finally {
    await home.cleanup();
    await sb.close();
  }
});
