/**
 * Checklists: the checklist instances and templates of a project's checklists
 * container, JSON:API documents paged by `page[limit]`/`page[offset]` with `links.next`. The
 * container of a project is the project's GUID. Reading is documented; creating an instance from
 * a template (POST) and changing one (PATCH) follow the same JSON:API conventions.
 */
import type { AccProjectId } from "../aps/ids.ts";
import type { Http, RequestSpec } from "./http.ts";
import { fetchPage, type PageResult, paginate } from "./pagination.ts";
import { segment } from "./path.ts";
import { DATA_CREATE, DATA_READ, DATA_WRITE } from "./acc_scopes.ts";

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

function container(project: AccProjectId): string {
  return `/bim360/checklists/v1/containers/${segment(project)}`;
}

/** The first page request of the instance list (pagination scheme "dm"). */
export function checklistsRequest(project: AccProjectId, filters: ChecklistFilters = {}): RequestSpec {
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
export function templatesRequest(project: AccProjectId): RequestSpec {
  return {
    path: `${container(project)}/templates`,
    query: { "page[limit]": CHECKLIST_PAGE },
    resource: "acc-project",
    scope: DATA_READ,
  };
}

/** Every checklist instance that passes the filters, following every page; `limit` stops early. */
export function listChecklists(
  http: Http,
  project: AccProjectId,
  opts: ChecklistFilters & { limit?: number } = {},
): AsyncGenerator<ChecklistResource> {
  return paginate<ChecklistResource>(http, checklistsRequest(project, opts), "dm", { limit: opts.limit });
}

/** One page of checklist instances for a caller that pages itself. */
export function checklistPage(
  http: Http,
  project: AccProjectId,
  opts: ChecklistFilters & { limit: number; cursor?: string },
): Promise<PageResult<ChecklistResource>> {
  return fetchPage<ChecklistResource>(http, checklistsRequest(project, opts), "dm", opts);
}

/** Every checklist template of the project, following every page. */
export function listChecklistTemplates(
  http: Http,
  project: AccProjectId,
  opts: { limit?: number } = {},
): AsyncGenerator<ChecklistResource> {
  return paginate<ChecklistResource>(http, templatesRequest(project), "dm", { limit: opts.limit });
}

interface Document {
  data: ChecklistResource;
  included?: unknown[];
}

function instanceSpec(project: AccProjectId, id: string): RequestSpec {
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
    ...instanceSpec(project, id),
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
    path: `${container(project)}/instances`,
    headers: { "content-type": "application/vnd.api+json" },
    json: { data: { type: "instances", attributes } },
    resource: "acc-project",
    scope: DATA_CREATE,
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
    ...instanceSpec(project, id),
    method: "PATCH",
    headers: { "content-type": "application/vnd.api+json" },
    json: { data: { type: "instances", id, attributes: changes } },
    scope: DATA_WRITE,
  });
  return res.data.data;
}
