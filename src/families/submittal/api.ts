/**
 * Submittals v2: list, get, create and update the submittal items of an ACC
 * project. A change of state is the platform's `POST /items/{id}:transition`; other fields go in a
 * PATCH. Lists are paged by `limit`/`offset` (at most 50 a page) with `nextUrl`.
 */
import type { AccProjectId } from "../../aps/ids.ts";
import type { Http, RequestSpec } from "../../http/http.ts";
import { fetchPage, type PageResult, paginate } from "../../http/pagination.ts";
import { segment } from "../../http/path.ts";
import { DATA_READ, DATA_WRITE } from "../../aps/scope_constants.ts";

/** Page size of the item list (its maximum). */
const ITEM_PAGE = 50;

/** A submittal item with the platform's field names. */
export interface SubmittalItem {
  id: string;
  identifier?: number;
  title: string;
  stateId: string;
  statusId: string;
  dueDate?: string | null;
  [field: string]: unknown;
}

/** Filters of the item list. */
export interface SubmittalFilters {
  statusId?: string[];
  packageId?: string[];
  search?: string;
}

function base(project: AccProjectId): string {
  return `/construction/submittals/v2/projects/${segment(project)}`;
}

/** The first page request of the item list (pagination scheme "acc"). */
export function submittalsRequest(project: AccProjectId, filters: SubmittalFilters = {}): RequestSpec {
  return {
    path: `${base(project)}/items`,
    query: {
      limit: ITEM_PAGE,
      "filter[statusId]": filters.statusId?.join(","),
      "filter[packageId]": filters.packageId?.join(","),
      search: filters.search,
    },
    resource: "acc-project",
    scope: DATA_READ,
  };
}

/** Every item that passes the filters, following every page; `limit` stops early. */
export function listSubmittals(
  http: Http,
  project: AccProjectId,
  opts: SubmittalFilters & { limit?: number } = {},
): AsyncGenerator<SubmittalItem> {
  return paginate<SubmittalItem>(http, submittalsRequest(project, opts), "acc", { limit: opts.limit });
}

/** One page of items for a caller that pages itself. */
export function submittalPage(
  http: Http,
  project: AccProjectId,
  opts: SubmittalFilters & { limit: number; cursor?: string },
): Promise<PageResult<SubmittalItem>> {
  return fetchPage<SubmittalItem>(http, submittalsRequest(project, opts), "acc", opts);
}

function itemSpec(project: AccProjectId, id: string, suffix = ""): RequestSpec {
  return {
    path: `${base(project)}/items/${segment(id)}${suffix}`,
    resource: "acc-record",
    key: `submittal ${id}`,
    scope: DATA_READ,
  };
}

/** One submittal item. */
export async function getSubmittal(http: Http, project: AccProjectId, id: string): Promise<SubmittalItem> {
  return (await http.request<SubmittalItem>(itemSpec(project, id))).data;
}

/** Creates a submittal item (`typeId`, `specId`, `title` and `stateId` required). */
export async function createSubmittal(
  http: Http,
  project: AccProjectId,
  body: Record<string, unknown>,
): Promise<SubmittalItem> {
  const res = await http.request<SubmittalItem>({
    method: "POST",
    path: `${base(project)}/items`,
    json: body,
    resource: "acc-project",
    scope: DATA_WRITE,
  });
  return res.data;
}

/** Changes an item: a `stateId` is sent as a transition, the other fields as a PATCH (each only when present). */
export async function updateSubmittal(
  http: Http,
  project: AccProjectId,
  id: string,
  changes: Record<string, unknown>,
): Promise<SubmittalItem> {
  const { stateId, ...fields } = changes;
  let item: SubmittalItem | undefined;
  if (stateId !== undefined) {
    // The transition's own suffix is part of the last segment (`{id}:transition`), so it is not encoded.
    const spec = itemSpec(project, id, ":transition");
    item =
      (await http.request<SubmittalItem>({ ...spec, method: "POST", json: { stateId }, scope: DATA_WRITE }))
        .data;
  }
  if (Object.keys(fields).length > 0 || item === undefined) {
    item = (await http.request<SubmittalItem>({
      ...itemSpec(project, id),
      method: "PATCH",
      json: fields,
      scope: DATA_WRITE,
    })).data;
  }
  return item;
}
