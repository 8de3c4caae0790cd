/** The data management emulator: JSON:API shapes, pagination, filters, errors, visibility, scopes. */
import assert from "node:assert/strict";
import type { Sandbox } from "../../src/sandbox/server.ts";
import { type Answer, api, call, control, token, withSandbox } from "./helpers.ts";
import { authorizationCode, exchangeCode, SANDBOX_USERID } from "./oauth_helpers.ts";

/** A 3-legged (user) token with `scope`. */
async function userToken(sb: Sandbox, scope = "data:read"): Promise<string> {
  const { code, verifier } = await authorizationCode(sb, scope);
  const a = await exchangeCode(sb, code, verifier);
  assert.equal(a.status, 200, JSON.stringify(a.json));
  return a.json.access_token;
}

const enc = encodeURIComponent;

// deno-lint-ignore no-explicit-any
type Json = any;

/** GETs a path and asserts a JSON:API 200 answer. */
async function ok(sb: Sandbox, path: string, bearer: string): Promise<Json> {
  const a = await api(sb, "GET", path, bearer);
  assert.equal(a.status, 200, `${path}: ${JSON.stringify(a.json)}`);
  assert.equal(a.headers.get("content-type"), "application/vnd.api+json");
  assert.deepEqual(a.json.jsonapi, { version: "1.0" });
  return a.json;
}

/** Asserts a JSON:API error answer of `status` and `code`. */
function jsonApiError(a: Answer, status: number, code: string): void {
  assert.equal(a.status, status, JSON.stringify(a.json));
  assert.deepEqual(a.json.jsonapi, { version: "1.0" });
  assert.equal(a.json.errors.length, 1);
  const e = a.json.errors[0];
  assert.equal(e.status, String(status));
  assert.equal(e.code, code);
  assert.equal(typeof e.id, "string");
  assert.ok(e.detail.length > 10);
}

/** The ACC hub, its first project ("Riverside Tower") and that project's top folders. */
async function riverside(sb: Sandbox, t: string) {
  const hubs = await ok(sb, "/project/v1/hubs", t);
  const hub = hubs.data.find((h: Json) => h.id.startsWith("b."));
  const projects = await ok(sb, `/project/v1/hubs/${hub.id}/projects`, t);
  const project = projects.data.find((p: Json) => p.attributes.name === "Riverside Tower");
  const top = await ok(sb, `/project/v1/hubs/${hub.id}/projects/${project.id}/topFolders`, t);
  const folder = (name: string) => top.data.find((f: Json) => f.attributes.name === name);
  return { hub, project, top, projectFiles: folder("Project Files"), plans: folder("Plans") };
}

function contentsPath(projectId: string, folderId: string, query = ""): string {
  return `/data/v1/projects/${projectId}/folders/${enc(folderId)}/contents${query}`;
}

async function sheets(sb: Sandbox, t: string) {
  const r = await riverside(sb, t);
  const contents = await ok(sb, contentsPath(r.project.id, r.projectFiles.id), t);
  const folder = contents.data.find((d: Json) => d.attributes.name === "Sheets");
  return { ...r, sheets: folder };
}

