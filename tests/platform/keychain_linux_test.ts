/**
 * The real Secret Service backend through `secret-tool`. With DIAZO_KEYCHAIN_TEST=required (see
 * scripts/keychain-test.sh, which provides a D-Bus session and an unlocked gnome-keyring) these
 * tests must pass for real; otherwise they are reported as ignored and only the file fallback,
 * which needs no session bus, is checked.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { type StoredToken, tokenKey } from "../../src/auth/token_store.ts";
import { KEYCHAIN_SERVICE, keychainTokenStore } from "../../src/auth/token_keychain.ts";
import { openTokenStore } from "../../src/auth/token_open.ts";
import { linuxKeychain } from "../../src/platform/keychain_linux.ts";

const REQUIRED = Deno.env.get("DIAZO_KEYCHAIN_TEST") === "required";
const real = { ignore: !REQUIRED, sanitizeResources: true, sanitizeOps: true };
const TRICKY = "first line\n\"double quotes\" and 'single' and back\\slash\n\tünïcödé ✓ 🚀 — end\n";

const unique = () => crypto.randomUUID().slice(0, 8);

function token(profile: string, scopes: string[]): StoredToken {
  return {
    access_token: `at-${profile}-${scopes.join("+")}-${unique()}`,
    expires_at: Date.now() + 3_600_000,
    scopes,
    mode: "2-legged",
    client_id: "cid",
    base_url: "https://example.test",
    profile,
  };
}

Deno.test({
  ...real,
  name: "secret-tool: store, lookup, replace, clear; a missing secret is null",
  async fn() {
    const kc = linuxKeychain();
    const service = `diazo-test-${unique()}`;
    try {
      assert.equal(await kc.get(service, "alice"), null);
      await kc.set(service, "alice", "s3cret");
      assert.equal(await kc.get(service, "alice"), "s3cret");
      await kc.set(service, "alice", TRICKY);
      assert.equal(await kc.get(service, "alice"), TRICKY, "multi-line unicode with quotes, byte for byte");
      assert.equal(await kc.get(service, "bob"), null, "another account is not found");
      assert.equal(await kc.delete(service, "alice"), true);
      assert.equal(await kc.get(service, "alice"), null);
      assert.equal(await kc.delete(service, "alice"), false);
    } finally {
      await kc.delete(service, "alice").catch(() => {});
    }
  },
});

Deno.test({
  ...real,
  name: "keychainTokenStore on the real Secret Service: put, get, list, removeProfile",
  async fn() {
    const store = keychainTokenStore(linuxKeychain());
    const a = `kt-${unique()}-a`;
    const b = `kt-${unique()}-b`;
    try {
      const a1 = token(a, ["data:read"]);
      const a2 = token(a, ["bucket:read", "data:read"]);
      const b1 = token(b, ["data:read"]);
      for (const t of [a1, a2, b1]) await store.put(tokenKey(t), t);
      assert.deepEqual(await store.get(tokenKey(a2)), a2);
      assert.deepEqual(await store.get(tokenKey(b1)), b1);
      assert.deepEqual(Object.keys(await store.list(a)).sort(), [tokenKey(a1), tokenKey(a2)].sort());
      const raw = await linuxKeychain().get(KEYCHAIN_SERVICE, a);
      assert.equal(Object.keys(JSON.parse(raw!)).length, 2, "one secret holds the profile's tokens");
      assert.equal(await store.removeProfile(a), 2);
      assert.deepEqual(await store.list(a), {});
      assert.equal(await store.get(tokenKey(a1)), undefined);
      assert.deepEqual(await store.get(tokenKey(b1)), b1, "other profiles stay");
    } finally {
      await store.removeProfile(a).catch(() => 0);
      await store.removeProfile(b).catch(() => 0);
    }
  },
});

Deno.test({
  ...real,
  name: "the secret reaches secret-tool only on stdin: never in its argv or environment",
  async fn() {
    const tool = new TextDecoder().decode(
      (await new Deno.Command("sh", { args: ["-c", "command -v secret-tool"], stdout: "piped" }).output())
        .stdout,
    ).trim();
    assert.ok(tool, "secret-tool is installed");
    const dir = await Deno.makeTempDir({ prefix: "diazo-wrap-" });
    const wrapper = path.join(dir, "secret-tool");
    const log = path.join(dir, "log");
    // Records what the child sees, then becomes the real tool (same pid, same argv).
    await Deno.writeTextFile(
      wrapper,
      `#!/bin/sh\n{ echo "argv:"; printf '%s\\n' "$@"; echo "cmdline:"; tr '\\0' '\\n' < /proc/$$/cmdline; ` +
        `echo "env:"; env; } >> '${log}'\nexec '${tool}' "$@"\n`,
      { mode: 0o755 },
    );
    const clientSecret = `client-secret-${unique()}`;
    const kc = linuxKeychain({
      command: wrapper,
      env: { ...Deno.env.toObject(), SVC_CLIENT_SECRET: clientSecret },
    });
    const service = `diazo-test-${unique()}`;
    const secret = `argv-check-${unique()} ünï "q"`;
    try {
      await kc.set(service, "carol", secret);
      assert.equal(await kc.get(service, "carol"), secret, "the real tool stored and returned it");
      assert.equal(await kc.delete(service, "carol"), true);
      const seen = await Deno.readTextFile(log);
      assert.match(seen, /^store$/m, "the wrapper saw the store call");
      assert.match(seen, /^cmdline:$/m);
      assert.ok(!seen.includes(secret), "the secret never appears in argv, /proc cmdline or env");
      assert.ok(!seen.includes(clientSecret), "the caller's client secret is not passed on");
    } finally {
      await kc.delete(service, "carol").catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  ...real,
  name: "openTokenStore picks the Secret Service when it answers",
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "diazo-kc-" });
    const warnings: string[] = [];
    try {
      const { store, status } = await openTokenStore({
        configDir: path.join(root, "config"),
        stateDir: path.join(root, "state"),
        env: Deno.env.toObject(),
        os: "linux",
        warn: (m) => warnings.push(m),
      });
      assert.equal(store.kind, "keychain");
      assert.equal(status.location, "secret-service");
      assert.deepEqual(warnings, []);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "without a session bus: tokens.json with mode 0600, and the reason said once on the warn channel",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "diazo-nokc-" });
    const configDir = path.join(root, "config");
    const stateDir = path.join(root, "state");
    // No DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR or DISPLAY: there is no way to reach a bus.
    const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: root };
    const warnings: string[] = [];
    const open = () =>
      openTokenStore({ configDir, stateDir, env, os: "linux", warn: (m) => warnings.push(m) });
    try {
      const { store, status } = await open();
      assert.equal(store.kind, "file");
      const file = path.join(configDir, "tokens.json");
      assert.equal(status.location, file);
      assert.match(status.reason, /no D-Bus session bus|secret-tool not found/);
      assert.equal(warnings.length, 1);
      assert.ok(warnings[0].includes(file), `names the file: ${warnings[0]}`);
      assert.match(warnings[0], /no D-Bus session bus|secret-tool not found/);

      const again = await open();
      assert.equal(again.store.kind, "file");
      assert.equal(warnings.length, 1, "said once per machine");

      const t = token("fallback", ["data:read"]);
      await again.store.put(tokenKey(t), t);
      assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
      assert.deepEqual(await store.get(tokenKey(t)), t);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
