import assert from "node:assert/strict";
import type { Sandbox } from "../../src/sandbox/server.ts";
import { addApp, api, call, control, token, withSandbox } from "./helpers.ts";
import { login } from "./oauth_helpers.ts";
import { SANDBOX_USER } from "../../src/sandbox/auth/users.ts";

const DA = "/da/us-east/v3";
const ADMIN = "/construction/admin/v1";

/** Follows a Design Automation list from its first page; returns the pages' ids and tokens. */
async function daPages(sb: Sandbox, path: string, t: string) {
  const pages: string[][] = [];
  const tokens: (string | null)[] = [];
  let next: string | null = "";
  while (next !== null) {
    const a = await api(sb, "GET", next ? `${path}?page=${encodeURIComponent(next)}` : path, t);
    assert.equal(a.status, 200, JSON.stringify(a.json));
    assert.deepEqual(Object.keys(a.json).sort(), ["data", "paginationToken"]);
    pages.push(a.json.data);
    tokens.push(a.json.paginationToken);
    next = a.json.paginationToken;
    assert.ok(pages.length <= 5, "the list ends");
  }
  return { pages, tokens };
}

/** The account id of the data management sandbox's ACC hub, read through the DM API. */
async function accountOfHub(sb: Sandbox): Promise<string> {
  const hubs = await api(sb, "GET", "/project/v1/hubs", await token(sb, "data:read"));
  assert.equal(hubs.status, 200, JSON.stringify(hubs.json));
  const hub = hubs.json.data.find((h: { id: string }) => h.id.startsWith("b."));
  assert.ok(hub, "the DM sandbox has an ACC hub");
  return hub.id.slice(2);
}

Deno.test("da: engines come in pages of 10 linked by paginationToken; details and 404", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "code:all");
    const { pages, tokens } = await daPages(sb, `${DA}/engines`, t);
    assert.deepEqual(pages.map((p) => p.length), [10, 6]);
    assert.equal(tokens[1], null);
    const all = pages.flat();
    assert.equal(new Set(all).size, 16);
    assert.ok(all.every((id) => /^Autodesk\.[A-Za-z0-9]+\+\d+$/.test(id)), all.join(" "));
    assert.ok(all.includes("Autodesk.AutoCAD+24") && all.includes("Autodesk.Revit+2024"));

    const bad = await api(sb, "GET", `${DA}/engines?page=not-a-token`, t);
    assert.equal(bad.status, 400);
    assert.match(bad.json, /pagination token/);

    const one = await api(sb, "GET", `${DA}/engines/${encodeURIComponent("Autodesk.Revit+2024")}`, t);
    assert.equal(one.status, 200);
    assert.deepEqual(Object.keys(one.json).sort(), [
      "description",
      "id",
      "package",
      "productVersion",
      "version",
    ]);
    assert.equal(one.json.id, "Autodesk.Revit+2024");
    assert.equal(one.json.productVersion, "2024");
    const missing = await api(sb, "GET", `${DA}/engines/${encodeURIComponent("Autodesk.Revit+1999")}`, t);
    assert.equal(missing.status, 404);
    assert.match(missing.json, /Autodesk\.Revit\+1999/);
    // Another region of the service answers the same; an unknown one does not exist.
    assert.equal((await api(sb, "GET", "/da/us-west/v3/engines", t)).json.data[0], all[0]);
    assert.equal((await api(sb, "GET", "/da/eu-north/v3/engines", t)).status, 404);
  });
});

