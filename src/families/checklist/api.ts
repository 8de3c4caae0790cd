/**
 * Checklists: the checklist instances and templates of a BIM 360 project's checklists
 * container, JSON:API documents paged by `page[limit]`/`page[offset]` with `links.next`. The
 * container id is the data-management project's `relationships.checklists` (it can differ from the
 * project's GUID on older BIM 360 projects); ACC projects have none, as the reference pages listed in
 * tests/contract/undocumented.ts say. Reading is documented; creating an instance from a template
 * (POST) and changing one (PATCH) follow the same JSON:API conventions.
 */
import type { AccProjectId, DmProjectId, HubId } from "../../aps/ids.ts";
import { DiazoError, isDiazoError } from "../../core/errors.ts";
import { fieldError } from "../../core/field_error.ts";
import { DM_ACCOUNT_HUB, getProject, listHubs } from "../dm/api.ts";
import type { Http, RequestSpec } from "../../http/http.ts";
import { fetchPage, type PageResult, paginate } from "../../http/pagination.ts";
import { segment } from "../../http/path.ts";
import { DATA_READ, DATA_WRITE, DATA_WRITE_CREATE } from "../../aps/scope_constants.ts";

/** Page size of checklist lists. */
const CHECKLIST_PAGE = 50;

/** A checklist instance or template: a JSON:API resource. */
export interface ChecklistResource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  /** On a single instance: its sections, items and attachments. */
  included?: unknown[];
}

/** Filters of the instance list. */
export interface ChecklistFilters {
  statusId?: string[];
  templateTypeId?: string[];
}

/** A project's checklists container id, as its data-management project names it. */
export type ContainerId = string & { readonly container: unique symbol };

/**
 * The checklists container of a project: `relationships.checklists` of its data-management project,
 * found in the account hubs the user sees. An ACC project is a usage error (exit 2): the BIM 360
 * checklists API does not serve it. A project in no hub is "Project not found".
 */
export async function checklistContainer(http: Http, project: AccProjectId): Promise<ContainerId> {
  const hubs = (await listHubs(http)).items.filter((h) =>
    h.attributes.extension &&
    (h.attributes.extension as { type?: string }).type === DM_ACCOUNT_HUB
  );
  for (const hub of hubs) {
    let found;
    try {
      found = await getProject(http, hub.id as HubId, `b.${project}` as DmProjectId);
    } catch (e) {
      if (isDiazoError(e) && e.status === 404) continue;
      throw e;
    }
    const data = (found.attributes.extension as { data?: { projectType?: string } } | undefined)?.data;
    if (data?.projectType === "ACC") {
      throw fieldError({
        field: "project_id",
        problem:
          `project ${project} is an ACC project; the BIM 360 checklists API does not serve ACC projects`,
        help: "Open the project's checklists in Autodesk Build; {step} works on BIM 360 projects.",
        next: { command: "diazo acc checklist", tool: "checklist_list" },
      });
    }
    const rel = (found.relationships?.checklists as { data?: { id?: string } } | undefined)?.data?.id;
    return (rel ?? project) as ContainerId;
  }
  throw new DiazoError("project_not_found", { status: 404 });
}

function container(id: ContainerId): string {
  return `/bim360/checklists/v1/containers/${segment(id)}`;
}

/** The first page request of the instance list (pagination scheme "dm"). */
export function checklistsRequest(project: ContainerId, filters: ChecklistFilters = {}): RequestSpec {
  return {
    path: `${container(project)}/instances`,
    query: {
      "page[limit]": CHECKLIST_PAGE,
      "filter[statusId]": filters.statusId?.join(","),
      "filter[templateTypeId]": filters.templateTypeId?.join(","),
    },
    resource: "acc-project",
    scope: DATA_READ,
  };
}

/** The first page request of the template list (pagination scheme "dm"). */
export function templatesRequest(project: ContainerId): RequestSpec {
  return {
    path: `${container(project)}/templates`,
    query: { "page[limit]": CHECKLIST_PAGE },
    resource: "acc-project",
    scope: DATA_READ,
  };
}

/** Every checklist instance that passes the filters, following every page; `limit` stops early. */
export async function* listChecklists(
  http: Http,
  project: AccProjectId,
  opts: ChecklistFilters & { limit?: number } = {},
): AsyncGenerator<ChecklistResource> {
  const request = checklistsRequest(await checklistContainer(http, project), opts);
  yield* paginate<ChecklistResource>(http, request, "dm", { limit: opts.limit });
}

/** One page of checklist instances for a caller that pages itself. */
export async function checklistPage(
  http: Http,
  project: AccProjectId,
  opts: ChecklistFilters & { limit: number; cursor?: string },
): Promise<PageResult<ChecklistResource>> {
  const request = checklistsRequest(await checklistContainer(http, project), opts);
  return await fetchPage<ChecklistResource>(http, request, "dm", opts);
}

/** Every checklist template of the project, following every page. */
export async function* listChecklistTemplates(
  http: Http,
  project: AccProjectId,
  opts: { limit?: number } = {},
): AsyncGenerator<ChecklistResource> {
  const request = templatesRequest(await checklistContainer(http, project));
  yield* paginate<ChecklistResource>(http, request, "dm", { limit: opts.limit });
}

interface Document {
  data: ChecklistResource;
  included?: unknown[];
}

function instanceSpec(project: ContainerId, id: string): RequestSpec {
  return {
    path: `${container(project)}/instances/${segment(id)}`,
    resource: "acc-record",
    key: `checklist ${id}`,
    scope: DATA_READ,
  };
}

/** One checklist with its sections and items (`included`). */
export async function getChecklist(
  http: Http,
  project: AccProjectId,
  id: string,
): Promise<ChecklistResource> {
  const res = await http.request<Document>({
    ...instanceSpec(await checklistContainer(http, project), id),
    query: { include: "sections,items" },
  });
  return { ...res.data.data, included: res.data.included ?? [] };
}

/** Creates a checklist from a template (`templateId` and `title` among the attributes). */
export async function createChecklist(
  http: Http,
  project: AccProjectId,
  attributes: Record<string, unknown>,
): Promise<ChecklistResource> {
  const res = await http.request<Document>({
    method: "POST",
    path: `${container(await checklistContainer(http, project))}/instances`,
    headers: { "content-type": "application/vnd.api+json" },
    json: { data: { type: "instances", attributes } },
    resource: "acc-project",
    scope: DATA_WRITE_CREATE,
  });
  return res.data.data;
}

/** Changes a checklist: `changes` holds only the attributes to change. */
export async function updateChecklist(
  http: Http,
  project: AccProjectId,
  id: string,
  changes: Record<string, unknown>,
): Promise<ChecklistResource> {
  const res = await http.request<Document>({
    ...instanceSpec(await checklistContainer(http, project), id),
    method: "PATCH",
    headers: { "content-type": "application/vnd.api+json" },
    json: { data: { type: "instances", id, attributes: changes } },
    scope: DATA_WRITE,
  });
  return res.data.data;
}
