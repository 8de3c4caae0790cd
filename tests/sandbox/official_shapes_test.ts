/**
 * Sandbox answers held to the official descriptions: a data management project's container
 * relationships (datamanagement.yaml's project example), a folder created only with its required
 * `attributes.extension`, and reality capture's `rcs` refused for an object scene (aerial only).
 */
import assert from "node:assert/strict";
import { api, call, token, withSandbox } from "./helpers.ts";

const JSON_API = { "content-type": "application/vnd.api+json" };

Deno.test("dm: a BIM 360/ACC project names its containers: issues, submittals, rfis, markups, checklists, cost, locations", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "data:read data:create");
    const hubs = await api(sb, "GET", "/project/v1/hubs", t);
    const hub = hubs.json.data.find((h: { id: string }) => h.id.startsWith("b."));
    const projects = await api(sb, "GET", `/project/v1/hubs/${hub.id}/projects`, t);
    const project = projects.json.data.find((p: { relationships: Record<string, unknown> }) =>
      "issues" in p.relationships
    );
    for (const name of ["issues", "submittals", "rfis", "markups", "checklists", "cost", "locations"]) {
      const rel = project.relationships[name];
      assert.ok(rel?.data?.id && rel.meta?.link?.href, `${name}: ${JSON.stringify(rel)}`);
    }
    assert.equal(project.relationships.checklists.data.type, "checklistsContainerId");

    const top = await api(sb, "GET", `/project/v1/hubs/${hub.id}/projects/${project.id}/topFolders`, t);
    const parent = top.json.data[0].id;
    const body = (attributes: Record<string, unknown>) =>
      JSON.stringify({
        jsonapi: { version: "1.0" },
        data: {
          type: "folders",
          attributes,
          relationships: { parent: { data: { type: "folders", id: parent } } },
        },
      });
    const bare = await api(
      sb,
      "POST",
      `/data/v1/projects/${project.id}/folders`,
      t,
      body({ name: "No Ext" }),
      JSON_API,
    );
    assert.equal(bare.status, 400, JSON.stringify(bare.json));
    const ext = { type: "folders:autodesk.bim360:Folder", version: "1.0" };
    const made = await api(
      sb,
      "POST",
      `/data/v1/projects/${project.id}/folders`,
      t,
      body({ name: "With Ext", extension: ext }),
      JSON_API,
    );
    assert.equal(made.status, 201, JSON.stringify(made.json));
  });
});

Deno.test("reality capture: rcs is refused for an object scene, accepted for an aerial one", async () => {
  await withSandbox(async (sb) => {
    const t = await token(sb, "data:write data:read");
    const create = (fields: Record<string, string>) =>
      call(`${sb.url}/photo-to-3d/v1/photoscene`, {
        method: "POST",
        headers: { authorization: `Bearer ${t}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
    const object = await create({ scenename: "o", scenetype: "object", format: "rcm,rcs" });
    assert.match(JSON.stringify(object.json), /aerial/);
    assert.ok(!JSON.stringify(object.json).includes("photosceneid"), JSON.stringify(object.json));
    const aerial = await create({ scenename: "a", scenetype: "aerial", format: "rcm,rcs" });
    assert.ok(aerial.json.Photoscene?.photosceneid, JSON.stringify(aerial.json));
  });
});
