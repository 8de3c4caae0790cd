/**
 * RFIs v3: search, get, create and update the RFIs of a construction-cloud
 * project, as the logged-in user. The list is `POST /search:rfis` paged by `limit`/`offset` in the
 * body, so it pages here rather than through `paginate()`. Project ids come checked (bare GUIDs).
 */
import type { AccProjectId } from "../../aps/ids.ts";
import type { Http, RequestSpec } from "../../http/http.ts";
import type { PageResult } from "../../http/pagination.ts";
import { segment } from "../../http/path.ts";
import { DATA_READ, DATA_WRITE, DATA_WRITE_CREATE } from "../../aps/scope_constants.ts";

/** Page size of the RFI search (the platform allows up to 200; smaller pages answer sooner). */
const RFI_PAGE = 50;

/** An RFI with the platform's field names. */
export interface Rfi {
  id: string;
  title: string;
  status: string;
  customIdentifier?: string;
  question?: string | null;
  assignedTo?: { id: string; type: string }[];
  dueDate?: string | null;
  priority?: string | null;
  [field: string]: unknown;
}

/** Filters of the RFI search (the body's `filter` and `search`). */
export interface RfiFilters {
  status?: string[];
  assignedTo?: string[];
  search?: string;
  /** Only RFIs due before this date (YYYY-MM-DD), as `issue list --due-before`. */
  dueBefore?: string;
}

/** The day before `date` (YYYY-MM-DD): the platform's date range `..to` includes `to`. */
function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

function base(project: AccProjectId): string {
  return `/construction/rfis/v3/projects/${segment(project)}`;
}

function searchSpec(project: AccProjectId, filters: RfiFilters, offset: number, limit: number): RequestSpec {
  const filter: Record<string, unknown> = {};
  if (filters.status?.length) filter.status = filters.status;
  if (filters.assignedTo?.length) filter.assignedTo = filters.assignedTo;
  if (filters.dueBefore) filter.dueDate = `..${dayBefore(filters.dueBefore)}`;
  return {
    method: "POST",
    path: `${base(project)}/search:rfis`,
    json: {
      limit,
      offset,
      ...(filters.search ? { search: filters.search } : {}),
      ...(Object.keys(filter).length ? { filter } : {}),
      sort: [{ field: "createdAt", order: "ASC" }],
    },
    retry: "always",
    resource: "acc-project",
    scope: DATA_READ,
  };
}

interface SearchPage {
  results?: Rfi[];
  pagination?: { limit?: number; offset?: number; totalResults?: number };
}

/** Every RFI that passes the filters, in creation order, following every page; `limit` stops early. */
export async function* searchRfis(
  http: Http,
  project: AccProjectId,
  opts: RfiFilters & { limit?: number; offset?: number; onTotal?: (total: number) => void } = {},
): AsyncGenerator<Rfi> {
  if (opts.limit !== undefined && opts.limit <= 0) return;
  let count = 0;
  for (let offset = opts.offset ?? 0;;) {
    const size = Math.min(RFI_PAGE, opts.limit === undefined ? RFI_PAGE : opts.limit - count);
    const res = await http.request<SearchPage>(searchSpec(project, opts, offset, size));
    const results = Array.isArray(res.data?.results) ? res.data.results : [];
    const total = Number(res.data?.pagination?.totalResults);
    if (Number.isInteger(total) && total >= 0) opts.onTotal?.(total);
    for (const rfi of results) {
      yield rfi;
      if (opts.limit !== undefined && ++count >= opts.limit) return;
    }
    offset += results.length;
    if (results.length === 0 || !(offset < total)) return;
  }
}

/** One page of RFIs for a caller that pages itself; the cursor is the offset of the next RFI. */
export async function searchRfiPage(
  http: Http,
  project: AccProjectId,
  opts: RfiFilters & { limit: number; cursor?: string },
): Promise<PageResult<Rfi>> {
  const offset = opts.cursor === undefined ? 0 : Number(opts.cursor);
  if (!Number.isInteger(offset) || offset < 0 || opts.cursor === "") {
    // Loaded for the error alone: the RFI list pages itself and needs nothing else of pagination.ts.
    throw (await import("../../http/pagination.ts")).invalidCursor();
  }
  const items: Rfi[] = [];
  let total: number | undefined;
  const onTotal = (n: number) => (total ??= n);
  for await (const rfi of searchRfis(http, project, { ...opts, offset, limit: opts.limit + 1, onTotal })) {
    items.push(rfi);
  }
  const more = items.length > opts.limit;
  const kept = items.slice(0, opts.limit);
  return {
    items: kept,
    nextCursor: more ? String(offset + kept.length) : undefined,
    cursorAfter: (n) =>
      n >= kept.length ? (more ? String(offset + kept.length) : undefined) : String(offset + n),
    ...(total !== undefined ? { total } : {}),
  };
}

/** The caller in the project (`GET /users/me`): `user.id` is their Autodesk id. */
export async function getRfiMe(http: Http, project: AccProjectId): Promise<{ user: { id: string } }> {
  const res = await http.request<{ user: { id: string } }>({
    path: `${base(project)}/users/me`,
    resource: "acc-project",
    scope: DATA_READ,
  });
  return res.data;
}

/** One RFI (with its responses and permitted actions); 404 names the RFI. */
export async function getRfi(http: Http, project: AccProjectId, id: string): Promise<Rfi> {
  const res = await http.request<Rfi>({
    path: `${base(project)}/rfis/${segment(id)}`,
    resource: "acc-record",
    key: `RFI ${id}`,
    scope: DATA_READ,
  });
  return res.data;
}

/** Creates an RFI (`title` and `status` required by the platform). */
export async function createRfi(
  http: Http,
  project: AccProjectId,
  body: Record<string, unknown>,
): Promise<Rfi> {
  const res = await http.request<Rfi>({
    method: "POST",
    path: `${base(project)}/rfis`,
    json: body,
    resource: "acc-project",
    scope: DATA_WRITE_CREATE,
  });
  return res.data;
}

/** Changes an RFI: `changes` holds only the fields to change (a status must be a permitted move). */
export async function updateRfi(
  http: Http,
  project: AccProjectId,
  id: string,
  changes: Record<string, unknown>,
): Promise<Rfi> {
  const res = await http.request<Rfi>({
    method: "PATCH",
    path: `${base(project)}/rfis/${segment(id)}`,
    json: changes,
    resource: "acc-record",
    key: `RFI ${id}`,
    scope: DATA_WRITE,
  });
  return res.data;
}
