/**
 * Data management (Project v1 / Data v1, read side): hubs, projects, top folders, folders and their
 * contents, items and versions over the seeded world of `../dm/world.ts`, in JSON:API shapes with
 * `page[number]`/`page[limit]` pagination and `filter[...]` parameters. Every route needs
 * `data:read`.
 *
 * Visibility: a token that acts for a user (3-legged, or a service account) sees the ACC account
 * hub (`b.` id) and the user's personal hub (`a.` id); a 2-legged token sees only the `b.` hub, and
 * a 2-legged request for anything in the personal hub answers 403 `USER_NOT_AUTHENTICATED`, as
 * the platform does.
 *
 * An account hub lists every project of its account stored where the hub is (its `region`, "where the
 * hub is stored" in openapi/datamanagement/datamanagement.yaml), as the platform does: the projects of
 * the seeded world, then those the account administration store holds alone (its template, archived
 * and BIM 360 projects, and those created through the admin APIs), without folders
 * (`accountProjects`). These are the projects the administration APIs list with the hub's region as
 * their `Region` header (../admin/routes.ts); a project the sandbox hosts in another region is
 * not in the hub.
 */
import type { RequestContext } from "../context.ts";
import type { AdminProject } from "../admin/store.ts";
import { dmError, type SandboxError } from "../errors.ts";
import type { Route } from "../router.ts";
import {
  applyFilters,
  dmBadInput,
  dmNotFound,
  document,
  filtersOf,
  jsonApi,
  paginate,
  type Resource,
} from "./jsonapi.ts";
import {
  childResource,
  folderResource,
  hubResource,
  itemResource,
  projectResource,
  versionResource,
} from "./resources.ts";
import type { DmFolder, DmHub, DmItem, DmProject, DmVersion, DmWorld } from "./world.ts";

/** The scope every data management read accepts. */
const READ = ["data:read"] as const;

function actsForUser(ctx: RequestContext): boolean {
  return ctx.token?.userid !== undefined;
}

function personalDenied(): SandboxError {
  return dmError(
    403,
    "USER_NOT_AUTHENTICATED",
    "Forbidden",
    "The user could not be authenticated. Personal hubs are reachable only with a user's (3-legged) token.",
  );
}

function visibleHub(ctx: RequestContext, world: DmWorld): DmHub {
  const id = ctx.params.hubId;
  const hub = world.hubs.get(id);
  if (!hub) throw dmNotFound(`The hub ${id} does not exist or you have no access to it.`);
  if (hub.personal && !actsForUser(ctx)) throw personalDenied();
  return hub;
}

/** The project of a `/data/v1/projects/:projectId/...` path, when the token may see it. */
export function visibleProject(ctx: RequestContext, world: DmWorld): DmProject {
  const id = ctx.params.projectId;
  const project = world.projects.get(id);
  if (!project) {
    const hint = /^[0-9a-f]{8}-/i.test(id) ? " Data management project ids carry the b. prefix." : "";
    throw dmNotFound(`The project ${id} does not exist or you have no access to it.${hint}`);
  }
  if (world.hubs.get(project.hubId)!.personal && !actsForUser(ctx)) throw personalDenied();
  return project;
}

/** A project of the account administration store as data management shows it: no folders yet. */
function adminOnlyProject(hub: DmHub, p: AdminProject): DmProject {
  return {
    id: `b.${p.id}`,
    hubId: hub.id,
    name: p.name,
    extensionType: "projects:autodesk.bim360:Project",
    projectType: p.platform === "bim360" ? "BIM360" : "ACC",
    rootFolderId: `urn:adsk.wipprod:fs.folder:co.${p.id}`,
    topFolderIds: [],
  };
}

/**
 * The projects of a hub: the world's, then (for an account hub) the projects of its account, stored in
 * the hub's region, that only the account administration store holds.
 */
function accountProjects(ctx: RequestContext, world: DmWorld, hub: DmHub): DmProject[] {
  const own = hub.projectIds.map((id) => world.projects.get(id)!);
  const account = hub.personal ? undefined : ctx.sandbox.admin.accounts.get(hub.id.slice(2));
  if (!account) return own;
  const extra = [...account.projects.values()].filter((p) =>
    p.region === hub.region && !world.projects.has(`b.${p.id}`)
  );
  return [...own, ...extra.map((p) => adminOnlyProject(hub, p))];
}

/** The project of a `/project/v1/hubs/:hubId/projects/:projectId/...` path. */
function hubProject(ctx: RequestContext, world: DmWorld): DmProject {
  const hub = visibleHub(ctx, world);
  const project = accountProjects(ctx, world, hub).find((p) => p.id === ctx.params.projectId);
  if (!project || project.hubId !== hub.id) {
    throw dmNotFound(`The project ${ctx.params.projectId} does not exist in hub ${hub.id}.`);
  }
  return project;
}

