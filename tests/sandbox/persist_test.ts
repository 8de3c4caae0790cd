/**
 * A sandbox with a kept data dir, closed and started again in this process: the state of every
 * service comes back (apps and service accounts, a translation, Design Automation, an admin
 * project, settings and the clock), and a reset is kept as well.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startSandbox } from "../../src/sandbox/server.ts";
import { api, control, token } from "./helpers.ts";
import { MD_SCOPES, translated, uploadDesign } from "./derivative_helpers.ts";
import { login } from "./oauth_helpers.ts";

const DA = "/da/us-east/v3";

Deno.test("persist: every service's state survives a restart on the same data dir", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "diazo-persist-" });
  try {
    let sb = await startSandbox({ port: 0, dataDir, persist: true });
    const t = await token(sb, `${MD_SCOPES} code:all`);
    assert.equal((await control(sb, "POST", "apps", { client_id: "x-app", client_secret: "s" })).status, 201);
    const sa = (await control(sb, "POST", "service-accounts", {})).json;
    assert.equal(
      (await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "models", policyKey: "transient" })).status,
      200,
    );
    const urn = await uploadDesign(sb, t, "a.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    assert.equal((await translated(sb, t, urn, ["svf2"])).json.status, "success");
    assert.equal((await api(sb, "PATCH", `${DA}/forgeapps/me`, t, { nickname: "Kept" })).status, 200);
    const admin = (await login(sb, "account:read account:write")).access_token;
    const hubs = await api(sb, "GET", "/project/v1/hubs", await token(sb, "data:read"));
    const account = hubs.json.data.find((h: { id: string }) => h.id.startsWith("b.")).id.slice(2);
    const created = await api(sb, "POST", `/construction/admin/v1/accounts/${account}/projects`, admin, {
      name: "Kept Project",
      type: "Office",
    });
    assert.equal(created.status, 202);
    await control(sb, "POST", "config", { job_seconds: 1 });
    await control(sb, "POST", "clock", { advance_seconds: 60 });
    const before = (await control(sb, "GET", "state")).json;
    await sb.close();

    sb = await startSandbox({ port: 0, dataDir, persist: true });
    const after = (await control(sb, "GET", "state")).json;
    assert.deepEqual(after.apps, before.apps);
    assert.deepEqual(after.service_accounts.map((a: { email: string }) => a.email), [sa.email]);
    assert.deepEqual(after.buckets, before.buckets);
    assert.equal(after.derivative_manifests, 1);
    assert.equal(after.config.job_seconds, 1);
    assert.ok(after.clock.offset_seconds >= 60);
    const manifest = await api(sb, "GET", `/modelderivative/v2/designdata/${urn}/manifest`, t);
    assert.equal(manifest.json.status, "success", "a token from before the restart still works");
    const meta = await api(sb, "GET", `/modelderivative/v2/designdata/${urn}/metadata`, t);
    assert.equal(meta.status, 200);
    assert.equal((await api(sb, "GET", `${DA}/forgeapps/me`, t)).json, "Kept");
    const admin2 = (await login(sb, "account:read")).access_token;
    const project = await api(sb, "GET", `/construction/admin/v1/projects/${created.json.id}`, admin2);
    assert.equal(project.status, 200);
    assert.equal(project.json.name, "Kept Project");

    // A reset is kept too: the next start is the built-in world.
    await control(sb, "POST", "reset");
    await sb.close();
    sb = await startSandbox({ port: 0, dataDir, persist: true });
    const fresh = (await control(sb, "GET", "state")).json;
    assert.deepEqual(fresh.buckets, []);
    assert.equal(fresh.derivative_manifests, 0);
    await sb.close();
    assert.ok((await Deno.stat(join(dataDir, "state", "state.json"))).isFile);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