Deno.test("dm: a 2-legged token sees only the b. hub; a user's token sees the personal a. hub too", async () => {
  await withSandbox(async (sb) => {
    const app = await token(sb, "data:read");
    const user = await userToken(sb);
    const appHubs = await ok(sb, "/project/v1/hubs", app);
    assert.equal(appHubs.links.self.href, `${sb.url}/project/v1/hubs`);
    assert.deepEqual(
      appHubs.data.map((h: Json) => h.id.slice(0, 2)),
      ["b.", "b."],
      "the ACC and the BIM 360 account",
    );
    const acc = appHubs.data[0];
    assert.match(acc.id, /^b\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(acc.type, "hubs");
    assert.equal(acc.attributes.region, "US");
    assert.equal(acc.attributes.extension.type, "hubs:autodesk.bim360:Account");
    assert.equal(acc.links.self.href, `${sb.url}/project/v1/hubs/${acc.id}`);
    assert.equal(
      acc.relationships.projects.links.related.href,
      `${sb.url}/project/v1/hubs/${acc.id}/projects`,
    );

    const userHubs = await ok(sb, "/project/v1/hubs", user);
    assert.deepEqual(userHubs.data.map((h: Json) => h.id.slice(0, 2)).sort(), ["a.", "b.", "b."]);
    const personal = userHubs.data.find((h: Json) => h.id.startsWith("a."));
    assert.equal(personal.attributes.extension.type, "hubs:autodesk.a360:PersonalHub");
    assert.equal(personal.relationships.pimCollection.data.type, "collection");

    // The personal hub and everything in it: 403 USER_NOT_AUTHENTICATED for the app, 200 for the user.
    jsonApiError(await api(sb, "GET", `/project/v1/hubs/${personal.id}`, app), 403, "USER_NOT_AUTHENTICATED");
    jsonApiError(
      await api(sb, "GET", `/project/v1/hubs/${personal.id}/projects`, app),
      403,
      "USER_NOT_AUTHENTICATED",
    );
    const own = await ok(sb, `/project/v1/hubs/${personal.id}/projects`, user);
    assert.equal(own.data.length, 1);
    const p = own.data[0];
    assert.match(p.id, /^a\./);
    const top = await ok(sb, `/project/v1/hubs/${personal.id}/projects/${p.id}/topFolders`, user);
    assert.equal(top.data[0].attributes.extension.type, "folders:autodesk.core:Folder");
    jsonApiError(
      await api(sb, "GET", contentsPath(p.id, top.data[0].id), app),
      403,
      "USER_NOT_AUTHENTICATED",
    );
    const mine = await ok(sb, contentsPath(p.id, top.data[0].id), user);
    assert.ok(mine.data.length > 0);
    assert.equal(mine.data[0].attributes.createUserId, SANDBOX_USERID);

    // Filters on the hubs list.
    const byType = await ok(
      sb,
      `/project/v1/hubs?filter[extension.type]=hubs:autodesk.a360:PersonalHub`,
      user,
    );
    assert.deepEqual(byType.data.map((h: Json) => h.id), [personal.id]);
  });
});

Deno.test("dm: projects, project, top folders and root folder in the platform's shapes", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "data:read");
    const { hub, project, top } = await riverside(sb, t);
    const projects = await ok(sb, `/project/v1/hubs/${hub.id}/projects`, t);
    // The seeded world's projects first, then the account's projects only its administration holds,
    // those stored in the hub's region (US): the EMEA-hosted Canal Quarter Offices is not in this hub.
    assert.equal(hub.attributes.region, "US");
    assert.deepEqual(projects.data.map((p: Json) => p.attributes.name), [
      "Riverside Tower",
      "Harbor Bridge",
      "Standard Project Template",
      "Warehouse Retrofit",
    ]);
    assert.deepEqual(
      projects.data.map((p: Json) => p.attributes.extension.data.projectType),
      ["ACC", "BIM360", "ACC", "ACC"],
    );
    assert.equal(projects.links.next, undefined, "the projects fit one page");
    assert.equal(project.type, "projects");
    assert.equal(project.relationships.hub.data.id, hub.id);
    assert.equal(
      project.relationships.topFolders.links.related.href,
      `${sb.url}/project/v1/hubs/${hub.id}/projects/${project.id}/topFolders`,
    );
    const one = await ok(sb, `/project/v1/hubs/${hub.id}/projects/${project.id}`, t);
    assert.deepEqual(one.data, project);
    assert.equal((await ok(sb, `/project/v1/hubs/${hub.id}/projects/${project.id}/hub`, t)).data.id, hub.id);

    assert.deepEqual(top.data.map((f: Json) => f.attributes.name), ["Project Files", "Plans"]);
    for (const f of top.data) {
      assert.equal(f.type, "folders");
      assert.match(f.id, /^urn:adsk\.wipprod:fs\.folder:co\.[\w-]{22}$/);
      assert.equal(f.attributes.extension.type, "folders:autodesk.bim360:Folder");
      assert.equal(f.relationships.parent.data.id, project.relationships.rootFolder.data.id);
      assert.equal(typeof f.attributes.objectCount, "number");
    }
    const only = await ok(
      sb,
      `/project/v1/hubs/${hub.id}/projects/${project.id}/topFolders?projectFilesOnly=true`,
      t,
    );
    assert.deepEqual(only.data.map((f: Json) => f.attributes.name), ["Project Files"]);

    const rootId = project.relationships.rootFolder.data.id;
    const root = await ok(sb, `/data/v1/projects/${project.id}/folders/${enc(rootId)}`, t);
    assert.equal(root.data.attributes.extension.data.isRoot, true);
    assert.equal(root.data.relationships.parent, undefined);
    // The root's contents are the top folders.
    const rootContents = await ok(sb, contentsPath(project.id, rootId), t);
    assert.deepEqual(rootContents.data.map((f: Json) => f.id), top.data.map((f: Json) => f.id));
  });
});

