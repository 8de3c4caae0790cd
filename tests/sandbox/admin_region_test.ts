/** Sandbox: the `Region` header of account administration (ACC Admin projects, HQ users). */
import assert from "node:assert/strict";
import { seededAccountId } from "../../src/sandbox/admin/store.ts";
import type { Sandbox } from "../../src/sandbox/server.ts";
import { api, withSandbox } from "./helpers.ts";
import { login } from "./oauth_helpers.ts";

const ADMIN = "/construction/admin/v1";

type Project = { id: string; name: string; status: string; accountId: string };

/** The projects an account lists for a `Region` header value (none when undefined). */
async function projectsIn(sb: Sandbox, t: string, region?: string): Promise<Project[]> {
  const headers: Record<string, string> = region === undefined ? {} : { Region: region };
  const a = await api(sb, "GET", `${ADMIN}/accounts/${seededAccountId()}/projects`, t, undefined, headers);
  assert.equal(a.status, 200, JSON.stringify(a.json));
  assert.equal(a.json.pagination.totalResults, a.json.results.length);
  return a.json.results;
}

Deno.test("admin region: lists show only the region's projects and users; no header is US", async () => {
  await withSandbox(async (sb) => {
    const t = (await login(sb, "account:read")).access_token;
    const us = await projectsIn(sb, t);
    assert.equal(us.length, 4);
    assert.deepEqual((await projectsIn(sb, t, "US")).map((p) => p.id), us.map((p) => p.id));
    const emea = await projectsIn(sb, t, "EMEA");
    assert.deepEqual(emea.map((p) => p.name), ["Canal Quarter Offices"]);
    assert.equal(emea[0].accountId, seededAccountId());
    assert.ok(!us.some((p) => p.id === emea[0].id), "the EMEA project is not in the US list");
    assert.deepEqual((await projectsIn(sb, t, " emea ")).map((p) => p.id), [emea[0].id], "any case");
    assert.deepEqual(await projectsIn(sb, t, "JPN"), []);

    const hq = `/hq/v1/accounts/${seededAccountId()}/users?limit=100`;
    const usUsers = await api(sb, "GET", hq, t);
    assert.equal(usUsers.json.length, 12);
    const emeaUsers = await api(sb, "GET", hq, t, undefined, { Region: "EMEA" });
    assert.equal(emeaUsers.status, 200);
    assert.deepEqual(emeaUsers.json, [], "the seeded directory is hosted in the US");
  });
});

Deno.test("admin region: a project read in another region is not found (get and users)", async () => {
  await withSandbox(async (sb) => {
    const t = (await login(sb, "account:read")).access_token;
    const emea = (await projectsIn(sb, t, "EMEA"))[0];
    const riverside = (await projectsIn(sb, t)).find((p) => p.name === "Riverside Tower")!;
    for (const path of [`${ADMIN}/projects/${emea.id}`, `${ADMIN}/projects/${emea.id}/users`]) {
      const missing = await api(sb, "GET", path, t);
      assert.equal(missing.status, 404, path);
      assert.equal(missing.json.code, "ERR_NOT_FOUND");
      assert.equal((await api(sb, "GET", path, t, undefined, { Region: "US" })).status, 404, path);
      assert.equal((await api(sb, "GET", path, t, undefined, { Region: "EMEA" })).status, 200, path);
    }
    const got = await api(sb, "GET", `${ADMIN}/projects/${emea.id}`, t, undefined, { Region: "emea" });
    assert.equal(got.json.name, "Canal Quarter Offices");
    const members = await api(sb, "GET", `${ADMIN}/projects/${emea.id}/users`, t, undefined, {
      Region: "EMEA",
    });
    assert.equal(members.json.pagination.totalResults, got.json.memberCount);
    assert.ok(members.json.results.some((u: { email: string }) => u.email === "sandbox.user@diazo.invalid"));
    for (const path of [`${ADMIN}/projects/${riverside.id}`, `${ADMIN}/projects/${riverside.id}/users`]) {
      assert.equal((await api(sb, "GET", path, t)).status, 200, path);
      assert.equal((await api(sb, "GET", path, t, undefined, { Region: "EMEA" })).status, 404, path);
    }
  });
});

Deno.test("admin region: an unknown Region is a 400 on every route", async () => {
  await withSandbox(async (sb) => {
    const t = (await login(sb, "account:read account:write")).access_token;
    const account = seededAccountId();
    const riverside = (await projectsIn(sb, t)).find((p) => p.name === "Riverside Tower")!;
    const calls: [string, string, unknown][] = [
      ["GET", `${ADMIN}/accounts/${account}/projects`, undefined],
      ["POST", `${ADMIN}/accounts/${account}/projects`, { name: "Nowhere", type: "Office" }],
      ["GET", `${ADMIN}/projects/${riverside.id}`, undefined],
      ["GET", `${ADMIN}/projects/${riverside.id}/users`, undefined],
      ["GET", `/hq/v1/accounts/${account}/users`, undefined],
    ];
    for (const region of ["XX", "EU", "APAC", ""]) {
      for (const [method, path, body] of calls) {
        const a = await api(sb, method, path, t, body, { Region: region });
        assert.equal(a.status, 400, `${method} ${path} Region '${region}'`);
        assert.equal(a.json.code, "ERR_BAD_INPUT");
        assert.match(a.json.message, /Region.*US, EMEA, AUS, CAN, DEU, IND, JPN, GBR/);
      }
    }
    assert.ok(!(await projectsIn(sb, t)).some((p) => p.name === "Nowhere"), "nothing was created");
  });
});

Deno.test("admin region: a created project is hosted in the request's region", async () => {
  await withSandbox(async (sb) => {
    const t = (await login(sb, "account:read account:write")).access_token;
    const path = `${ADMIN}/accounts/${seededAccountId()}/projects`;
    const created = await api(sb, "POST", path, t, { name: "Harbour Hotel", type: "Hotel" }, {
      Region: "EMEA",
    });
    assert.equal(created.status, 202, JSON.stringify(created.json));
    assert.equal(created.json.status, "pending");
    const id = created.json.id;
    assert.deepEqual((await projectsIn(sb, t, "EMEA")).map((p) => p.name), [
      "Canal Quarter Offices",
      "Harbour Hotel",
    ]);
    assert.equal((await projectsIn(sb, t)).length, 4, "the US list is unchanged");
    assert.equal((await api(sb, "GET", `${ADMIN}/projects/${id}`, t)).status, 404);
    const got = await api(sb, "GET", `${ADMIN}/projects/${id}`, t, undefined, { Region: "EMEA" });
    assert.equal(got.status, 200);
    assert.equal(got.json.name, "Harbour Hotel");

    // Names and templates are those of the region's projects.
    const again = await api(sb, "POST", path, t, { name: "harbour hotel", type: "Hotel" }, {
      Region: "EMEA",
    });
    assert.equal(again.status, 400, "a taken name is bad input (no 409 declared)");
    const template = (await api(sb, "GET", `${path}?filter[classification]=template`, t)).json.results[0];
    assert.equal(template.name, "Standard Project Template");
    const cross = await api(sb, "POST", path, t, {
      name: "Cloned Abroad",
      type: "Office",
      template: { projectId: template.id },
    }, { Region: "EMEA" });
    assert.equal(cross.status, 400, "a US template cannot seed an EMEA project");
    const home = await api(sb, "POST", path, t, {
      name: "Cloned At Home",
      type: "Office",
      template: { projectId: template.id },
    });
    assert.equal(home.status, 202);
    assert.equal((await api(sb, "GET", `${ADMIN}/projects/${home.json.id}`, t)).status, 200);
  });
});
