/**
 * Data management writes (openapi/datamanagement/datamanagement.yaml): storage locations in the
 * `wip.dm.prod` bucket, folders, items (first versions) and further versions, renames by PATCH of a
 * folder, item or version, and a version's download jobs. Bodies are JSON:API documents checked as
 * the platform checks them (400 `BAD_INPUT`), a name taken in its folder is 409 `CONFLICT`, and a
 * new version or folder is announced on the event bus (`dm.version.added`, `dm.folder.added`).
 */
import type { RequestContext } from "../context.ts";
import { nowMs } from "../clock.ts";
import { base64urlOf } from "../../core/bytes.ts";
import { dmError } from "../errors.ts";
import { findObject } from "../oss/object_store.ts";
import type { Route } from "../router.ts";
import { dmBadInput, dmNotFound, document, jsonApi } from "./jsonapi.ts";
import { checkedName, extensionType, isRecord, type Json, objectAt, payload, related } from "./payload.ts";
import { folderResource, itemResource, versionResource } from "./resources.ts";
import { commandRoutes } from "./commands.ts";
import { finishedDownloads } from "./downloads.ts";
import { grantStorage } from "./storage.ts";
import { folderIn, itemIn, one, tipOf, versionIn, visibleProject } from "./routes.ts";
import {
  addFolder,
  addVersion,
  DM_STORAGE_BUCKET,
  type DmFolder,
  type DmItem,
  type DmProject,
  type DmVersion,
  type DmWorld,
} from "./world.ts";

function conflict(detail: string) {
  return dmError(409, "CONFLICT", "Conflict", detail);
}

function now(ctx: RequestContext): string {
  return new Date(nowMs(ctx.sandbox.clock)).toISOString();
}

/** 22 URL-safe random characters, like the platform's folder and lineage ids. */
function randomToken(): string {
  return base64urlOf(crypto.getRandomValues(new Uint8Array(16)));
}

function folderById(world: DmWorld, project: DmProject, id: string): DmFolder {
  const folder = world.folders.get(id);
  if (!folder || folder.projectId !== project.id) {
    throw dmNotFound(`The folder ${id} does not exist in project ${project.id}.`);
  }
  return folder;
}

function itemById(world: DmWorld, project: DmProject, id: string): DmItem {
  const item = world.items.get(id);
  if (!item || item.projectId !== project.id) {
    throw dmNotFound(`The item ${id} does not exist in project ${project.id}.`);
  }
  return item;
}

/** The writable world and the path's project in it. */
function writableProject(ctx: RequestContext): { world: DmWorld; project: DmProject } {
  const world = ctx.sandbox.dm.writable();
  return { world, project: visibleProject(ctx, world) };
}

/** The names of a folder's children of one kind, to refuse a second one of the same name. */
function takenNames(world: DmWorld, folder: DmFolder, kind: "folders" | "items", except?: string): string[] {
  return folder.childIds.filter((id) => id !== except).flatMap((id) => {
    if (kind === "folders") return world.folders.has(id) ? [world.folders.get(id)!.name] : [];
    return world.items.has(id) ? [world.items.get(id)!.displayName] : [];
  });
}

async function createStorage(req: Request, ctx: RequestContext): Promise<Response> {
  const { data } = await payload(req, "objects");
  const name = checkedName(objectAt(data.attributes, "data.attributes").name, "data.attributes.name");
  const target = related(data, "target", ["folders", "items"]);
  const world = ctx.sandbox.dm.world;
  const project = visibleProject(ctx, world);
  const href = target.type === "folders"
    ? (folderById(world, project, target.id), "folders")
    : (itemById(world, project, target.id), "items");
  grantStorage(ctx);
  const dot = name.lastIndexOf(".");
  const key = `${crypto.randomUUID()}${dot > 0 ? name.slice(dot).toLowerCase() : ""}`;
  const enc = encodeURIComponent;
  return jsonApi(201, {
    jsonapi: { version: "1.0" },
    links: { self: { href: `${ctx.baseUrl}/oss/v2/buckets/${DM_STORAGE_BUCKET}/objects/${key}` } },
    data: {
      type: "objects",
      id: `urn:adsk.objects:os.object:${DM_STORAGE_BUCKET}/${key}`,
      relationships: {
        target: {
          links: {
            related: { href: `${ctx.baseUrl}/data/v1/projects/${enc(project.id)}/${href}/${enc(target.id)}` },
          },
          data: target,
        },
      },
    },
  });
}