Deno.test("da: nickname, app bundles per app, conflicts, shared activities, reset", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "code:all");
    assert.equal((await api(sb, "GET", `${DA}/forgeapps/me`, t)).json, "diazo-sandbox");
    assert.equal((await api(sb, "PATCH", `${DA}/forgeapps/me`, t, { nickname: "bad-name" })).status, 400);
    const set = await api(sb, "PATCH", `${DA}/forgeapps/me`, t, { nickname: "Diazo_Co" });
    assert.equal(set.status, 200);
    assert.equal(set.json, null);
    assert.equal((await api(sb, "GET", `${DA}/forgeapps/me`, t)).json, "Diazo_Co");

    const other = await addApp(sb);
    const t2 = await token(sb, "code:all", other);
    assert.equal((await api(sb, "PATCH", `${DA}/forgeapps/me`, t2, { nickname: "Diazo_Co" })).status, 409);

    const created = await api(sb, "POST", `${DA}/appbundles`, t, {
      id: "Extract",
      engine: "Autodesk.AutoCAD+24",
      description: "lists blocks",
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.id, "Diazo_Co.Extract");
    assert.equal(created.json.version, 1);
    assert.equal(created.json.engine, "Autodesk.AutoCAD+24");
    assert.equal(created.json.uploadParameters.formData.key, "apps/Diazo_Co/Extract/1");
    // The form goes to the sandbox's own package store (on the platform: an S3 bucket's URL).
    assert.equal(created.json.uploadParameters.endpointURL, `${sb.url}/__da/store`);
    await api(sb, "POST", `${DA}/appbundles`, t, { id: "Another", engine: "Autodesk.Revit+2024" });

    const dup = await api(sb, "POST", `${DA}/appbundles`, t, {
      id: "Extract",
      engine: "Autodesk.AutoCAD+24",
    });
    assert.equal(dup.status, 409);
    const badEngine = await api(sb, "POST", `${DA}/appbundles`, t, { id: "X", engine: "Autodesk.Nope+1" });
    assert.equal(badEngine.status, 400);
    assert.equal(
      (await api(sb, "POST", `${DA}/appbundles`, t, { id: "a.b", engine: "Autodesk.AutoCAD+24" })).status,
      400,
    );
    // Owning data pins the nickname.
    assert.equal((await api(sb, "PATCH", `${DA}/forgeapps/me`, t, { nickname: "Renamed" })).status, 409);

    assert.deepEqual((await api(sb, "GET", `${DA}/appbundles`, t)).json, {
      paginationToken: null,
      data: ["Diazo_Co.Another+$LATEST", "Diazo_Co.Extract+$LATEST"],
    });
    assert.deepEqual(
      (await api(sb, "GET", `${DA}/appbundles`, t2)).json.data,
      [],
      "bundles belong to their app",
    );
    const acts = (await api(sb, "GET", `${DA}/activities`, t2)).json;
    assert.ok(acts.data.includes("AutoCAD.PlotToPDF+prod"));

    assert.equal((await control(sb, "POST", "reset")).status, 200);
    const t3 = await token(sb, "code:all");
    assert.equal((await api(sb, "GET", `${DA}/forgeapps/me`, t3)).json, "diazo-sandbox");
    assert.deepEqual((await api(sb, "GET", `${DA}/appbundles`, t3)).json.data, []);
  });
});

Deno.test("da: every route needs code:all", async () => {
  await withSandbox(async (sb) => {
    const without = await token(sb, "data:read bucket:read");
    for (
      const [method, path, body] of [
        ["GET", `${DA}/forgeapps/me`],
        ["PATCH", `${DA}/forgeapps/me`, { nickname: "X" }],
        ["GET", `${DA}/engines`],
        ["GET", `${DA}/engines/Autodesk.AutoCAD%2B24`],
        ["GET", `${DA}/appbundles`],
        ["POST", `${DA}/appbundles`, { id: "X", engine: "Autodesk.AutoCAD+24" }],
        ["GET", `${DA}/activities`],
      ] as [string, string, unknown?][]
    ) {
      const a = await api(sb, method, path, without, body);
      assert.equal(a.status, 403, `${method} ${path}`);
      assert.equal(a.json.errorCode, "AUTH-012");
      assert.equal((await api(sb, method, path, undefined, body)).status, 401);
    }
  });
});

