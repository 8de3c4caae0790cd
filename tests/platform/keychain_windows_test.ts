/**
 * The real Windows Credential Manager through FFI (platform/keychain_windows.ts). With
 * DIAZO_KEYCHAIN_TEST=required on Windows (scripts/windows-under-wine.sh sets it in a throwaway Wine
 * prefix) these tests must pass for real; elsewhere, or without it, they are reported as ignored:
 * they write to the Credential Manager of the user who runs them.
 */
import assert from "node:assert/strict";
import { type StoredToken, tokenKey } from "../../src/auth/token_store.ts";
import { KEYCHAIN_SERVICE, keychainTokenStore } from "../../src/auth/token_keychain.ts";
import { keychainFor } from "../../src/platform/keychain.ts";
import { MAX_BLOB_BYTES, windowsKeychain } from "../../src/platform/keychain_windows.ts";

const REQUIRED = Deno.build.os === "windows" && Deno.env.get("DIAZO_KEYCHAIN_TEST") === "required";
const real = { ignore: !REQUIRED };
const TRICKY = "first line\r\n\"double quotes\" and 'single' and back\\slash\n\tünïcödé ✓ 🚀 — end\n";
const unique = () => `diazo-test-${crypto.randomUUID().slice(0, 8)}`;

Deno.test({
  ...real,
  name: "Credential Manager (FFI): store, read, replace, delete; a missing secret is null",
  async fn() {
    const kc = windowsKeychain();
    const service = unique();
    try {
      assert.equal(await kc.get(service, "alice"), null);
      await kc.set(service, "alice", "s3cret");
      assert.equal(await kc.get(service, "alice"), "s3cret");
      await kc.set(service, "alice", TRICKY);
      assert.equal(await kc.get(service, "alice"), TRICKY, "Unicode, CRLF, quotes: byte for byte");
      await kc.set(service, "alice", "");
      assert.equal(await kc.get(service, "alice"), "", "an empty secret is not a missing one");
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
  name: "Credential Manager (FFI): 2,560 bytes fit in one credential, one more is refused",
  async fn() {
    const kc = windowsKeychain();
    const service = unique();
    try {
      const full = "x".repeat(MAX_BLOB_BYTES);
      await kc.set(service, "max", full);
      assert.equal(await kc.get(service, "max"), full);
      await assert.rejects(() => kc.set(service, "max", full + "y"), /secret too long \(2561 bytes\)/);
      assert.equal(await kc.get(service, "max"), full, "a refused write leaves the old secret");
    } finally {
      await kc.delete(service, "max").catch(() => {});
    }
  },
});

Deno.test({
  ...real,
  name: "Credential Manager (FFI): the keychain of Windows splits a long secret into parts and joins it back",
  async fn() {
    const kc = keychainFor("windows")!;
    assert.equal(kc.name, "windows-credential-manager");
    const service = unique();
    const long = "é🚀".repeat(2_000) + "end"; // 12,003 bytes of UTF-8: several credentials
    try {
      await kc.set(service, "jwt", long);
      assert.equal(await kc.get(service, "jwt"), long);
      await kc.set(service, "jwt", "short again");
      assert.equal(await kc.get(service, "jwt"), "short again", "a shorter secret replaces every part");
      assert.equal(await kc.delete(service, "jwt"), true);
      assert.equal(await kc.get(service, "jwt"), null);
    } finally {
      await kc.delete(service, "jwt").catch(() => {});
    }
  },
});

Deno.test({
  ...real,
  name: "keychainTokenStore on the Credential Manager: put, get, list, removeProfile",
  async fn() {
    const store = keychainTokenStore(keychainFor("windows")!);
    const profile = unique();
    const token: StoredToken = {
      access_token: `at-${"a".repeat(3_000)}`, // longer than one credential, as real JWTs are
      expires_at: Date.now() + 3_600_000,
      scopes: ["data:read"],
      mode: "2-legged",
      client_id: "cid",
      base_url: "https://example.test",
      profile,
    };
    const key = tokenKey(token);
    try {
      await store.put(key, token);
      assert.deepEqual(await store.get(key), token);
      assert.deepEqual(await store.list(profile), { [key]: token });
      assert.equal(await store.removeProfile(profile), 1);
      assert.equal(await store.get(key), undefined);
    } finally {
      await store.removeProfile(profile).catch(() => {});
    }
    assert.equal(KEYCHAIN_SERVICE, "diazo");
  },
});