/** The folder of the path's `folderId` in `project`; 404 otherwise. */
export function folderIn(ctx: RequestContext, world: DmWorld, project: DmProject): DmFolder {
  const folder = world.folders.get(ctx.params.folderId);
  if (!folder || folder.projectId !== project.id) {
    throw dmNotFound(`The folder ${ctx.params.folderId} does not exist in project ${project.id}.`);
  }
  return folder;
}

/** The item of the path's `itemId` in `project`; 404 otherwise. */
export function itemIn(ctx: RequestContext, world: DmWorld, project: DmProject): DmItem {
  const item = world.items.get(ctx.params.itemId);
  if (!item || item.projectId !== project.id) {
    throw dmNotFound(`The item ${ctx.params.itemId} does not exist in project ${project.id}.`);
  }
  return item;
}

/** Answers a page of `all` (after the request's filters), with `included` computed per page. */
function collection(
  ctx: RequestContext,
  all: Resource[],
  included?: (page: Resource[]) => Resource[],
): Response {
  const paged = paginate(applyFilters(all, filtersOf(ctx.url)), ctx.url, ctx.baseUrl);
  const extra = { links: paged.links, ...(included ? { included: included(paged.items) } : {}) };
  return jsonApi(200, document(ctx.url, ctx.baseUrl, paged.items, extra));
}

/** A 200 document of one resource (and what comes `included` with it). */
export function one(ctx: RequestContext, data: Resource, included?: Resource[]): Response {
  return jsonApi(200, document(ctx.url, ctx.baseUrl, data, included ? { included } : {}));
}

/** Checks `filter[type]` against the types a collection can hold; throws 400 for another. */
function checkTypeFilter(ctx: RequestContext, allowed: readonly string[]): void {
  const types = filtersOf(ctx.url).get("type") ?? [];
  const bad = types.find((t) => !allowed.includes(t));
  if (bad !== undefined) {
    throw dmBadInput(`filter[type] '${bad}' is not supported here; use ${allowed.join(" or ")}`);
  }
}

function listHubs(_req: Request, ctx: RequestContext): Response {
  const world = ctx.sandbox.dm.world;
  const hubs = [...world.hubs.values()].filter((h) => !h.personal || actsForUser(ctx));
  const data = applyFilters(hubs.map((h) => hubResource(h, ctx.baseUrl)), filtersOf(ctx.url));
  return jsonApi(200, document(ctx.url, ctx.baseUrl, data));
}

function getHub(_req: Request, ctx: RequestContext): Response {
  return one(ctx, hubResource(visibleHub(ctx, ctx.sandbox.dm.world), ctx.baseUrl));
}

function listProjects(_req: Request, ctx: RequestContext): Response {
  const world = ctx.sandbox.dm.world;
  const hub = visibleHub(ctx, world);
  const all = accountProjects(ctx, world, hub).map((p) => projectResource(p, ctx.baseUrl));
  return collection(ctx, all);
}

function getProject(_req: Request, ctx: RequestContext): Response {
  return one(ctx, projectResource(hubProject(ctx, ctx.sandbox.dm.world), ctx.baseUrl));
}

function projectHub(_req: Request, ctx: RequestContext): Response {
  const world = ctx.sandbox.dm.world;
  const project = hubProject(ctx, world);
  return one(ctx, hubResource(world.hubs.get(project.hubId)!, ctx.baseUrl));
}

function topFolders(_req: Request, ctx: RequestContext): Response {
  const world = ctx.sandbox.dm.world;
  const project = hubProject(ctx, world);
  let folders = project.topFolderIds.map((id) => world.folders.get(id)!);
  // projectFilesOnly: only the folder tree holding project files (ACC/BIM 360 projects).
  if (ctx.url.searchParams.get("projectFilesOnly") === "true" && project.projectType) {
    folders = folders.filter((f) => f.name === "Project Files");
  }
  const data = folders.map((f) => folderResource(world, f, ctx.baseUrl));
  return jsonApi(200, document(ctx.url, ctx.baseUrl, data));
}

function getFolder(req: Request, ctx: RequestContext): Response {
  const world = ctx.sandbox.dm.world;
  const project = visibleProject(ctx, world);
  const folder = folderIn(ctx, world, project);
  const since = Date.parse(req.headers.get("if-modified-since") ?? "");
  if (!Number.isNaN(since) && Date.parse(folder.lastModifiedTime) <= since) {
    return new Response(null, {
      status: 304,
      headers: { "last-modified": new Date(folder.lastModifiedTime).toUTCString() },
    });
  }
  return one(ctx, folderResource(world, folder, ctx.baseUrl));
}

function folderParent(_req: Request, ctx: RequestContext): Response {
  const world = ctx.sandbox.dm.world;
  const project = visibleProject(ctx, world);
  const folder = folderIn(ctx, world, project);
  if (!folder.parentId) throw dmNotFound(`The folder ${folder.id} is the project's root folder.`);
  return one(ctx, folderResource(world, world.folders.get(folder.parentId)!, ctx.baseUrl));
}

