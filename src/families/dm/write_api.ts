/**
 * Data management writes (openapi/datamanagement/datamanagement.yaml): a storage location for a file's
 * bytes, folders, items (a file's first version), further versions, renames (PATCH of a folder, an
 * item or a version). Bodies are JSON:API documents sent as
 * `application/vnd.api+json`; POSTs are never retried (each would create one more resource).
 */
import { segment as enc } from "../../http/path.ts";
import type { DmProjectId, FolderId, ItemId, VersionId } from "../../aps/ids.ts";
import type { Http } from "../../http/http.ts";
import { dmFailure, type DmResource, type DmTarget, folderTarget, itemTarget, versionTarget } from "./api.ts";
import { DATA_CREATE, DATA_WRITE } from "../../aps/scope_constants.ts";

const JSON_API = { version: "1.0" };

/** What a write answers: its resource and what came `included` with it. */
export interface DmWritten {
  data: DmResource;
  included: DmResource[];
}

async function send(
  http: Http,
  method: "POST" | "PATCH",
  path: string,
  body: Record<string, unknown>,
  target: DmTarget,
): Promise<DmWritten> {
  try {
    const res = await http.request<{ data: DmResource; included?: DmResource[] }>({
      method,
      path,
      headers: { "content-type": "application/vnd.api+json" },
      json: { jsonapi: JSON_API, ...body },
      scope: method === "POST" ? DATA_CREATE : DATA_WRITE,
      resource: "generic",
      key: target.what,
    });
    return { data: res.data.data, included: res.data.included ?? [] };
  } catch (e) {
    throw dmFailure(e, target);
  }
}

const ref = (type: string, id: string) => ({ data: { type, id } });

/** A storage location (an OSS object id in the `wip.dm.prod` bucket) for a new item in a folder or a new version of an item. */
export async function createStorage(
  http: Http,
  project: DmProjectId,
  name: string,
  target: { folder: FolderId } | { item: ItemId },
): Promise<string> {
  const [type, id] = "folder" in target ? ["folders", target.folder] : ["items", target.item];
  const written = await send(http, "POST", `/data/v1/projects/${enc(project)}/storage`, {
    data: { type: "objects", attributes: { name }, relationships: { target: ref(type, id) } },
  }, "folder" in target ? folderTarget(project, id) : itemTarget(project, id));
  return written.data.id;
}

/** The extension types of a project's flavour: BIM 360/ACC (`b.` ids) or A360/Fusion. */
export function flavourOf(project: DmProjectId): { folder: string; item: string; version: string } {
  const ns = project.startsWith("b.") ? "autodesk.bim360" : "autodesk.core";
  return { folder: `folders:${ns}:Folder`, item: `items:${ns}:File`, version: `versions:${ns}:File` };
}

/** A folder named `name` in `parent`. */
export async function createFolder(
  http: Http,
  project: DmProjectId,
  parent: FolderId,
  name: string,
): Promise<DmResource> {
  return (await send(http, "POST", `/data/v1/projects/${enc(project)}/folders`, {
    data: {
      type: "folders",
      attributes: { name, extension: { type: flavourOf(project).folder, version: "1.0" } },
      relationships: { parent: ref("folders", parent) },
    },
  }, folderTarget(project, parent))).data;
}

/** A new item in `folder` whose first version is the stored object `storageId`. */
export async function createItem(
  http: Http,
  project: DmProjectId,
  folder: FolderId,
  name: string,
  storageId: string,
): Promise<DmWritten> {
  const flavour = flavourOf(project);
  return await send(http, "POST", `/data/v1/projects/${enc(project)}/items`, {
    data: {
      type: "items",
      attributes: { displayName: name, extension: { type: flavour.item, version: "1.0" } },
      relationships: { tip: ref("versions", "1"), parent: ref("folders", folder) },
    },
    included: [{
      type: "versions",
      id: "1",
      attributes: { name, extension: { type: flavour.version, version: "1.0" } },
      relationships: { storage: ref("objects", storageId) },
    }],
  }, folderTarget(project, folder));
}

/** A new version of `item` from the stored object `storageId`. */
export async function createVersion(
  http: Http,
  project: DmProjectId,
  item: ItemId,
  name: string,
  storageId: string,
): Promise<DmWritten> {
  return await send(http, "POST", `/data/v1/projects/${enc(project)}/versions`, {
    data: {
      type: "versions",
      attributes: { name, extension: { type: flavourOf(project).version, version: "1.0" } },
      relationships: { item: ref("items", item), storage: ref("objects", storageId) },
    },
  }, itemTarget(project, item));
}

/** Renames a folder. */
export async function renameFolder(
  http: Http,
  project: DmProjectId,
  folder: FolderId,
  name: string,
): Promise<DmResource> {
  return (await send(http, "PATCH", `/data/v1/projects/${enc(project)}/folders/${enc(folder)}`, {
    data: { type: "folders", id: folder, attributes: { name } },
  }, folderTarget(project, folder))).data;
}

/** Renames an item (its display name). */
export async function renameItem(
  http: Http,
  project: DmProjectId,
  item: ItemId,
  displayName: string,
): Promise<DmWritten> {
  return await send(http, "PATCH", `/data/v1/projects/${enc(project)}/items/${enc(item)}`, {
    data: { type: "items", id: item, attributes: { displayName } },
  }, itemTarget(project, item));
}

/** Renames a version (the file name it syncs to). */
export async function renameVersion(
  http: Http,
  project: DmProjectId,
  version: VersionId,
  name: string,
): Promise<DmResource> {
  return (await send(http, "PATCH", `/data/v1/projects/${enc(project)}/versions/${enc(version)}`, {
    data: { type: "versions", id: version, attributes: { name } },
  }, versionTarget(project, version))).data;
}
