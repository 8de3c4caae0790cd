/** The auth verbs of ops/ against an in-process sandbox, with test deps (no CLI, no tool server). */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import { DiazoError } from "../../src/core/errors.ts";
import { fileTokenStore, type StoredToken } from "../../src/auth/token_store.ts";
import {
  appScopes,
  runAuthStatus,
  runAuthTest,
  runLogout,
  scopeStatus,
} from "../../src/families/auth/verbs.ts";
import { runExtendScopes, runInspectToken, runReduceScopes } from "../../src/families/auth/scopes.ts";
import { runDiagnose, runMigrateFromForge } from "../../src/families/auth/report.ts";
import { runLogin } from "../../src/families/auth/login.ts";
import { testDeps } from "./auth_deps.ts";

const APP = { SVC_CLIENT_ID: "diazo-sandbox", SVC_CLIENT_SECRET: "diazo-sandbox-secret" };

async function withSandbox(fn: (url: string) => Promise<void>): Promise<void> {
  const sb = await startTestSandbox();
  try {
    await fn(sb.url);
  } finally {
    await sb.close();
  }
}

function token(over: Partial<StoredToken>): StoredToken {
  return {
    profile: "default",
    mode: "2-legged",
    client_id: "diazo-sandbox",
    base_url: "http://sb",
    scopes: [],
    access_token: "opaque",
    expires_at: Date.now() + 3_600_000,
    ...over,
  };
}

const isCode = (code: string) => (e: unknown) => e instanceof DiazoError && e.code === code;

Deno.test("runAuthTest: a fresh app token with the profile's scopes; missing credentials before the token store", async () => {
  await withSandbox(async (url) => {
    const deps = testDeps({ DIAZO_BASE_URL: url, ...APP });
    const r = await runAuthTest({}, deps);
    assert.equal(r.client_id, "diazo-sandbox");
    assert.equal(r.client_id_source, "SVC_CLIENT_ID");
    assert.equal(r.base_url, url);
    assert.deepEqual(r.scopes, await appScopes(deps));
    assert.ok(Date.parse(r.expires_at) > Date.now());
    const [first] = Object.values(await deps.store.list("default"));
    await runAuthTest({}, deps);
    const cached = Object.values(await deps.store.list("default"));
    assert.equal(cached.length, 1, "one cached token per profile and scope set");
    assert.notEqual(cached[0].access_token, first.access_token, "a second test asks for a fresh token");
  });
  const none = testDeps({ DIAZO_BASE_URL: "http://127.0.0.1:9" });
  await assert.rejects(runAuthTest({}, none), isCode("missing_credentials"));
  assert.equal(none.storeOpened, 0);
});

Deno.test("runAuthStatus and scopeStatus: an expired token holds no scope; verbose adds claims", async () => {
  const deps = testDeps({ ...APP, DIAZO_BASE_URL: "http://sb" }, {
    config: { profiles: { default: { scopes: ["bucket:read"] } }, settings: {} },
  });
  await deps.store.put("a", token({ scopes: ["bucket:read", "data:read"] }));
  await deps.store.put("b", token({ scopes: ["bucket:delete"], expires_at: Date.now() - 1000 }));
  const st = await runAuthStatus({}, deps);
  assert.equal(st.client_secret, "diaz…(20 chars)");
  assert.deepEqual(st.tokens.map((t) => t.expired), [false, true]);
  assert.ok(st.tokens.every((t) => !("claims" in t)));
  assert.deepEqual(
    scopeStatus(st).map((s) => [s.scope, s.in_profile, s.in_valid_token]),
    [["bucket:read", true, true], ["data:read", false, true]],
  );
  const verbose = await runAuthStatus({ verbose: true }, deps);
  assert.deepEqual(verbose.tokens.map((t) => t.claims), [null, null]);
});

