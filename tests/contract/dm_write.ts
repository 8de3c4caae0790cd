/**
 * The write steps of the datamanagement.yaml contract plan (data_management_test.ts runs them after
 * the reads): a storage location and its bytes, a folder, an item, a version, the three renames and
 * a version's download jobs, every answer checked against the file.
 */
import assert from "node:assert/strict";
import { bytesOf, expect, type Session, type Step, type World } from "./contract.ts";

const JSON_API = { "content-type": "application/vnd.api+json" };
const jsonapi = { version: "1.0" };

/** A write of `op` with a JSON:API `body`, by a user allowed to write, expecting `status`. */
async function write(s: Session, w: World, op: string, status: number, body: unknown) {
  w.writer ??= await s.userToken("data:read data:write data:create");
  const a = await expect(s, { ...w, t: w.writer }, op, status, {
    json: { jsonapi, ...body as object },
    headers: JSON_API,
  });
  return a.json;
}

/** Puts `text` into the storage object `storageId` through OSS's signed S3 upload (not checked here). */
export async function upload(s: Session, w: World, storageId: string, text: string): Promise<void> {
  const key = storageId.slice(storageId.lastIndexOf("/") + 1);
  const at = `${s.sb.url}/oss/v2/buckets/wip.dm.prod/objects/${key}/signeds3upload`;
  const urls = await s.send("GET", at, { token: w.writer });
  assert.equal(urls.status, 200, JSON.stringify(urls.json));
  const put = await s.send("PUT", urls.json.urls[0], { body: bytesOf(text) });
  assert.equal(put.status, 200);
  const done = await s.send("POST", at, { token: w.writer, json: { uploadKey: urls.json.uploadKey } });
  assert.equal(done.status, 200, JSON.stringify(done.json));
}

const ref = (type: string, id: string) => ({ data: { type, id } });
const VERSION_ATTRIBUTES = {
  name: "contract.dwg",
  extension: { type: "versions:autodesk.bim360:File", version: "1.0" },
};

/** The steps, keyed by operation. */
export const DM_WRITE_STEPS: Record<string, Step<World>> = {
  "POST /data/v1/projects/{project_id}/storage": async (s, w) => {
    const storage = await write(s, w, "POST /data/v1/projects/{project_id}/storage", 201, {
      data: {
        type: "objects",
        attributes: { name: "contract.dwg" },
        relationships: { target: ref("folders", w.folder_id) },
      },
    });
    w.storage_id = storage.data.id;
    await upload(s, w, w.storage_id, "contract bytes");
    await write(s, w, "POST /data/v1/projects/{project_id}/storage", 400, { data: { type: "objects" } });
  },
  "POST /data/v1/projects/{project_id}/folders": async (s, w) => {
    const body = {
      data: {
        type: "folders",
        attributes: {
          name: "Contract",
          extension: { type: "folders:autodesk.bim360:Folder", version: "1.0" },
        },
        relationships: { parent: ref("folders", w.folder_id) },
      },
    };
    w.new_folder = (await write(s, w, "POST /data/v1/projects/{project_id}/folders", 201, body)).data.id;
    await write(s, w, "POST /data/v1/projects/{project_id}/folders", 409, body);
  },
  "POST /data/v1/projects/{project_id}/items": async (s, w) => {
    const created = await write(s, w, "POST /data/v1/projects/{project_id}/items", 201, {
      data: {
        type: "items",
        attributes: {
          displayName: "contract.dwg",
          extension: { type: "items:autodesk.bim360:File", version: "1.0" },
        },
        relationships: { tip: ref("versions", "1"), parent: ref("folders", w.new_folder) },
      },
      included: [{
        type: "versions",
        id: "1",
        attributes: VERSION_ATTRIBUTES,
        relationships: { storage: ref("objects", w.storage_id) },
      }],
    });
    w.new_item = created.data.id;
  },
  "POST /data/v1/projects/{project_id}/versions": async (s, w) => {
    const created = await write(s, w, "POST /data/v1/projects/{project_id}/versions", 201, {
      data: {
        type: "versions",
        attributes: VERSION_ATTRIBUTES,
        relationships: { item: ref("items", w.new_item), storage: ref("objects", w.storage_id) },
      },
    });
    w.new_version = created.data.id;
    assert.equal(created.data.attributes.versionNumber, 2);
  },
  "PATCH /data/v1/projects/{project_id}/folders/{folder_id}": async (s, w) => {
    const renamed = await write(
      s,
      { ...w, folder_id: w.new_folder },
      "PATCH /data/v1/projects/{project_id}/folders/{folder_id}",
      200,
      {
        data: { type: "folders", id: w.new_folder, attributes: { name: "Contract (renamed)" } },
      },
    );
    assert.equal(renamed.data.attributes.name, "Contract (renamed)");
  },
  "PATCH /data/v1/projects/{project_id}/items/{item_id}": async (s, w) => {
    await write(
      s,
      { ...w, item_id: w.new_item },
      "PATCH /data/v1/projects/{project_id}/items/{item_id}",
      200,
      {
        data: { type: "items", id: w.new_item, attributes: { displayName: "renamed.dwg" } },
      },
    );
  },
  "PATCH /data/v1/projects/{project_id}/versions/{version_id}": async (s, w) => {
    const op = "PATCH /data/v1/projects/{project_id}/versions/{version_id}";
    await write(s, { ...w, version_id: w.new_version }, op, 200, {
      data: { type: "versions", id: w.new_version, attributes: { name: "renamed.dwg" } },
    });
  },
  "GET /data/v1/projects/{project_id}/versions/{version_id}/downloads": async (s, w) => {
    await expect(
      s,
      { ...w, version_id: w.new_version },
      "GET /data/v1/projects/{project_id}/versions/{version_id}/downloads",
      200,
    );
  },
};
