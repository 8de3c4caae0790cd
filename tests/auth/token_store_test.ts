/** Token stores: the keychain store's layout and the choice between keychain and file. */
import assert from "node:assert/strict";
import path from "node:path";
import {
  FALLBACK_MARKER,
  fileTokenStore,
  type OpenTokenStoreOptions,
  type StoredToken,
  tokenKey,
} from "../../src/auth/token_store.ts";
import { KEYCHAIN_SERVICE, keychainTokenStore } from "../../src/auth/token_keychain.ts";
import { openTokenStore } from "../../src/auth/token_open.ts";
import { DiazoError } from "../../src/core/errors.ts";
import { type Keychain, KeychainUnavailable } from "../../src/platform/keychain.ts";

function token(profile: string, scopes: string[], extra: Partial<StoredToken> = {}): StoredToken {
  return {
    access_token: `at-${profile}-${scopes.join("+")}`,
    expires_at: 1_900_000_000_000,
    scopes,
    mode: "2-legged",
    client_id: "cid",
    base_url: "https://example.test",
    profile,
    ...extra,
  };
}

/** An in-memory keychain that counts its calls; `broken` makes every call fail like a missing bus. */
function fakeKeychain(broken?: string) {
  const items = new Map<string, string>();
  const calls: string[] = [];
  const fail = () => {
    if (broken) throw new KeychainUnavailable(broken);
  };
  const kc: Keychain = {
    name: "secret-service",
    get(s, a) {
      calls.push(`get ${s} ${a}`);
      fail();
      return Promise.resolve(items.get(`${s}/${a}`) ?? null);
    },
    set(s, a, v) {
      calls.push(`set ${s} ${a}`);
      fail();
      items.set(`${s}/${a}`, v);
      return Promise.resolve();
    },
    delete(s, a) {
      calls.push(`delete ${s} ${a}`);
      fail();
      return Promise.resolve(items.delete(`${s}/${a}`));
    },
  };
  return { kc, items, calls };
}

async function dirs() {
  const root = await Deno.makeTempDir({ prefix: "diazo-store-" });
  return { root, configDir: path.join(root, "config"), stateDir: path.join(root, "state") };
}

Deno.test("keychain store: one secret per profile holding every token of it", async () => {
  const { kc, items } = fakeKeychain();
  const store = keychainTokenStore(kc);
  assert.equal(store.kind, "keychain");
  const a1 = token("work", ["data:read"]);
  const a2 = token("work", ["bucket:read", "data:read"]);
  const b1 = token("home", ["data:read"]);
  for (const t of [a1, a2, b1]) await store.put(tokenKey(t), t);

  assert.deepEqual([...items.keys()].sort(), [`${KEYCHAIN_SERVICE}/home`, `${KEYCHAIN_SERVICE}/work`]);
  const work = JSON.parse(items.get(`${KEYCHAIN_SERVICE}/work`)!);
  assert.deepEqual(Object.keys(work).sort(), [tokenKey(a1), tokenKey(a2)].sort());

  assert.deepEqual(await store.get(tokenKey(a2)), a2);
  assert.equal(await store.get(tokenKey(token("work", ["other"]))), undefined);
  assert.deepEqual(
    Object.values(await store.list("work")).map((t) => t.access_token).sort(),
    [a1.access_token, a2.access_token].sort(),
  );
  assert.equal(await store.removeProfile("work"), 2);
  assert.deepEqual(await store.list("work"), {});
  assert.ok(!items.has(`${KEYCHAIN_SERVICE}/work`), "the profile's secret is deleted");
  assert.deepEqual(await store.get(tokenKey(b1)), b1, "other profiles stay");
  assert.equal(await store.removeProfile("nobody"), 0);
});

Deno.test("keychain store: a damaged secret is an empty cache, and the next put repairs it", async () => {
  const { kc, items } = fakeKeychain();
  items.set(`${KEYCHAIN_SERVICE}/p`, "{not json");
  const store = keychainTokenStore(kc);
  assert.deepEqual(await store.list("p"), {});
  const t = token("p", ["data:read"]);
  await store.put(tokenKey(t), t);
  assert.deepEqual(await store.get(tokenKey(t)), t);
});

function options(
  d: { configDir: string; stateDir: string },
  kc: Keychain | undefined,
  warnings: string[],
  env: Record<string, string> = {},
): OpenTokenStoreOptions {
  return { ...d, env, os: "linux", warn: (m) => warnings.push(m), keychainFor: () => kc };
}