Deno.test("runLogout: revokes at the platform, empties the store and a file store left behind", async () => {
  await withSandbox(async (url) => {
    const dir = await Deno.makeTempDir();
    try {
      const deps = testDeps({ DIAZO_BASE_URL: url, ...APP }, { configDir: dir });
      await runAuthTest({}, deps);
      await fileTokenStore(dir).put("old", token({ base_url: "elsewhere" }));
      const r = await runLogout({}, deps);
      assert.deepEqual(r, { profile: "default", removed: 2, revoked: 1 });
      assert.deepEqual(await deps.store.list("default"), {});
      assert.deepEqual(await fileTokenStore(dir).list("default"), {});
      assert.equal(deps.lines.filter((l) => l.startsWith("warn")).length, 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("extend/reduce-scopes: proven with a token, then saved; the last scope cannot go; user scopes are refused first", async () => {
  await withSandbox(async (url) => {
    const deps = testDeps({ DIAZO_BASE_URL: url, ...APP }, {
      config: { profiles: { default: { scopes: ["bucket:read"] } }, settings: {} },
    });
    const grown = await runExtendScopes({ add: "data:read,bucket:read" }, deps);
    assert.deepEqual(grown, {
      profile: "default",
      before: ["bucket:read"],
      after: ["bucket:read", "data:read"],
    });
    assert.deepEqual(deps.saved?.profiles.default.scopes, ["bucket:read", "data:read"]);
    assert.equal(deps.saved?.active_profile, "default");
    const shrunk = await runReduceScopes({ remove: "bucket:read" }, deps);
    assert.deepEqual(shrunk.after, ["data:read"]);
    await assert.rejects(runReduceScopes({ remove: "data:read" }, deps), /at least one scope/);
    const opened = deps.storeOpened;
    await assert.rejects(
      runExtendScopes({ add: "user-profile:read" }, deps),
      /cannot be granted to a 2-legged token/,
    );
    assert.equal(deps.storeOpened, opened);
  });
});

Deno.test("migrate-from-forge: FORGE_* move only where the profile has none; unknown scopes map to null", async () => {
  const deps = testDeps({ FORGE_CLIENT_ID: "legacy-id", FORGE_CALLBACK_URL: "http://localhost:3000/cb" }, {
    config: { profiles: { default: { callback_url: "http://localhost:8080/callback" } }, settings: {} },
  });
  const r = await runMigrateFromForge({ scopes: "data:read" }, deps);
  assert.deepEqual(r.moved, ["FORGE_CLIENT_ID -> client_id"]);
  assert.deepEqual(r.scopes, [{ legacy: "data:read", current: "data:read" }]);
  assert.equal(r.verified, null);
  assert.equal(deps.saved?.profiles.default.client_id, "legacy-id");
  assert.equal(deps.saved?.profiles.default.callback_url, "http://localhost:8080/callback");
  const mapped = await runMigrateFromForge(
    {},
    testDeps({}, {
      config: { profiles: { default: { scopes: ["data:read", "viewables:everything"] } }, settings: {} },
    }),
  );
  assert.deepEqual(mapped.scopes.map((s) => s.current), ["data:read", null]);
});

Deno.test("migrate-from-forge --verify-scopes: true when the token carries every scope", async () => {
  await withSandbox(async (url) => {
    const deps = testDeps({
      DIAZO_BASE_URL: url,
      FORGE_CLIENT_ID: APP.SVC_CLIENT_ID,
      FORGE_CLIENT_SECRET: APP.SVC_CLIENT_SECRET,
    });
    const r = await runMigrateFromForge({ scopes: "bucket:read", verifyScopes: true }, deps);
    assert.equal(r.moved.length, 2);
    assert.equal(r.verified, true);
  });
});

Deno.test("runDiagnose: stray characters and a bad callback URL fail; connectivity against the platform", async () => {
  await withSandbox(async (url) => {
    const deps = testDeps({
      DIAZO_BASE_URL: url,
      SVC_CLIENT_ID: " diazo-sandbox",
      SVC_CLIENT_SECRET: "s",
      SVC_CALLBACK_URL: "http://example.com/cb",
    });
    const checks = Object.fromEntries((await runDiagnose({}, deps)).map((c) => [c.check, c]));
    assert.equal(checks["credentials present"].ok, true);
    assert.equal(checks["no stray characters"].ok, false);
    assert.match(checks["callback URL shape"].detail, /only allowed for localhost/);
    assert.equal(checks.connectivity.ok, true);
    assert.ok("clock skew" in checks);
  });
  const down = await runDiagnose({}, testDeps({ DIAZO_BASE_URL: "http://127.0.0.1:9" }));
  assert.deepEqual(down.map((c) => [c.check, c.ok]).at(-1), ["connectivity", false]);
});

Deno.test("runInspectToken: decodes the cached token, the user's first; none cached is a usage error", async () => {
  await withSandbox(async (url) => {
    const deps = testDeps({ DIAZO_BASE_URL: url, ...APP });
    await assert.rejects(runInspectToken({}, deps), /no cached token to inspect/);
    await runAuthTest({}, deps);
    const t = await runInspectToken({}, deps);
    assert.equal(t.mode, "2-legged");
    assert.equal(t.client_id, "diazo-sandbox");
    assert.equal(t.expired, false);
    assert.deepEqual(t.scopes.sort(), await appScopes(deps));
  });
});

Deno.test("runLogin: one mode at a time; --2legged --scopes saves them; --no-browser shows the URL and needs a pasted line", async () => {
  await withSandbox(async (url) => {
    const deps = testDeps({ DIAZO_BASE_URL: url, ...APP });
    await assert.rejects(runLogin({ twoLegged: true, device: true }, deps), /choose one of/);
    const { login, action } = await runLogin({ twoLegged: true, scopes: "bucket:read" }, deps);
    assert.deepEqual(login.scopes, ["bucket:read"]);
    assert.equal(login.client_id, "diazo-sandbox");
    assert.match(action, /^Logged in \(2-legged\) as app diazo-sandbox with bucket:read$/);
    assert.deepEqual(deps.saved?.profiles.default.scopes, ["bucket:read"]);
    await assert.rejects(runLogin({ browser: false }, deps), /no redirect URL on stdin/);
    const told = deps.lines.find((l) => l.startsWith("tell: "));
    assert.match(told ?? "", new RegExp(`${url}/authentication/v2/authorize\\?response_type=code`));
  });
});
