/**
 * Data management (Project v1 / Data v1, datamanagement.yaml): hubs, projects, top folders, folder
 * contents, items and versions. Plain functions over an injected Http, which carries a 2-legged or
 * a 3-legged token as the caller chose; every operation here needs `data:read`.
 */
import { dmFolderId, dmHubId, dmItemId, dmProjectId, dmVersionId } from "../aps/dm_ids.ts";
import { DiazoError, isDiazoError, platformErrorCode } from "../core/errors.ts";
import type { Http, RequestSpec } from "./http.ts";
import { paginate } from "./pagination.ts";

/** A JSON:API resource object as data management returns it. */
export interface DmResource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  links?: Record<string, unknown>;
}

/** `page[limit]` of list requests: the platform's maximum, so that a list takes the fewest requests. */
export const DM_PAGE_LIMIT = 200;

/** The scope of every read here. */
export const DM_READ_SCOPE = "data:read";

/** What a failing request was about: the "Not found: ..." text and its remedy. */
/** What a request was about, for the "Not found" message and its remedy. */
export interface DmTarget {
  what: string;
  hint: string;
}

const enc = encodeURIComponent;
const HUBS_HINT =
  "List the hubs your login can see with `diazo hub list`; personal (a.) hubs need a 3-legged login.";

function spec(path: string, what: string, paged: boolean, query: Record<string, string> = {}): RequestSpec {
  return {
    path,
    query: paged ? { "page[limit]": DM_PAGE_LIMIT, ...query } : query,
    scope: DM_READ_SCOPE,
    resource: "generic",
    key: what,
  };
}

/** RequestSpec of the hubs list (not paged by the platform). */
export function hubsRequest(): RequestSpec {
  return spec("/project/v1/hubs", "hubs", false);
}

/** RequestSpec of a hub's projects (paged). */
export function projectsRequest(hubId: string): RequestSpec {
  const hub = dmHubId(hubId);
  return spec(`/project/v1/hubs/${enc(hub)}/projects`, `projects of hub ${hub}`, true);
}

/** RequestSpec of a project's top folders (not paged by the platform). */
export function topFoldersRequest(hubId: string, projectId: string): RequestSpec {
  const hub = dmHubId(hubId);
  const project = dmProjectId(projectId);
  return spec(
    `/project/v1/hubs/${enc(hub)}/projects/${enc(project)}/topFolders`,
    `project ${project} in hub ${hub}`,
    false,
  );
}

/** RequestSpec of a folder's contents (paged); `type` filters to folders or items. */
export function folderContentsRequest(
  projectId: string,
  folderId: string,
  opts: { type?: "folders" | "items" } = {},
): RequestSpec {
  const project = dmProjectId(projectId);
  const folder = dmFolderId(folderId);
  return spec(
    `/data/v1/projects/${enc(project)}/folders/${enc(folder)}/contents`,
    `folder ${folder} in project ${project}`,
    true,
    opts.type ? { "filter[type]": opts.type } : {},
  );
}

/** RequestSpec of an item's versions, newest first (paged). */
export function itemVersionsRequest(projectId: string, itemId: string): RequestSpec {
  const project = dmProjectId(projectId);
  const item = dmItemId(itemId);
  return spec(
    `/data/v1/projects/${enc(project)}/items/${enc(item)}/versions`,
    `item ${item} in project ${project}`,
    true,
  );
}

/**
 * The catalog error for a data management failure: 404 names what was asked for with a remedy,
 * and a personal hub's 403 for an app token asks for a 3-legged login. Others pass unchanged.
 */
export function dmFailure(e: unknown, target: DmTarget): unknown {
  if (!isDiazoError(e)) return e;
  const base = { status: e.status, body: e.body, cause: e };
  if (e.status === 404) return new DiazoError("dm_not_found", { ...base, params: { ...target } });
  if (e.status === 403 && platformErrorCode(e.body) === "USER_NOT_AUTHENTICATED") {
    return new DiazoError("three_legged_required", base);
  }
  return e;
}

async function* mapped<T>(items: AsyncGenerator<T>, target: DmTarget): AsyncGenerator<T> {
  try {
    yield* items;
  } catch (e) {
    throw dmFailure(e, target);
  }
}

function list(
  http: Http,
  request: RequestSpec,
  target: DmTarget,
  opts: { limit?: number; onPage?: (page: Record<string, unknown>) => void },
): AsyncGenerator<DmResource> {
  return mapped(paginate<DmResource>(http, request, "dm", opts), target);
}

/** A JSON:API document: the resource and what came `included` with it. */
interface DmDocument {
  data: DmResource;
  included?: DmResource[];
}

async function getDocument(http: Http, path: string, target: DmTarget): Promise<DmDocument> {
  try {
    const res = await http.request<DmDocument>({
      path,
      scope: DM_READ_SCOPE,
      resource: "generic",
      key: target.what,
    });
    return res.data;
  } catch (e) {
    throw dmFailure(e, target);
  }
}

function projectTarget(hub: string, project: string): DmTarget {
  return {
    what: `project ${project} in hub ${hub}`,
    hint:
      `List the projects with \`diazo project list ${hub}\`; data management project ids carry the b. prefix that construction-cloud ids lack.`,
  };
}