/** The OSS object a storage id names (`urn:adsk.objects:os.object:<bucket>/<key>`); 400 when none. */
function storedObject(ctx: RequestContext, storageId: string) {
  const m = /^urn:adsk\.objects:os\.object:([-_.a-z0-9]{3,128})\/(.+)$/.exec(storageId);
  const obj = m ? findObject(ctx.sandbox.oss, m[1], m[2]) : undefined;
  if (!obj) throw dmBadInput(`The storage ${storageId} holds no uploaded object; upload the file first.`);
  return obj;
}

/** Ancestors of a folder, root first, as a `dm.*` payload names them. */
function ancestors(world: DmWorld, folder: DmFolder): { urn: string; name: string }[] {
  const out: { urn: string; name: string }[] = [];
  for (let f: DmFolder | undefined = folder; f; f = f.parentId ? world.folders.get(f.parentId) : undefined) {
    out.unshift({ urn: f.id, name: f.name });
  }
  return out;
}

/** Adds a version to `item` (created when new) from a stored object, and announces it. */
function fileVersion(
  ctx: RequestContext,
  world: DmWorld,
  item: DmItem,
  v: { name: string; storageId: string; extensionType?: string },
): DmVersion {
  const obj = storedObject(ctx, v.storageId);
  const version = addVersion(world, item, {
    name: v.name,
    size: obj.size,
    storageId: v.storageId,
    extensionType: v.extensionType ?? item.extensionType.replace(/^items:/, "versions:"),
    time: now(ctx),
  });
  const ext = version.fileType;
  const number = version.versionNumber;
  item.displayName = v.name;
  const folder = world.folders.get(item.parentId)!;
  touch(world, folder, version.createTime);
  const user = ctx.token?.userid ?? ctx.clientId ?? "";
  const time = version.createTime.replace(/\.\d{3}Z$/, "+0000");
  ctx.sandbox.events.publish({
    system: "data",
    event: "dm.version.added",
    clientId: ctx.clientId,
    scope: { folder: folder.id },
    payload: {
      ext,
      modifiedTime: time,
      creator: user,
      lineageUrn: item.id,
      sizeInBytes: obj.size,
      hidden: false,
      indexable: true,
      project: item.projectId.replace(/^b\./, ""),
      source: version.id,
      version: String(number),
      user_info: { id: user },
      name: v.name,
      createdTime: time,
      modifiedBy: user,
      state: "CONTENT_AVAILABLE",
      parentFolderUrn: folder.id,
      ancestors: ancestors(world, folder),
      contentURL: v.storageId,
      tenant: world.projects.get(item.projectId)!.hubId.replace(/^[ab]\./, ""),
    },
  });
  return version;
}

/** Marks `folder` and its ancestors changed below at `time`. */
function touch(world: DmWorld, folder: DmFolder, time: string): void {
  for (let f: DmFolder | undefined = folder; f; f = f.parentId ? world.folders.get(f.parentId) : undefined) {
    if (f.lastModifiedTimeRollup < time) f.lastModifiedTimeRollup = time;
  }
}

async function createFolder(req: Request, ctx: RequestContext): Promise<Response> {
  const { data } = await payload(req, "folders");
  const attributes = objectAt(data.attributes, "data.attributes");
  const name = checkedName(attributes.name, "data.attributes.name");
  // datamanagement.yaml's FolderPayload requires the extension (type and version).
  const ext = objectAt(attributes.extension, "data.attributes.extension");
  if (typeof ext.type !== "string" || typeof ext.version !== "string") {
    throw dmBadInput("data.attributes.extension must have a type and a version");
  }
  const parentId = related(data, "parent", ["folders"]).id;
  const { world, project } = writableProject(ctx);
  const parent = folderById(world, project, parentId);
  if (takenNames(world, parent, "folders").includes(name)) {
    throw conflict(`A folder named '${name}' already exists in folder ${parent.id}.`);
  }
  const time = now(ctx);
  const folder = addFolder(world, parent, {
    id: `urn:adsk.wipprod:fs.folder:co.${randomToken()}`,
    name,
    extensionType: extensionType(attributes) ?? parent.extensionType,
    time,
  });
  touch(world, parent, time);
  ctx.sandbox.events.publish({
    system: "data",
    event: "dm.folder.added",
    clientId: ctx.clientId,
    scope: { folder: parent.id },
    payload: { name, source: folder.id, parentFolderUrn: parent.id, ancestors: ancestors(world, parent) },
  });
  return jsonApi(201, document(ctx.url, ctx.baseUrl, folderResource(world, folder, ctx.baseUrl)));
}