Deno.test("dm: folder contents page by page[number]/page[limit], default 200, with absolute links", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "data:read");
    const { project, sheets: folder } = await sheets(sb, t);
    assert.equal(folder.attributes.objectCount, 450);

    // Default page size: 200, 200, 50.
    const sizes: number[] = [];
    const names: string[] = [];
    let url: string | undefined = `${sb.url}${contentsPath(project.id, folder.id)}`;
    let first: Json;
    while (url) {
      const a = await call(url, { headers: { authorization: `Bearer ${t}` } });
      assert.equal(a.status, 200);
      first ??= a.json;
      sizes.push(a.json.data.length);
      names.push(...a.json.data.map((d: Json) => d.attributes.displayName));
      // `included` holds exactly the tip versions of this page's items.
      assert.deepEqual(
        a.json.included.map((v: Json) => v.id),
        a.json.data.map((d: Json) => d.relationships.tip.data.id),
      );
      url = a.json.links.next?.href;
      assert.ok(sizes.length <= 3);
    }
    assert.deepEqual(sizes, [200, 200, 50]);
    assert.equal(new Set(names).size, 450);
    assert.equal(names[0], "A-001.dwg");
    assert.equal(names[449], "A-450.dwg");
    assert.equal(
      first.links.first.href,
      `${sb.url}${contentsPath(project.id, folder.id)}?page%5Bnumber%5D=0`,
    );
    assert.equal(first.links.next.href, `${sb.url}${contentsPath(project.id, folder.id)}?page%5Bnumber%5D=1`);
    assert.equal(first.links.prev, undefined);

    // An explicit limit is kept in the links, and prev appears after the first page.
    const p2 = await ok(sb, contentsPath(project.id, folder.id, "?page[limit]=100&page[number]=2"), t);
    assert.deepEqual(p2.data.map((d: Json) => d.attributes.displayName).slice(0, 1), ["A-201.dwg"]);
    const next = new URL(p2.links.next.href);
    assert.equal(next.searchParams.get("page[limit]"), "100");
    assert.equal(next.searchParams.get("page[number]"), "3");
    assert.equal(new URL(p2.links.prev.href).searchParams.get("page[number]"), "1");
    const last = await ok(sb, contentsPath(project.id, folder.id, "?page[limit]=100&page[number]=4"), t);
    assert.equal(last.data.length, 50);
    assert.equal(last.links.next, undefined);
    // A small folder is one page with no first/next links.
    const small = await ok(sb, contentsPath(project.id, project.relationships.rootFolder.data.id), t);
    assert.equal(small.links.first, undefined);

    for (const bad of ["page[limit]=0", "page[limit]=201", "page[limit]=x", "page[number]=-1"]) {
      jsonApiError(await api(sb, "GET", contentsPath(project.id, folder.id, `?${bad}`), t), 400, "BAD_INPUT");
    }
  });
});