Deno.test("admin: the seeded account is the DM hub's; projects page by limit/offset with nextUrl", async () => {
  await withSandbox(async (sb) => {
    const account = await accountOfHub(sb);
    const t = (await login(sb, "account:read")).access_token;
    const all = await api(sb, "GET", `${ADMIN}/accounts/${account}/projects`, t);
    assert.equal(all.status, 200, JSON.stringify(all.json));
    assert.equal(all.json.pagination.limit, 20);
    assert.equal(all.json.pagination.totalResults, 4);
    assert.equal(all.json.pagination.nextUrl, null);
    const names = all.json.results.map((p: { name: string }) => p.name);
    assert.deepEqual(names, [...names].sort((a: string, b: string) => a.localeCompare(b)));
    // The DM hub's projects are the account's in the hub's region (US, the default Region), under
    // their GUIDs: the same projects both ways.
    const dmProjects = await api(
      sb,
      "GET",
      `/project/v1/hubs/b.${account}/projects`,
      await token(sb, "data:read"),
    );
    assert.deepEqual(
      dmProjects.json.data.map((p: { id: string }) => p.id).sort(),
      all.json.results.map((r: { id: string }) => `b.${r.id}`).sort(),
    );
    for (const p of dmProjects.json.data) {
      const mine = all.json.results.find((r: { id: string }) => `b.${r.id}` === p.id);
      assert.ok(mine, `DM project ${p.id} is in the account`);
      assert.equal(mine.name, p.attributes.name);
      assert.equal(mine.accountId, account);
    }
    const first = all.json.results[0];
    for (
      const k of ["id", "name", "type", "status", "classification", "platform", "createdAt", "memberCount"]
    ) {
      assert.ok(k in first, `project field ${k}`);
    }

    const seen: string[] = [];
    let url: string | null = `${sb.url}${ADMIN}/accounts/${account}/projects?limit=3`;
    const pages: { offset: number; previousUrl: string | null }[] = [];
    while (url) {
      const a = await call(url, { headers: { authorization: `Bearer ${t}` } });
      assert.equal(a.status, 200);
      seen.push(...a.json.results.map((p: { id: string }) => p.id));
      pages.push(a.json.pagination);
      url = a.json.pagination.nextUrl;
    }
    assert.deepEqual(seen, all.json.results.map((p: { id: string }) => p.id));
    assert.deepEqual(pages.map((p) => p.offset), [0, 3]);
    assert.equal(pages[0].previousUrl, null);
    assert.ok(pages[1].previousUrl?.includes("offset=0"));
    for (const q of ["limit=0", "limit=201", "offset=-1", "limit=x"]) {
      assert.equal((await api(sb, "GET", `${ADMIN}/accounts/${account}/projects?${q}`, t)).status, 400, q);
    }
    const unknown = await api(sb, "GET", `${ADMIN}/accounts/${crypto.randomUUID()}/projects`, t);
    assert.equal(unknown.status, 404);
    assert.equal(typeof unknown.json.message, "string");
  });
});

Deno.test("admin: project filters by status, classification and name", async () => {
  await withSandbox(async (sb) => {
    const account = await accountOfHub(sb);
    const t = (await login(sb, "account:read")).access_token;
    const names = async (q: string) => {
      const a = await api(sb, "GET", `${ADMIN}/accounts/${account}/projects?${q}`, t);
      assert.equal(a.status, 200, `${q}: ${JSON.stringify(a.json)}`);
      return a.json.results.map((p: { name: string }) => p.name);
    };
    assert.deepEqual(await names("filter[status]=archived"), ["Warehouse Retrofit"]);
    assert.deepEqual(await names("filter[classification]=template"), ["Standard Project Template"]);
    assert.deepEqual(await names("filter[name]=river"), ["Riverside Tower"]);
    assert.deepEqual(await names("filter[name]=tower&filterTextMatch=startsWith"), []);
    assert.equal((await names("filter[status]=active,archived")).length, 4);
    const bad = await api(sb, "GET", `${ADMIN}/accounts/${account}/projects?filter[status]=open`, t);
    assert.equal(bad.status, 400);
  });
});