function folderContents(_req: Request, ctx: RequestContext): Response {
  const world = ctx.sandbox.dm.world;
  const project = visibleProject(ctx, world);
  const folder = folderIn(ctx, world, project);
  checkTypeFilter(ctx, ["folders", "items"]);
  const all = folder.childIds.map((id) => childResource(world, id, ctx.baseUrl));
  // `included` holds the tip versions of the items on this page.
  return collection(ctx, all, (page) =>
    page.filter((r) => r.type === "items").map((r) => {
      const tip = world.items.get(r.id)!.versionIds.at(-1)!;
      return versionResource(world, world.versions.get(tip)!, ctx.baseUrl);
    }));
}

function withItem(
  ctx: RequestContext,
  answer: (world: DmWorld, item: DmItem) => Response,
): Response {
  const world = ctx.sandbox.dm.world;
  const project = visibleProject(ctx, world);
  return answer(world, itemIn(ctx, world, project));
}

/** The tip (newest) version of an item as a resource. */
export function tipOf(world: DmWorld, item: DmItem, base: string): Resource {
  return versionResource(world, world.versions.get(item.versionIds.at(-1)!)!, base);
}

function getItem(_req: Request, ctx: RequestContext): Response {
  return withItem(
    ctx,
    (world, item) => one(ctx, itemResource(world, item, ctx.baseUrl), [tipOf(world, item, ctx.baseUrl)]),
  );
}

function itemTip(_req: Request, ctx: RequestContext): Response {
  return withItem(ctx, (world, item) => one(ctx, tipOf(world, item, ctx.baseUrl)));
}

function itemParent(_req: Request, ctx: RequestContext): Response {
  return withItem(
    ctx,
    (world, item) => one(ctx, folderResource(world, world.folders.get(item.parentId)!, ctx.baseUrl)),
  );
}

function itemVersions(_req: Request, ctx: RequestContext): Response {
  return withItem(ctx, (world, item) => {
    checkTypeFilter(ctx, ["versions"]);
    // Newest first, as the platform lists them.
    const all = [...item.versionIds].reverse().map((id) =>
      versionResource(world, world.versions.get(id)!, ctx.baseUrl)
    );
    return collection(ctx, all);
  });
}

/** The version of the path's `versionId` in `project`; 404 otherwise. */
export function versionIn(ctx: RequestContext, world: DmWorld, project: DmProject): DmVersion {
  const version = world.versions.get(ctx.params.versionId);
  if (!version || version.projectId !== project.id) {
    throw dmNotFound(`The version ${ctx.params.versionId} does not exist in project ${project.id}.`);
  }
  return version;
}

function getVersion(_req: Request, ctx: RequestContext): Response {
  const world = ctx.sandbox.dm.world;
  const version = versionIn(ctx, world, visibleProject(ctx, world));
  return one(ctx, versionResource(world, version, ctx.baseUrl));
}

const HUB = "/project/v1/hubs/:hubId";
const PROJECT = `${HUB}/projects/:projectId`;
const DATA = "/data/v1/projects/:projectId";

/** Routes of data management reads, each needing `data:read` as the OpenAPI's `security` says. */
export const dmRoutes: readonly Route[] = [
  { method: "GET", pattern: "/project/v1/hubs", scopes: READ, handler: listHubs },
  { method: "GET", pattern: HUB, scopes: READ, handler: getHub },
  { method: "GET", pattern: `${HUB}/projects`, scopes: READ, handler: listProjects },
  { method: "GET", pattern: PROJECT, scopes: READ, handler: getProject },
  { method: "GET", pattern: `${PROJECT}/hub`, scopes: READ, handler: projectHub },
  { method: "GET", pattern: `${PROJECT}/topFolders`, scopes: READ, handler: topFolders },
  { method: "GET", pattern: `${DATA}/folders/:folderId`, scopes: READ, handler: getFolder },
  { method: "GET", pattern: `${DATA}/folders/:folderId/parent`, scopes: READ, handler: folderParent },
  { method: "GET", pattern: `${DATA}/folders/:folderId/contents`, scopes: READ, handler: folderContents },
  { method: "GET", pattern: `${DATA}/items/:itemId`, scopes: READ, handler: getItem },
  { method: "GET", pattern: `${DATA}/items/:itemId/tip`, scopes: READ, handler: itemTip },
  { method: "GET", pattern: `${DATA}/items/:itemId/parent`, scopes: READ, handler: itemParent },
  { method: "GET", pattern: `${DATA}/items/:itemId/versions`, scopes: READ, handler: itemVersions },
  { method: "GET", pattern: `${DATA}/versions/:versionId`, scopes: READ, handler: getVersion },
];