Deno.test("dm: filter[type], filter[extension.type] and other filters on contents and versions", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "data:read");
    const { project, projectFiles } = await riverside(sb, t);
    const all = await ok(sb, contentsPath(project.id, projectFiles.id), t);
    const kinds = all.data.map((d: Json) => d.type);
    assert.ok(kinds.includes("folders") && kinds.includes("items"));
    const folders = await ok(sb, contentsPath(project.id, projectFiles.id, "?filter[type]=folders"), t);
    assert.deepEqual(
      folders.data.map((d: Json) => d.id),
      all.data.filter((d: Json) => d.type === "folders").map((d: Json) => d.id),
    );
    assert.deepEqual(folders.included, []);
    const items = await ok(sb, contentsPath(project.id, projectFiles.id, "?filter%5Btype%5D=items"), t);
    assert.deepEqual(items.data.map((d: Json) => d.attributes.displayName), ["Coordination.nwd"]);
    const both = await ok(sb, contentsPath(project.id, projectFiles.id, "?filter[type]=folders,items"), t);
    assert.equal(both.data.length, all.data.length);
    const byExt = await ok(
      sb,
      contentsPath(project.id, projectFiles.id, "?filter[extension.type]=items:autodesk.bim360:File"),
      t,
    );
    assert.deepEqual(byExt.data.map((d: Json) => d.type), ["items"]);
    const none = await ok(
      sb,
      contentsPath(project.id, projectFiles.id, "?filter[extension.type]=items:x"),
      t,
    );
    assert.deepEqual(none.data, []);
    jsonApiError(
      await api(sb, "GET", contentsPath(project.id, projectFiles.id, "?filter[type]=versions"), t),
      400,
      "BAD_INPUT",
    );

    // Versions: newest first, filterable by versionNumber.
    const architecture = all.data.find((d: Json) => d.attributes.name === "Architecture");
    const arch = await ok(sb, contentsPath(project.id, architecture.id, "?filter[type]=items"), t);
    const rvt = arch.data.find((d: Json) => d.attributes.displayName.endsWith(".rvt"));
    const versionsPath = `/data/v1/projects/${project.id}/items/${enc(rvt.id)}/versions`;
    const versions = await ok(sb, versionsPath, t);
    assert.deepEqual(versions.data.map((v: Json) => v.attributes.versionNumber), [3, 2, 1]);
    assert.equal(versions.data[0].id, rvt.relationships.tip.data.id);
    const v2 = await ok(sb, `${versionsPath}?filter[versionNumber]=2`, t);
    assert.deepEqual(v2.data.map((v: Json) => v.id), [versions.data[1].id]);
    const paged = await ok(sb, `${versionsPath}?page[limit]=2`, t);
    assert.equal(paged.data.length, 2);
    assert.ok(paged.links.next.href.includes("page%5Bnumber%5D=1"));
  });
});

Deno.test("dm: item with its tip included, version by its URL-encoded id, storage and derivative links", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "data:read");
    const { project, plans } = await riverside(sb, t);
    const contents = await ok(sb, contentsPath(project.id, plans.id), t);
    const dwg = contents.data.find((d: Json) => d.attributes.displayName === "Ground Floor.dwg");
    const item = await ok(sb, `/data/v1/projects/${project.id}/items/${enc(dwg.id)}`, t);
    assert.equal(item.data.id, dwg.id);
    assert.equal(item.data.relationships.parent.data.id, plans.id);
    assert.equal(item.included.length, 1);
    const tip = item.included[0];
    assert.equal(tip.id, item.data.relationships.tip.data.id);
    assert.match(tip.id, /^urn:adsk\.wipprod:fs\.file:vf\.[\w-]{22}\?version=2$/);
    assert.equal(tip.attributes.versionNumber, 2);
    assert.equal(tip.attributes.fileType, "dwg");
    assert.equal(typeof tip.attributes.storageSize, "number");
    assert.match(
      tip.relationships.storage.data.id,
      /^urn:adsk\.objects:os\.object:wip\.dm\.prod\/[0-9a-f-]{36}\.dwg$/,
    );
    assert.equal(tip.attributes.lastModifiedTime, item.data.attributes.lastModifiedTime);

    const version = await ok(sb, `/data/v1/projects/${project.id}/versions/${enc(tip.id)}`, t);
    assert.deepEqual(version.data, tip);
    assert.equal(version.links.self.href, `${sb.url}/data/v1/projects/${project.id}/versions/${enc(tip.id)}`);
    assert.ok(version.data.links.self.href.endsWith("%3Fversion%3D2"));
    const derivative = atob(
      version.data.relationships.derivatives.data.id.replace(/-/g, "+").replace(/_/g, "/"),
    );
    assert.equal(derivative, tip.id);
    const tipOnly = await ok(sb, `/data/v1/projects/${project.id}/items/${enc(dwg.id)}/tip`, t);
    assert.equal(tipOnly.data.id, tip.id);
    const parent = await ok(sb, `/data/v1/projects/${project.id}/items/${enc(dwg.id)}/parent`, t);
    assert.equal(parent.data.id, plans.id);

    // If-Modified-Since at or after the folder's last change: 304.
    const folderPath = `/data/v1/projects/${project.id}/folders/${enc(plans.id)}`;
    const since = new Date(Date.parse(plans.attributes.lastModifiedTime) + 1000).toUTCString();
    assert.equal(
      (await api(sb, "GET", folderPath, t, undefined, { "if-modified-since": since })).status,
      304,
    );
    const before = new Date(Date.parse(plans.attributes.lastModifiedTime) - 60_000).toUTCString();
    assert.equal(
      (await api(sb, "GET", folderPath, t, undefined, { "if-modified-since": before })).status,
      200,
    );
  });
});

