import assert from "node:assert/strict";
import { testSigningKey } from "../e2e/test_sandbox.ts";
import { createSandboxContext } from "../../src/sandbox/context.ts";
import { resetStores, type ServiceStore, snapshotStores } from "../../src/sandbox/store.ts";
import { api, control, token, withSandbox } from "./helpers.ts";
import { MD_SCOPES, translated, uploadDesign } from "./derivative_helpers.ts";
import { filesUnder } from "./object_helpers.ts";
import { login } from "./oauth_helpers.ts";

const DA = "/da/us-east/v3";

Deno.test("stores: every service has a store in the registry, and the dump is their snapshots", async () => {
  const sb = createSandboxContext([await testSigningKey()], "");
  for (
    const s of [
      sb.auth,
      sb.oss,
      sb.derivative,
      sb.dm,
      sb.da,
      sb.admin,
      sb.clock,
      sb.settings,
      sb.faults,
      sb.webhooks,
    ]
  ) {
    assert.ok(sb.stores.includes(s));
  }
  assert.deepEqual(Object.keys(snapshotStores(sb.stores)), [
    "apps",
    "service_accounts",
    "buckets",
    "objects",
    "derivative_manifests",
    "faults",
    "clock",
    "config",
    "webhooks",
    "webhook_deliveries",
  ]);
});

Deno.test("stores: resetStores resets each store once, in order, awaiting asynchronous ones", async () => {
  const calls: string[] = [];
  const store = (name: string, slow = false): ServiceStore => ({
    async reset() {
      if (slow) await new Promise((r) => setTimeout(r, 5));
      calls.push(name);
    },
    snapshot: () => ({ [name]: true }),
  });
  const stores = [store("a", true), store("b"), store("c", true)];
  await resetStores(stores);
  assert.deepEqual(calls, ["a", "b", "c"]);
  assert.deepEqual(snapshotStores(stores), { a: true, b: true, c: true });
});

Deno.test("reset: /_sandbox/reset empties every service's store", async () => {
  await withSandbox(async (sb) => {
    // auth: an extra app, a service account, tokens; oss: a bucket and an object on disk;
    // derivative: a manifest; da: a nickname; admin: a created project; and the control state.
    const t = await token(sb, `${MD_SCOPES} code:all`);
    assert.equal((await control(sb, "POST", "apps", { client_id: "x-app", client_secret: "s" })).status, 201);
    assert.equal((await control(sb, "POST", "service-accounts", {})).status, 201);
    assert.equal(
      (await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "models", policyKey: "transient" })).status,
      200,
    );
    const urn = await uploadDesign(sb, t, "a.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    // Settled, so that no translation is still writing its outputs when the reset comes.
    assert.equal((await translated(sb, t, urn, ["svf2"])).json.status, "success");
    assert.equal((await api(sb, "PATCH", `${DA}/forgeapps/me`, t, { nickname: "Resettable" })).status, 200);
    const admin = (await login(sb, "account:read account:write")).access_token;
    const hubs = await api(sb, "GET", "/project/v1/hubs", await token(sb, "data:read"));
    const account = hubs.json.data.find((h: { id: string }) => h.id.startsWith("b.")).id.slice(2);
    const created = await api(sb, "POST", `/construction/admin/v1/accounts/${account}/projects`, admin, {
      name: "Reset Me",
      type: "Office",
    });
    assert.equal(created.status, 202);
    await control(sb, "POST", "faults", { path: "/nothing", status: 500 });
    await control(sb, "POST", "clock", { advance_seconds: 60 });
    await control(sb, "POST", "config", { job_seconds: 1 });
    const before = (await control(sb, "GET", "state")).json;
    assert.equal(before.buckets.length, 1);
    assert.equal(before.derivative_manifests, 1);

    assert.equal((await control(sb, "POST", "reset")).status, 200);

    const after = (await control(sb, "GET", "state")).json;
    assert.deepEqual(after.apps.map((a: { client_id: string }) => a.client_id), ["diazo-sandbox"]);
    assert.deepEqual(after.service_accounts, []);
    assert.deepEqual(after.buckets, []);
    assert.equal(after.objects.count, 0);
    assert.equal(after.derivative_manifests, 0);
    assert.deepEqual(after.faults, []);
    assert.equal(after.clock.offset_seconds, 0);
    assert.equal(after.config.job_seconds, 4);
    assert.deepEqual(await filesUnder(sb.dataDir), []);
    assert.equal((await api(sb, "GET", "/oss/v2/buckets", t)).status, 401, "tokens are forgotten");
    const t2 = await token(sb, "code:all");
    assert.equal((await api(sb, "GET", `${DA}/forgeapps/me`, t2)).json, "diazo-sandbox");
    const admin2 = (await login(sb, "account:read")).access_token;
    assert.equal(
      (await api(sb, "GET", `/construction/admin/v1/projects/${created.json.id}`, admin2)).status,
      404,
    );
    const seeded = await api(sb, "GET", `/construction/admin/v1/accounts/${account}/projects`, admin2);
    assert.equal(seeded.status, 200, "the seeded account is back");
    assert.ok(seeded.json.results.length > 0);
  });
});