async function createItem(req: Request, ctx: RequestContext): Promise<Response> {
  const { body, data } = await payload(req, "items");
  const attributes = objectAt(data.attributes, "data.attributes");
  const name = checkedName(attributes.displayName, "data.attributes.displayName");
  const parentId = related(data, "parent", ["folders"]).id;
  const tipId = related(data, "tip", ["versions"]).id;
  const included = Array.isArray(body.included) ? body.included : [];
  const first = included.find((r) => isRecord(r) && r.type === "versions" && r.id === tipId);
  if (!isRecord(first)) {
    throw dmBadInput(`included must hold the version '${tipId}' that data.relationships.tip names`);
  }
  const vAttributes = objectAt(first.attributes, "included[0].attributes");
  const storageId = related(first, "storage", ["objects"]).id;
  const { world, project } = writableProject(ctx);
  const parent = folderById(world, project, parentId);
  if (takenNames(world, parent, "items").includes(name)) {
    throw conflict(
      `An item named '${name}' already exists in folder ${parent.id}; add a version to it instead.`,
    );
  }
  const item: DmItem = {
    id: `urn:adsk.wipprod:dm.lineage:${randomToken()}`,
    projectId: project.id,
    parentId: parent.id,
    displayName: name,
    extensionType: extensionType(attributes) ??
      parent.extensionType.replace(/^folders:(.*):Folder$/, "items:$1:File"),
    versionIds: [],
  };
  const version = fileVersion(ctx, world, item, {
    name: checkedName(vAttributes.name ?? name, "included[0].attributes.name"),
    storageId,
    extensionType: extensionType(vAttributes),
  });
  world.items.set(item.id, item);
  parent.childIds.push(item.id);
  const doc = document(ctx.url, ctx.baseUrl, itemResource(world, item, ctx.baseUrl), {
    included: [versionResource(world, version, ctx.baseUrl)],
  });
  return jsonApi(201, doc);
}

async function createVersion(req: Request, ctx: RequestContext): Promise<Response> {
  const { data } = await payload(req, "versions");
  const attributes = objectAt(data.attributes, "data.attributes");
  const name = checkedName(attributes.name, "data.attributes.name");
  const itemId = related(data, "item", ["items"]).id;
  const storageId = related(data, "storage", ["objects"]).id;
  const { world, project } = writableProject(ctx);
  const item = itemById(world, project, itemId);
  const parent = world.folders.get(item.parentId)!;
  if (takenNames(world, parent, "items", item.id).includes(name)) {
    throw conflict(`Another item named '${name}' already exists in folder ${parent.id}.`);
  }
  const version = fileVersion(ctx, world, item, {
    name,
    storageId,
    extensionType: extensionType(attributes),
  });
  const doc = document(ctx.url, ctx.baseUrl, versionResource(world, version, ctx.baseUrl), {
    included: [itemResource(world, item, ctx.baseUrl)],
  });
  return jsonApi(201, doc);
}

/** The `data.attributes` of a PATCH of the path's resource (`data.id` must name it). */
async function patchAttributes(req: Request, type: string, id: string): Promise<Json> {
  const { data } = await payload(req, type);
  if (data.id !== id) throw dmBadInput(`data.id must be the ${type.slice(0, -1)} of the path, ${id}`);
  return data.attributes === undefined ? {} : objectAt(data.attributes, "data.attributes");
}

async function patchFolder(req: Request, ctx: RequestContext): Promise<Response> {
  const attributes = await patchAttributes(req, "folders", ctx.params.folderId);
  const { world, project } = writableProject(ctx);
  const folder = folderIn(ctx, world, project);
  if (attributes.name !== undefined) {
    const name = checkedName(attributes.name, "data.attributes.name");
    const parent = folder.parentId ? world.folders.get(folder.parentId) : undefined;
    if (!parent) throw dmBadInput(`The folder ${folder.id} is the project's root folder.`);
    if (takenNames(world, parent, "folders", folder.id).includes(name)) {
      throw conflict(`A folder named '${name}' already exists in folder ${parent.id}.`);
    }
    folder.name = name;
    folder.lastModifiedTime = now(ctx);
    touch(world, folder, folder.lastModifiedTime);
  }
  return one(ctx, folderResource(world, folder, ctx.baseUrl));
}