Deno.test("openTokenStore: a working keychain is used, without a word", async () => {
  const d = await dirs();
  const { kc, calls } = fakeKeychain();
  const warnings: string[] = [];
  const { store, status } = await openTokenStore(options(d, kc, warnings));
  assert.equal(store.kind, "keychain");
  assert.deepEqual(status, {
    kind: "keychain",
    location: "secret-service",
    reason: "the OS keychain (secret-service) answered",
  });
  assert.deepEqual(calls, [`get ${KEYCHAIN_SERVICE} .probe`], "one probe");
  assert.deepEqual(warnings, []);
  await Deno.remove(d.root, { recursive: true });
});

Deno.test("openTokenStore: no keychain -> tokens.json (0600) and one warning per machine", async () => {
  const d = await dirs();
  const warnings: string[] = [];
  const first = await openTokenStore(options(d, fakeKeychain("no D-Bus session bus").kc, warnings));
  assert.equal(first.store.kind, "file");
  assert.equal(first.status.location, path.join(d.configDir, "tokens.json"));
  assert.match(first.status.reason, /no D-Bus session bus/);
  assert.equal(warnings.length, 1);
  assert.ok(warnings[0].includes(path.join(d.configDir, "tokens.json")), warnings[0]);
  assert.match(warnings[0], /no D-Bus session bus/);

  const again = await openTokenStore(options(d, fakeKeychain("no D-Bus session bus").kc, warnings));
  assert.equal(again.store.kind, "file");
  assert.equal(warnings.length, 1, "the warning is not repeated");
  await Deno.stat(path.join(d.stateDir, FALLBACK_MARKER));

  const t = token("p", ["data:read"]);
  await again.store.put(tokenKey(t), t);
  if (Deno.build.os !== "windows") {
    assert.equal((await Deno.stat(path.join(d.configDir, "tokens.json"))).mode! & 0o777, 0o600);
  }
  await Deno.remove(d.root, { recursive: true });
});

Deno.test("openTokenStore: an OS without a backend falls back and says why", async () => {
  const d = await dirs();
  const warnings: string[] = [];
  const { status } = await openTokenStore({ ...options(d, undefined, warnings), os: "plan9" });
  assert.equal(status.kind, "file");
  assert.match(status.reason, /no supported OS keychain on plan9/);
  assert.equal(warnings.length, 1);
  await Deno.remove(d.root, { recursive: true });
});

Deno.test("openTokenStore: DIAZO_TOKEN_STORE=file skips the keychain and the warning", async () => {
  const d = await dirs();
  const { kc, calls } = fakeKeychain();
  const warnings: string[] = [];
  const { store, status } = await openTokenStore(options(d, kc, warnings, { DIAZO_TOKEN_STORE: "file" }));
  assert.equal(store.kind, "file");
  assert.equal(status.reason, "DIAZO_TOKEN_STORE=file");
  assert.deepEqual(calls, [], "not even probed");
  assert.deepEqual(warnings, []);
  await Deno.remove(d.root, { recursive: true });
});

Deno.test("openTokenStore: DIAZO_TOKEN_STORE=keychain uses it, or fails with a hint when it cannot", async () => {
  const d = await dirs();
  const warnings: string[] = [];
  const ok = await openTokenStore(options(d, fakeKeychain().kc, warnings, { DIAZO_TOKEN_STORE: "keychain" }));
  assert.equal(ok.store.kind, "keychain");
  assert.equal(ok.status.reason, "DIAZO_TOKEN_STORE=keychain");
  await assert.rejects(
    openTokenStore(
      options(d, fakeKeychain("no D-Bus session bus").kc, warnings, { DIAZO_TOKEN_STORE: "keychain" }),
    ),
    (e) =>
      e instanceof DiazoError && e.code === "keychain_unavailable" &&
      /no D-Bus session bus/.test(e.message) &&
      /DIAZO_TOKEN_STORE=file/.test(e.hint) && /secret-tool/.test(e.hint),
  );
  assert.deepEqual(warnings, [], "an error, not a fallback");
  await assert.rejects(
    openTokenStore(options(d, fakeKeychain().kc, warnings, { DIAZO_TOKEN_STORE: "vault" })),
    (e) => e instanceof DiazoError && e.code === "usage" && /DIAZO_TOKEN_STORE/.test(e.message),
  );
  await Deno.remove(d.root, { recursive: true });
});

Deno.test(
  "file store: tokens.json is created with mode 0600",
  { ignore: Deno.build.os === "windows" },
  async () => {
    const d = await dirs();
    const store = fileTokenStore(d.configDir);
    const t = token("p", ["data:read"]);
    await store.put(tokenKey(t), t);
    assert.equal((await Deno.stat(path.join(d.configDir, "tokens.json"))).mode! & 0o777, 0o600);
    assert.deepEqual(await store.get(tokenKey(t)), t);
    await Deno.remove(d.root, { recursive: true });
  },
);
