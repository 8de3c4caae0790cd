/**
 * Assets v2: list (cursor paged), get, create and update the assets of a
 * construction-cloud project, and the project's categories and statuses (settings v1). The
 * platform has no single-asset GET or PATCH: one asset is read with `assets:batch-get`, created with
 * `assets:batch-create` (a top-level array) and changed with `assets:batch-patch` (keyed by id).
 */
import type { AccProjectId } from "../../aps/ids.ts";
import type { Http, RequestSpec } from "../../http/http.ts";
import { fetchPage, type PageResult, paginate } from "../../http/pagination.ts";
import { segment } from "../../http/path.ts";
import { DATA_READ, DATA_WRITE_CREATE } from "../../aps/scope_constants.ts";

/** Page size of the asset list (the platform allows up to 200; smaller pages answer sooner). */
const ASSET_PAGE = 50;

/** An asset with the platform's field names. */
export interface Asset {
  id: string;
  clientAssetId: string;
  categoryId: string;
  statusId: string;
  description?: string | null;
  [field: string]: unknown;
}

/** Filters of the asset list. */
export interface AssetFilters {
  categoryId?: string[];
  statusId?: string[];
  search?: string;
}

function v2(project: AccProjectId): string {
  return `/construction/assets/v2/projects/${segment(project)}`;
}

/** The first page request of the asset list (pagination scheme "acc": `nextUrl` carries the cursor). */
export function assetsRequest(project: AccProjectId, filters: AssetFilters = {}): RequestSpec {
  return {
    path: `${v2(project)}/assets`,
    query: {
      limit: ASSET_PAGE,
      "filter[categoryId]": filters.categoryId?.join(","),
      "filter[statusId]": filters.statusId?.join(","),
      "filter[searchText]": filters.search,
    },
    resource: "acc-project",
    scope: DATA_READ,
  };
}

/** Every asset that passes the filters, following every page; `limit` stops early. */
export function listAssets(
  http: Http,
  project: AccProjectId,
  opts: AssetFilters & { limit?: number } = {},
): AsyncGenerator<Asset> {
  return paginate<Asset>(http, assetsRequest(project, opts), "acc", { limit: opts.limit });
}

/** One page of assets for a caller that pages itself. */
export function assetPage(
  http: Http,
  project: AccProjectId,
  opts: AssetFilters & { limit: number; cursor?: string },
): Promise<PageResult<Asset>> {
  return fetchPage<Asset>(http, assetsRequest(project, opts), "acc", opts);
}

/** An asset status (settings v1): its id and the label a person reads. */
export interface AssetStatus {
  id: string;
  label: string;
  [field: string]: unknown;
}

/** Every asset status of the project (settings v1, cursor paged like the asset list). */
export function listAssetStatuses(http: Http, project: AccProjectId): AsyncGenerator<AssetStatus> {
  return paginate<AssetStatus>(http, {
    path: `/construction/assets/v1/projects/${segment(project)}/asset-statuses`,
    query: { limit: ASSET_PAGE },
    resource: "acc-project",
    scope: DATA_READ,
  }, "acc");
}

/** One asset, read through `assets:batch-get`; an unknown id is the platform's silence, told as 404 here. */
export async function getAsset(http: Http, project: AccProjectId, id: string): Promise<Asset | undefined> {
  const res = await http.request<{ results?: Asset[] }>({
    method: "POST",
    path: `${v2(project)}/assets:batch-get`,
    json: { ids: [id] },
    retry: "always",
    resource: "acc-project",
    scope: DATA_READ,
  });
  return res.data?.results?.find((a) => a.id === id);
}

/** Creates one asset (`clientAssetId`, `categoryId` and `statusId` required). */
export async function createAsset(
  http: Http,
  project: AccProjectId,
  body: Record<string, unknown>,
): Promise<Asset> {
  const res = await http.request<{ results: Asset[] }>({
    method: "POST",
    path: `${v2(project)}/assets:batch-create`,
    json: [body],
    resource: "acc-project",
    scope: DATA_WRITE_CREATE,
  });
  return res.data.results[0];
}

/** Changes one asset: `changes` holds only the fields to change. */
export async function updateAsset(
  http: Http,
  project: AccProjectId,
  id: string,
  changes: Record<string, unknown>,
): Promise<Asset> {
  const res = await http.request<Record<string, Asset>>({
    method: "PATCH",
    path: `${v2(project)}/assets:batch-patch`,
    json: { [id]: changes },
    resource: "acc-record",
    key: `asset ${id}`,
    scope: DATA_WRITE_CREATE,
  });
  return res.data[id];
}