async function patchItem(req: Request, ctx: RequestContext): Promise<Response> {
  const attributes = await patchAttributes(req, "items", ctx.params.itemId);
  const { world, project } = writableProject(ctx);
  const item = itemIn(ctx, world, project);
  if (attributes.displayName !== undefined) {
    const name = checkedName(attributes.displayName, "data.attributes.displayName");
    if (takenNames(world, world.folders.get(item.parentId)!, "items", item.id).includes(name)) {
      throw conflict(`An item named '${name}' already exists in folder ${item.parentId}.`);
    }
    item.displayName = name;
  }
  return one(ctx, itemResource(world, item, ctx.baseUrl), [tipOf(world, item, ctx.baseUrl)]);
}

async function patchVersion(req: Request, ctx: RequestContext): Promise<Response> {
  const attributes = await patchAttributes(req, "versions", ctx.params.versionId);
  const { world, project } = writableProject(ctx);
  const version = versionIn(ctx, world, project);
  if (attributes.name !== undefined) version.name = checkedName(attributes.name, "data.attributes.name");
  return one(ctx, versionResource(world, version, ctx.baseUrl));
}

/**
 * A version's downloads: the version's own file, ready in storage, then the other formats its
 * finished download jobs made (downloads.ts).
 */
function versionDownloads(_req: Request, ctx: RequestContext): Response {
  const world = ctx.sandbox.dm.world;
  const project = visibleProject(ctx, world);
  const version = versionIn(ctx, world, project);
  const enc = encodeURIComponent;
  const data = `${ctx.baseUrl}/data/v1/projects/${enc(project.id)}`;
  const slash = version.storageId.indexOf("/");
  const key = version.storageId.slice(slash + 1);
  const bucket = version.storageId.slice(version.storageId.lastIndexOf(":", slash) + 1, slash);
  const id = key.replace(/\.[^.]*$/, "");
  const download = {
    type: "downloads",
    id,
    attributes: { format: { fileType: version.fileType || "bin" } },
    relationships: {
      source: {
        links: { related: { href: `${data}/downloads/${enc(id)}/source` } },
        data: { type: "versions", id: version.id },
      },
      storage: {
        data: { type: "objects", id: version.storageId },
        meta: { link: { href: `${ctx.baseUrl}/oss/v2/buckets/${bucket}/objects/${enc(key)}` } },
      },
    },
    links: { self: { href: `${data}/downloads/${enc(id)}` } },
  };
  return jsonApi(
    200,
    document(ctx.url, ctx.baseUrl, [download, ...finishedDownloads(ctx, project, version)]),
  );
}

const DATA = "/data/v1/projects/:projectId";
const CREATE = ["data:create"] as const;
const WRITE = ["data:write"] as const;

/** Routes of data management writes, with the scopes of each operation's `security` in the OpenAPI. */
export const dmWriteRoutes: readonly Route[] = [
  { method: "POST", pattern: `${DATA}/storage`, scopes: CREATE, handler: createStorage },
  { method: "POST", pattern: `${DATA}/folders`, scopes: CREATE, handler: createFolder },
  { method: "POST", pattern: `${DATA}/items`, scopes: CREATE, handler: createItem },
  { method: "POST", pattern: `${DATA}/versions`, scopes: CREATE, handler: createVersion },
  { method: "PATCH", pattern: `${DATA}/folders/:folderId`, scopes: WRITE, handler: patchFolder },
  { method: "PATCH", pattern: `${DATA}/items/:itemId`, scopes: WRITE, handler: patchItem },
  { method: "PATCH", pattern: `${DATA}/versions/:versionId`, scopes: WRITE, handler: patchVersion },
  {
    method: "GET",
    pattern: `${DATA}/versions/:versionId/downloads`,
    scopes: ["data:read"],
    handler: versionDownloads,
  },
  ...commandRoutes,
];