function folderTarget(project: string, folder: string): DmTarget {
  return {
    what: `folder ${folder} in project ${project}`,
    hint:
      `Check both ids: \`diazo folder list ${project} --hub <hub>\` lists the top folders, \`diazo project list <hub>\` the projects.`,
  };
}

function itemTarget(project: string, item: string): DmTarget {
  return {
    what: `item ${item} in project ${project}`,
    hint:
      `Check both ids: \`diazo folder list ${project} <folder>\` lists a folder's items (their ids are urn:adsk.wipprod:dm.lineage:...).`,
  };
}

/** Every hub the token can see (a 2-legged token sees no personal hubs); `limit` stops early. */
export function listHubs(http: Http, opts: { limit?: number } = {}): AsyncGenerator<DmResource> {
  return list(http, hubsRequest(), { what: "hubs", hint: HUBS_HINT }, opts);
}

/** Every project of a hub, following every page; `limit` stops early. */
export function listProjects(
  http: Http,
  hubId: string,
  opts: { limit?: number } = {},
): AsyncGenerator<DmResource> {
  const request = projectsRequest(hubId);
  return list(http, request, { what: `hub ${dmHubId(hubId)}`, hint: HUBS_HINT }, opts);
}

/** The top folders of a project that the token may see; `limit` stops early. */
export function listTopFolders(
  http: Http,
  hubId: string,
  projectId: string,
  opts: { limit?: number } = {},
): AsyncGenerator<DmResource> {
  const request = topFoldersRequest(hubId, projectId);
  return list(http, request, projectTarget(dmHubId(hubId), dmProjectId(projectId)), opts);
}

/**
 * Every folder and item in a folder, following every page; `limit` stops early, `type` filters,
 * and `onIncluded` receives each page's `included` tip versions of its items.
 */
export function listFolderContents(
  http: Http,
  projectId: string,
  folderId: string,
  opts: { limit?: number; type?: "folders" | "items"; onIncluded?: (versions: DmResource[]) => void } = {},
): AsyncGenerator<DmResource> {
  const request = folderContentsRequest(projectId, folderId, { type: opts.type });
  const onIncluded = opts.onIncluded;
  return list(http, request, folderTarget(dmProjectId(projectId), dmFolderId(folderId)), {
    limit: opts.limit,
    onPage: onIncluded
      ? (page) => onIncluded(Array.isArray(page.included) ? page.included as DmResource[] : [])
      : undefined,
  });
}

/** Every version of an item, newest first, following every page; `limit` stops early. */
export function listItemVersions(
  http: Http,
  projectId: string,
  itemId: string,
  opts: { limit?: number } = {},
): AsyncGenerator<DmResource> {
  const request = itemVersionsRequest(projectId, itemId);
  return list(http, request, itemTarget(dmProjectId(projectId), dmItemId(itemId)), opts);
}

/** One hub. */
export async function getHub(http: Http, hubId: string): Promise<DmResource> {
  const hub = dmHubId(hubId);
  return (await getDocument(http, `/project/v1/hubs/${enc(hub)}`, { what: `hub ${hub}`, hint: HUBS_HINT }))
    .data;
}

/** One project of a hub. */
export async function getProject(http: Http, hubId: string, projectId: string): Promise<DmResource> {
  const hub = dmHubId(hubId);
  const project = dmProjectId(projectId);
  const path = `/project/v1/hubs/${enc(hub)}/projects/${enc(project)}`;
  return (await getDocument(http, path, projectTarget(hub, project))).data;
}

/** One folder of a project. */
export async function getFolder(http: Http, projectId: string, folderId: string): Promise<DmResource> {
  const project = dmProjectId(projectId);
  const folder = dmFolderId(folderId);
  const path = `/data/v1/projects/${enc(project)}/folders/${enc(folder)}`;
  return (await getDocument(http, path, folderTarget(project, folder))).data;
}

/** One item and its tip version (which the platform includes with it). */
export async function getItemWithTip(
  http: Http,
  projectId: string,
  itemId: string,
): Promise<{ item: DmResource; tip?: DmResource }> {
  const project = dmProjectId(projectId);
  const item = dmItemId(itemId);
  const doc = await getDocument(
    http,
    `/data/v1/projects/${enc(project)}/items/${enc(item)}`,
    itemTarget(project, item),
  );
  return { item: doc.data, tip: doc.included?.find((r) => r.type === "versions") };
}

/** One item (a file's lineage). */
export async function getItem(http: Http, projectId: string, itemId: string): Promise<DmResource> {
  return (await getItemWithTip(http, projectId, itemId)).item;
}

/** One version of an item. */
export async function getVersion(http: Http, projectId: string, versionId: string): Promise<DmResource> {
  const project = dmProjectId(projectId);
  const version = dmVersionId(versionId);
  const path = `/data/v1/projects/${enc(project)}/versions/${enc(version)}`;
  return (await getDocument(http, path, {
    what: `version ${version} in project ${project}`,
    hint: "List an item's versions with `diazo item versions <project> <item>`.",
  })).data;
}
