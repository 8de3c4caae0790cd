/**
 * Data management (Project v1 / Data v1, datamanagement.yaml): hubs, projects, top folders, folder
 * contents, items and versions. Plain functions over an injected Http, which carries a 2-legged or
 * a 3-legged token as the caller chose; every operation here needs `data:read`. Ids come checked
 * (aps/ids.ts). A list answers one page from a cursor, or every page up to `limit` without one.
 */
import { segment } from "../../http/path.ts";
import type { DmProjectId, FolderId, HubId, ItemId, VersionId } from "../../aps/ids.ts";
import { DiazoError, isDiazoError, platformErrorCode } from "../../core/errors.ts";
import type { Http, RequestSpec } from "../../http/http.ts";
import { fetchPage, type PageResult } from "../../http/pagination.ts";
import { DATA_READ } from "../../aps/scope_constants.ts";

/** A JSON:API resource object as data management returns it. */
export interface DmResource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  links?: Record<string, unknown>;
}

/** The hub type of an ACC or BIM 360 account (datamanagement.yaml's hub `extension.type`). */
export const DM_ACCOUNT_HUB = "hubs:autodesk.bim360:Account";

/** `page[limit]` of list requests: the platform's maximum, so that a list takes the fewest requests. */
export const DM_PAGE_LIMIT = 200;

/** What a request was about, for the "Not found" message and its remedy. */
export interface DmTarget {
  what: string;
  hint: string;
}

const enc = segment;
const HUBS_HINT =
  "List the hubs your login can see with `diazo hub list`; personal (a.) hubs need a 3-legged login.";

function spec(path: string, what: string, paged: boolean, query: Record<string, string> = {}): RequestSpec {
  return {
    path,
    query: paged ? { "page[limit]": DM_PAGE_LIMIT, ...query } : query,
    scope: DATA_READ,
    resource: "generic",
    key: what,
  };
}

/** RequestSpec of the hubs list (not paged by the platform). */
export function hubsRequest(): RequestSpec {
  return spec("/project/v1/hubs", "hubs", false);
}

/** RequestSpec of a hub's projects (paged). */
export function projectsRequest(hub: HubId): RequestSpec {
  return spec(`/project/v1/hubs/${enc(hub)}/projects`, `projects of hub ${hub}`, true);
}

/** RequestSpec of a project's top folders (not paged by the platform). */
export function topFoldersRequest(hub: HubId, project: DmProjectId): RequestSpec {
  return spec(
    `/project/v1/hubs/${enc(hub)}/projects/${enc(project)}/topFolders`,
    `project ${project} in hub ${hub}`,
    false,
  );
}

/** RequestSpec of a folder's contents (paged); `type` filters to folders or items. */
export function folderContentsRequest(
  project: DmProjectId,
  folder: FolderId,
  opts: { type?: "folders" | "items" } = {},
): RequestSpec {
  return spec(
    `/data/v1/projects/${enc(project)}/folders/${enc(folder)}/contents`,
    `folder ${folder} in project ${project}`,
    true,
    opts.type ? { "filter[type]": opts.type } : {},
  );
}

/** RequestSpec of an item's versions, newest first (paged). */
export function itemVersionsRequest(project: DmProjectId, item: ItemId): RequestSpec {
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

/** Where a list starts and how much of it to fetch: every page up to `limit` without a cursor. */
export interface DmListOptions {
  limit?: number;
  cursor?: string;
  /** The remedy of a "Not found" answer, when the caller words it in its own terms. */
  hint?: string;
}

/** A page of a list and, for folder contents, the tip versions that came `included` with it. */
export interface DmPage extends PageResult<DmResource> {
  included: DmResource[];
}

/**
 * One page of a list from `cursor`, or (without a limit) every page. The JSON:API `included`
 * resources of each page fetched are kept, read from the answers as they pass.
 */
async function list(
  http: Http,
  request: RequestSpec,
  target: DmTarget,
  opts: DmListOptions,
): Promise<DmPage> {
  const included: DmResource[] = [];
  const seeing: Http = {
    baseUrl: http.baseUrl,
    async request<T>(spec: RequestSpec) {
      const res = await http.request<T>(spec);
      const more = (res.data as { included?: unknown } | undefined)?.included;
      if (Array.isArray(more)) included.push(...more as DmResource[]);
      return res;
    },
  };
  try {
    const page = await fetchPage<DmResource>(seeing, request, "dm", {
      cursor: opts.cursor,
      limit: opts.limit ?? Infinity,
    });
    return Object.assign(page, { included });
  } catch (e) {
    throw dmFailure(e, opts.hint === undefined ? target : { ...target, hint: opts.hint });
  }
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
      scope: DATA_READ,
      resource: "generic",
      key: target.what,
    });
    return res.data;
  } catch (e) {
    throw dmFailure(e, target);
  }
}