Deno.test("admin: create answers 202 pending, becomes active on the sandbox clock; checks; reset", async () => {
  await withSandbox(async (sb) => {
    const account = await accountOfHub(sb);
    const t = (await login(sb, "account:read account:write")).access_token;
    const path = `${ADMIN}/accounts/${account}/projects`;
    const created = await api(sb, "POST", path, t, {
      name: "North Depot",
      type: "Office",
      jobNumber: "ND-1",
    });
    assert.equal(created.status, 202, JSON.stringify(created.json));
    assert.equal(created.json.status, "pending");
    assert.equal(created.json.name, "North Depot");
    assert.equal(created.json.jobNumber, "ND-1");
    assert.equal(created.json.accountId, account);
    assert.match(created.json.id, /^[0-9a-f-]{36}$/);

    const got = await api(sb, "GET", `${ADMIN}/projects/${created.json.id}`, t);
    assert.equal(got.json.status, "pending");
    const listed = await api(sb, "GET", `${path}?filter[status]=pending`, t);
    assert.deepEqual(listed.json.results.map((p: { id: string }) => p.id), [created.json.id]);
    await control(sb, "POST", "clock", { advance_seconds: 10 });
    assert.equal((await api(sb, "GET", `${ADMIN}/projects/${created.json.id}`, t)).json.status, "active");

    const taken = await api(sb, "POST", path, t, { name: "north depot", type: "Office" });
    assert.equal(taken.status, 400, "the platform declares no 409 for a taken name");
    assert.match(taken.json.message, /already exists/);
    assert.equal((await api(sb, "POST", path, t, { name: "No Type" })).status, 400);
    assert.equal((await api(sb, "POST", path, t, { name: "", type: "Office" })).status, 400);
    assert.equal(
      (await api(sb, "POST", path, t, { name: "X", type: "Office", classification: "secret" })).status,
      400,
    );
    const form = await call(`${sb.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${t}`, "content-type": "text/plain" },
      body: "name=X",
    });
    assert.equal(form.status, 415);
    const all = await api(sb, "GET", path, t);
    const template = all.json.results.find((p: { classification: string }) =>
      p.classification === "template"
    );
    const cloned = await api(sb, "POST", path, t, {
      name: "From Template",
      type: "Office",
      template: { projectId: template.id },
    });
    assert.equal(cloned.status, 202);
    assert.equal(cloned.json.templateId, template.id);
    assert.deepEqual(cloned.json.products, template.products);

    await control(sb, "POST", "reset");
    const t2 = (await login(sb, "account:read")).access_token;
    assert.equal((await api(sb, "GET", `${ADMIN}/projects/${created.json.id}`, t2)).status, 404);
    assert.equal((await api(sb, "GET", path, t2)).json.pagination.totalResults, 4);
  });
});