Deno.test("dm: unknown or mismatched ids answer 404 in the JSON:API error shape", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "data:read");
    const { hub, project, plans } = await riverside(sb, t);
    const harbor = (await ok(sb, `/project/v1/hubs/${hub.id}/projects`, t)).data[1];
    const harborTop = await ok(sb, `/project/v1/hubs/${hub.id}/projects/${harbor.id}/topFolders`, t);
    const unknownGuid = "00000000-0000-4000-8000-000000000000";
    const item = (await ok(sb, contentsPath(project.id, plans.id, "?filter[type]=items"), t)).data[0];
    const cases = [
      `/project/v1/hubs/b.${unknownGuid}`,
      `/project/v1/hubs/b.${unknownGuid}/projects`,
      `/project/v1/hubs/${hub.id}/projects/b.${unknownGuid}`,
      `/project/v1/hubs/${hub.id}/projects/b.${unknownGuid}/topFolders`,
      `/data/v1/projects/b.${unknownGuid}/folders/${enc(plans.id)}`,
      // The bare GUID of a real project: data management wants the b. prefix.
      `/data/v1/projects/${project.id.slice(2)}/folders/${enc(plans.id)}`,
      // A folder of another project.
      contentsPath(project.id, harborTop.data[0].id),
      `/data/v1/projects/${harbor.id}/folders/${enc(plans.id)}`,
      `/data/v1/projects/${project.id}/items/${enc("urn:adsk.wipprod:dm.lineage:nope")}`,
      `/data/v1/projects/${harbor.id}/items/${enc(item.id)}/versions`,
      `/data/v1/projects/${project.id}/versions/${
        enc(`${item.relationships.tip.data.id.split("?")[0]}?version=9`)
      }`,
    ];
    for (const path of cases) jsonApiError(await api(sb, "GET", path, t), 404, "NOT_FOUND");
    const bare = await api(sb, "GET", `/data/v1/projects/${project.id.slice(2)}/folders/${enc(plans.id)}`, t);
    assert.match(bare.json.errors[0].detail, /b\. prefix/);
  });
});

Deno.test("dm: every route needs data:read; the seed is the same after a reset", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "data:read");
    const { hub, project, plans } = await riverside(sb, t);
    const noData = await token(sb, "bucket:read data:write data:create");
    const paths = [
      "/project/v1/hubs",
      `/project/v1/hubs/${hub.id}`,
      `/project/v1/hubs/${hub.id}/projects`,
      `/project/v1/hubs/${hub.id}/projects/${project.id}`,
      `/project/v1/hubs/${hub.id}/projects/${project.id}/topFolders`,
      `/data/v1/projects/${project.id}/folders/${enc(plans.id)}`,
      contentsPath(project.id, plans.id),
    ];
    for (const path of paths) {
      const denied = await api(sb, "GET", path, noData);
      assert.equal(denied.status, 403, path);
      assert.equal(denied.json.errorCode, "AUTH-012");
      assert.equal((await api(sb, "GET", path, undefined)).status, 401, path);
    }
    assert.equal((await control(sb, "POST", "reset")).status, 200);
    const again = await token(sb, "data:read");
    const after = await riverside(sb, again);
    assert.equal(after.hub.id, hub.id);
    assert.equal(after.project.id, project.id);
    assert.equal(after.plans.id, plans.id);
  });
});