/** What a request about a folder was about, for its "Not found". */
export function folderTarget(project: string, folder: string): DmTarget {
  return {
    what: `folder ${folder} in project ${project}`,
    hint:
      `Check both ids: \`diazo folder list ${project} --hub <hub>\` lists the top folders, \`diazo project list <hub>\` the projects.`,
  };
}

/** What a request about an item was about, for its "Not found". */
export function itemTarget(project: string, item: string): DmTarget {
  return {
    what: `item ${item} in project ${project}`,
    hint:
      `Check both ids: \`diazo folder list ${project} <folder>\` lists a folder's items (their ids are urn:adsk.wipprod:dm.lineage:...).`,
  };
}

/** What a request about a version was about, for its "Not found". */
export function versionTarget(project: string, version: string): DmTarget {
  return {
    what: `version ${version} in project ${project}`,
    hint: "List an item's versions with `diazo item versions <project> <item>`.",
  };
}

function projectTarget(hub: string, project: string): DmTarget {
  return {
    what: `project ${project} in hub ${hub}`,
    hint:
      `List the projects with \`diazo project list ${hub}\`; data management project ids carry the b. prefix that construction-cloud ids lack.`,
  };
}

/** The hubs the token can see (a 2-legged token sees no personal hubs). */
export function listHubs(http: Http, opts: DmListOptions = {}): Promise<DmPage> {
  return list(http, hubsRequest(), { what: "hubs", hint: HUBS_HINT }, opts);
}

/** The projects of a hub. */
export function listProjects(http: Http, hub: HubId, opts: DmListOptions = {}): Promise<DmPage> {
  return list(http, projectsRequest(hub), { what: `hub ${hub}`, hint: HUBS_HINT }, opts);
}

/** The top folders of a project that the token may see. */
export function listTopFolders(
  http: Http,
  hub: HubId,
  project: DmProjectId,
  opts: DmListOptions = {},
): Promise<DmPage> {
  return list(http, topFoldersRequest(hub, project), projectTarget(hub, project), opts);
}

/** The folders and items in a folder (`type` filters); `included` holds the tip versions of its items. */
export function listFolderContents(
  http: Http,
  project: DmProjectId,
  folder: FolderId,
  opts: DmListOptions & { type?: "folders" | "items" } = {},
): Promise<DmPage> {
  const request = folderContentsRequest(project, folder, { type: opts.type });
  return list(http, request, folderTarget(project, folder), opts);
}

/** The versions of an item, newest first. */
export function listItemVersions(
  http: Http,
  project: DmProjectId,
  item: ItemId,
  opts: DmListOptions = {},
): Promise<DmPage> {
  return list(http, itemVersionsRequest(project, item), itemTarget(project, item), opts);
}

/** One hub. */
export async function getHub(http: Http, hub: HubId): Promise<DmResource> {
  return (await getDocument(http, `/project/v1/hubs/${enc(hub)}`, { what: `hub ${hub}`, hint: HUBS_HINT }))
    .data;
}

/** One project of a hub. */
export async function getProject(http: Http, hub: HubId, project: DmProjectId): Promise<DmResource> {
  const path = `/project/v1/hubs/${enc(hub)}/projects/${enc(project)}`;
  return (await getDocument(http, path, projectTarget(hub, project))).data;
}

/** One folder of a project. */
export async function getFolder(http: Http, project: DmProjectId, folder: FolderId): Promise<DmResource> {
  const path = `/data/v1/projects/${enc(project)}/folders/${enc(folder)}`;
  return (await getDocument(http, path, folderTarget(project, folder))).data;
}

/** One item and its tip version (which the platform includes with it). */
export async function getItemWithTip(
  http: Http,
  project: DmProjectId,
  item: ItemId,
): Promise<{ item: DmResource; tip?: DmResource }> {
  const doc = await getDocument(
    http,
    `/data/v1/projects/${enc(project)}/items/${enc(item)}`,
    itemTarget(project, item),
  );
  return { item: doc.data, tip: doc.included?.find((r) => r.type === "versions") };
}

/** One item (a file's lineage). */
export async function getItem(http: Http, project: DmProjectId, item: ItemId): Promise<DmResource> {
  return (await getItemWithTip(http, project, item)).item;
}

/** One version of an item. */
export async function getVersion(http: Http, project: DmProjectId, version: VersionId): Promise<DmResource> {
  const path = `/data/v1/projects/${enc(project)}/versions/${enc(version)}`;
  return (await getDocument(http, path, versionTarget(project, version))).data;
}

/** The download jobs of a version (derivative formats the platform prepared for download). */
export function listVersionDownloads(
  http: Http,
  project: DmProjectId,
  version: VersionId,
  opts: DmListOptions = {},
): Promise<DmPage> {
  const path = `/data/v1/projects/${enc(project)}/versions/${enc(version)}/downloads`;
  return list(
    http,
    spec(path, `version ${version} in project ${project}`, false),
    versionTarget(project, version),
    opts,
  );
}
