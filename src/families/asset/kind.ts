/** The asset record kind (`diazo acc asset ...`): Assets v2 behind the record verbs of families/acc/records.ts. */
import type { AccProjectId } from "../../aps/ids.ts";
import {
  type Asset,
  type AssetFilters,
  assetPage,
  createAsset,
  getAsset,
  listAssets,
  listAssetStatuses,
  updateAsset,
} from "./api.ts";
import type { Http } from "../../http/http.ts";
import { mapPage } from "../../http/list.ts";
import type { RecordKind } from "../acc/records.ts";

export type { Asset, AssetFilters };

/** The label of each asset status of the project, by id. */
async function statusLabels(http: Http, project: AccProjectId): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  for await (const s of listAssetStatuses(http, project)) labels.set(s.id, s.label);
  return labels;
}

/** Assets with `statusLabel`, a helper beside the platform's `statusId` (the label a person reads). */
async function* labelledAssets(
  http: Http,
  project: AccProjectId,
  opts: AssetFilters & { limit?: number },
): AsyncGenerator<Asset> {
  const labels = await statusLabels(http, project);
  for await (const a of listAssets(http, project, opts)) yield { ...a, statusLabel: labels.get(a.statusId) };
}

/** Assets: listed by cursor, read/created/patched through the batch endpoints. */
export const ASSET_KIND: RecordKind<Asset, AssetFilters> = {
  noun: "asset",
  shape: {
    clientAssetId: "string",
    categoryId: "string",
    statusId: "string",
    description: "string",
    locationId: "string",
    barcode: "string",
    customAttributes: "object",
  },
  required: ["clientAssetId", "categoryId", "statusId"],
  columns: ["id", "title", "categoryId", "status", "barcode", "updatedAt"],
  list: labelledAssets,
  page: async (http, project, opts) => {
    const labels = await statusLabels(http, project);
    return mapPage(
      await assetPage(http, project, opts),
      (a) => ({ ...a, statusLabel: labels.get(a.statusId) }),
    );
  },
  get: getAsset,
  create: createAsset,
  update: updateAsset,
  values: (a) => a,
  row: (a) => ({
    id: a.id,
    title: a.clientAssetId,
    categoryId: a.categoryId,
    status: a.statusLabel ?? a.statusId,
    barcode: a.barcode ?? "",
    updatedAt: a.updatedAt,
  }),
};