Deno.test("admin: project users (envelope) and HQ account users (array, limit/offset)", async () => {
  await withSandbox(async (sb) => {
    const account = await accountOfHub(sb);
    const t = (await login(sb, "account:read")).access_token;
    const projects = (await api(sb, "GET", `${ADMIN}/accounts/${account}/projects`, t)).json.results;
    const riverside = projects.find((p: { name: string }) => p.name === "Riverside Tower");
    const users = await api(sb, "GET", `${ADMIN}/projects/${riverside.id}/users?limit=5`, t);
    assert.equal(users.status, 200);
    assert.equal(users.json.pagination.totalResults, riverside.memberCount);
    assert.equal(users.json.results.length, 5);
    assert.ok(users.json.pagination.nextUrl.includes("offset=5"));
    const me = users.json.results.find((u: { email: string }) => u.email === "sandbox.user@diazo.invalid");
    assert.deepEqual(me.accessLevels, { accountAdmin: true, projectAdmin: true, executive: false });
    assert.ok(me.products.every((p: { access: string }) => p.access === "administrator"));
    assert.equal(typeof me.companyName, "string");
    assert.equal((await api(sb, "GET", `${ADMIN}/projects/${crypto.randomUUID()}/users`, t)).status, 404);
    assert.equal((await api(sb, "GET", `${ADMIN}/projects/${crypto.randomUUID()}`, t)).status, 404);

    const hq = `/hq/v1/accounts/${account}/users`;
    const first = await api(sb, "GET", hq, t);
    assert.ok(Array.isArray(first.json));
    assert.equal(first.json.length, 10, "HQ's default page is 10");
    const rest = await api(sb, "GET", `${hq}?limit=5&offset=10`, t);
    assert.equal(rest.json.length, 2);
    const ids = new Set([...first.json, ...rest.json].map((u: { id: string }) => u.id));
    assert.equal(ids.size, 12);
    for (
      const k of ["account_id", "email", "first_name", "last_name", "role", "status", "company_name", "uid"]
    ) {
      assert.ok(k in first.json[0], `HQ user field ${k}`);
    }
    assert.equal(first.json[0].account_id, account);
    assert.equal((await api(sb, "GET", `${hq}?limit=101`, t)).status, 400);
  });
});

Deno.test("admin: GET needs account:read, POST account:write; a 2-legged token gets both, its writes name a User-Id", async () => {
  await withSandbox(async (sb) => {
    const account = await accountOfHub(sb);
    const path = `${ADMIN}/accounts/${account}/projects`;
    const readOnly = (await login(sb, "account:read data:read")).access_token;
    const writeOnly = (await login(sb, "account:write")).access_token;
    const denied = await api(sb, "POST", path, readOnly, { name: "P", type: "Office" });
    assert.equal(denied.status, 403);
    assert.equal(denied.json.errorCode, "AUTH-012");
    assert.equal((await api(sb, "POST", path, writeOnly, { name: "P", type: "Office" })).status, 202);
    for (const p of [path, `/hq/v1/accounts/${account}/users`]) {
      assert.equal((await api(sb, "GET", p, writeOnly)).status, 403, p);
      assert.equal((await api(sb, "GET", p, readOnly)).status, 200, p);
    }
    const app = await token(sb, "data:read code:all");
    assert.equal((await api(sb, "GET", path, app)).status, 403);
    const admin = await token(sb, "account:read account:write");
    assert.equal((await api(sb, "GET", path, admin)).status, 200);
    const anonymous = await api(sb, "POST", path, admin, { name: "P2L", type: "Office" });
    assert.equal(anonymous.status, 400);
    assert.match(anonymous.json.message, /User-Id/);
    // The User-Id names a user of the account (their account id or Autodesk id), else 403.
    const stranger = await api(sb, "POST", path, admin, { name: "P2L", type: "Office" }, { "user-id": "U1" });
    assert.equal(stranger.status, 403, JSON.stringify(stranger.json));
    const actingFor = await api(sb, "POST", path, admin, { name: "P2L", type: "Office" }, {
      "user-id": SANDBOX_USER.userid,
    });
    assert.equal(actingFor.status, 202, JSON.stringify(actingFor.json));
  });
});

Deno.test("da: the app's service limits and shares answer as the platform's recorded traffic", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "code:all");
    const limits = await api(sb, "GET", `${DA}/servicelimits/me`, t);
    assert.equal(limits.status, 200, JSON.stringify(limits.json));
    assert.equal(limits.json.frontendLimits.limitAppUploadSizeInMB, 100);
    assert.equal(limits.json.backendLimits.Revit.limitProcessingTimeSec, 10800);
    const shares = await api(sb, "GET", `${DA}/shares`, t);
    assert.deepEqual([shares.status, shares.json], [200, { paginationToken: null, data: [] }]);
    const refused = await api(sb, "GET", `${DA}/engines/Autodesk.Nothing+1`, t);
    assert.equal(refused.status, 404);
    assert.equal(typeof refused.json, "string", "an error is a bare JSON string");
  });
});
