/** Contract of construction/issues/Issues.yaml: the sandbox's issues, types, comments and attachments. */

import assert from "node:assert/strict";
import { seedAccount, seededAccountId } from "../../src/sandbox/admin/store.ts";
import { expect, runPlan, type World } from "./contract.ts";
import { upload } from "./dm_write.ts";

const P = "/construction/issues/v1/projects/{projectId}";
const NOT_USED = "not emulated: diazo's `issue` commands do not use custom attributes or root causes";

Deno.test("contract: Issues.yaml", async () => {
  await runPlan<World>({
    file: "construction/issues/Issues.yaml",
    setup: async (s) => ({
      t: await s.userToken("data:read data:write data:create"),
      projectId: [...seedAccount().projects.values()][0].id,
    }),
    ops: {
      [`GET ${P}/users/me`]: async (s, w) => {
        const me = await expect(s, w, `GET ${P}/users/me`, 200);
        assert.deepEqual(me.json.issues.new.permittedStatuses, ["draft", "open"]);
        assert.equal(me.json.isProjectAdmin, true, "the sandbox user administers Riverside Tower");
        await expect(s, w, `GET ${P}/users/me`, 404, { params: { projectId: crypto.randomUUID() } });
      },
      [`GET ${P}/issue-types`]: async (s, w) => {
        const types = await expect(s, w, `GET ${P}/issue-types`, 200, { query: "?include=subtypes&limit=2" });
        assert.equal(types.json.pagination.totalResults, 5);
        w.subtypeId = types.json.results[0].subtypes[0].id;
      },
      [`GET ${P}/issue-attribute-definitions`]: { notServed: NOT_USED },
      [`GET ${P}/issue-attribute-mappings`]: { notServed: NOT_USED },
      [`GET ${P}/issue-root-cause-categories`]: { notServed: NOT_USED },
      [`GET ${P}/issues`]: async (s, w) => {
        const op = `GET ${P}/issues`;
        const page = await expect(s, w, op, 200, { query: "?limit=100&offset=100" });
        assert.equal(page.json.results.length, 30);
        const open = await expect(s, w, op, 200, { query: "?filter[status]=open,closed&sortBy=-dueDate" });
        assert.ok(open.json.results.every((i: { status: string }) => ["open", "closed"].includes(i.status)));
        w.issueId = page.json.results[0].id;
        await expect(s, w, op, 400, { query: "?limit=101" });
        await expect(s, w, op, 404, { params: { projectId: crypto.randomUUID() } });
      },
      [`POST ${P}/issues`]: async (s, w) => {
        const op = `POST ${P}/issues`;
        const json = {
          title: "Contract issue",
          issueSubtypeId: w.subtypeId,
          status: "open",
          dueDate: "2026-12-01",
        };
        w.newIssueId = (await expect(s, w, op, 200, { json })).json.id;
        await expect(s, w, op, 400, { json: { title: "No type", status: "open" } });
        await expect(s, w, op, 400, { json: { ...json, colour: "red" } });
      },
      [`GET ${P}/issues/{issueId}`]: async (s, w) => {
        const op = `GET ${P}/issues/{issueId}`;
        await expect(s, w, op, 200, { params: { issueId: w.newIssueId } });
        await expect(s, w, op, 404, { params: { issueId: crypto.randomUUID() } });
      },
      [`PATCH ${P}/issues/{issueId}`]: async (s, w) => {
        const op = `PATCH ${P}/issues/{issueId}`;
        const params = { issueId: w.newIssueId };
        const moved = await expect(s, w, op, 200, { params, json: { status: "closed" } });
        assert.deepEqual(moved.json.permittedStatuses, ["open"]);
        assert.ok(moved.json.closedAt);
        const refused = await expect(s, w, op, 400, { params, json: { status: "completed" } });
        assert.match(refused.json.message, /cannot move from closed to completed; permitted: open/);
        await expect(s, w, op, 404, { params: { issueId: crypto.randomUUID() }, json: { title: "x" } });
      },
      [`GET ${P}/issues/{issueId}/comments`]: async (s, w) => {
        const op = `GET ${P}/issues/{issueId}/comments`;
        const first = (await expect(s, w, `GET ${P}/issues`, 200, { query: "?limit=1" })).json.results[0].id;
        const page = await expect(s, w, op, 200, { params: { issueId: first }, query: "?limit=100" });
        assert.equal(page.json.pagination.totalResults, 105);
        w.seededIssueId = first;
      },
      [`POST ${P}/issues/{issueId}/comments`]: async (s, w) => {
        const op = `POST ${P}/issues/{issueId}/comments`;
        const params = { issueId: w.newIssueId };
        assert.equal(
          (await expect(s, w, op, 201, { params, json: { body: "Checked" } })).json.body,
          "Checked",
        );
        await expect(s, w, op, 400, { params, json: { body: "" } });
      },
      [`GET ${P}/attachments/{issueId}/items`]: async (s, w) => {
        const op = `GET ${P}/attachments/{issueId}/items`;
        const list = await expect(s, w, op, 200, { params: { issueId: w.seededIssueId } });
        assert.equal(list.json.attachments.length, 2);
        w.attachmentId = list.json.attachments[0].attachmentId;
      },
      [`POST ${P}/attachments`]: async (s, w) => {
        const op = `POST ${P}/attachments`;
        const item = {
          attachmentId: "4b2d1c3e-0000-4000-8000-000000000001",
          displayName: "photo.jpg",
          fileName: "4b2d1c3e-0000-4000-8000-000000000001.jpg",
          attachmentType: "issue-attachment",
          storageUrn: "urn:adsk.objects:os.object:wip.dm.prod/4b2d1c3e-0000-4000-8000-000000000001.jpg",
        };
        // Not uploaded: the platform links files already in the project's storage.
        const bad = await expect(s, w, op, 400, {
          json: { domainEntityId: w.newIssueId, attachments: [item] },
        });
        assert.match(bad.json.message, /no uploaded object/);
        await expect(s, w, op, 404, { json: { domainEntityId: crypto.randomUUID(), attachments: [item] } });

        // Uploaded into the project's storage (data management, then OSS), it is attached.
        const hub = `b.${seededAccountId()}`;
        const top = await s.send(
          "GET",
          `${s.sb.url}/project/v1/hubs/${hub}/projects/b.${w.projectId}/topFolders`,
          {
            token: w.t,
          },
        );
        const storage = await s.send("POST", `${s.sb.url}/data/v1/projects/b.${w.projectId}/storage`, {
          token: w.t,
          headers: { "content-type": "application/vnd.api+json" },
          json: {
            jsonapi: { version: "1.0" },
            data: {
              type: "objects",
              attributes: { name: "photo.jpg" },
              relationships: { target: { data: { type: "folders", id: top.json.data[0].id } } },
            },
          },
        });
        assert.equal(storage.status, 201, JSON.stringify(storage.json));
        const urn: string = storage.json.data.id;
        await upload(s, { ...w, writer: w.t }, urn, "jpeg bytes");
        const fileName = urn.slice(urn.lastIndexOf("/") + 1);
        const uploaded = { ...item, attachmentId: fileName.split(".")[0], fileName, storageUrn: urn };
        const json = { domainEntityId: w.newIssueId, attachments: [uploaded] };
        assert.equal((await expect(s, w, op, 200, { json })).json.attachments[0].fileSize, 10);
        await expect(s, w, op, 409, { json });
      },
      [`DELETE ${P}/attachments/{issueId}/items/{attachmentId}`]: async (s, w) => {
        const op = `DELETE ${P}/attachments/{issueId}/items/{attachmentId}`;
        await expect(s, w, op, 204, { params: { issueId: w.seededIssueId } });
        await expect(s, w, op, 404, { params: { issueId: w.seededIssueId } });
      },
    },
  });
});
