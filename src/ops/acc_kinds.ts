/**
 * The record kinds of `diazo acc asset|submittal|checklist ...`: each service's calls, the fields
 * its bodies take, and what a person scans in its tables.
 */
import {
  type Asset,
  type AssetFilters,
  assetPage,
  createAsset,
  getAsset,
  listAssets,
  listAssetStatuses,
  updateAsset,
} from "../services/assets.ts";
import {
  type ChecklistFilters,
  checklistPage,
  type ChecklistResource,
  createChecklist,
  getChecklist,
  listChecklists,
  listChecklistTemplates,
  updateChecklist,
} from "../services/checklists.ts";
import {
  createSubmittal,
  getSubmittal,
  listSubmittals,
  type SubmittalFilters,
  type SubmittalItem,
  submittalPage,
  updateSubmittal,
} from "../services/submittals.ts";
import type { AccProjectId } from "../aps/ids.ts";
import type { Http } from "../services/http.ts";
import { mapPage } from "./list.ts";
import type { RecordKind, ScanRow } from "./acc_build.ts";
import type { OpsDeps } from "./deps.ts";

export type { Asset, AssetFilters, ChecklistFilters, ChecklistResource, SubmittalFilters, SubmittalItem };

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

/** Submittal items: a state change is a transition, other fields a patch. */
export const SUBMITTAL_KIND: RecordKind<SubmittalItem, SubmittalFilters> = {
  noun: "submittal",
  shape: {
    typeId: "string",
    specId: "string",
    title: "string",
    stateId: "string",
    description: "string",
    priority: "string",
    dueDate: "date",
    requiredOnJobDate: "date",
    packageId: "string",
    customIdentifier: "string",
    manager: "string",
    managerType: "string",
    subcontractor: "string",
    subcontractorType: "string",
    watchers: "array",
  },
  required: ["typeId", "specId", "title", "stateId"],
  columns: ["id", "identifier", "title", "status", "assignee", "dueDate"],
  list: listSubmittals,
  page: submittalPage,
  get: getSubmittal,
  create: createSubmittal,
  update: updateSubmittal,
  values: (s) => s,
  moves: (s) => {
    const actions = s.permittedActions as { transitions?: { stateTo?: { id?: string } }[] }[] | undefined;
    if (!Array.isArray(actions)) return undefined;
    const allowed = actions.flatMap((a) => a.transitions ?? []).map((t) => String(t.stateTo?.id));
    return { field: "stateId", from: s.stateId, allowed };
  },
  row: (s) => ({
    id: s.id,
    identifier: s.identifier,
    title: s.title,
    status: s.stateId,
    assignee: Array.isArray(s.ballInCourtUsers) ? s.ballInCourtUsers.join(",") : "",
    dueDate: s.dueDate ?? "",
  }),
};

function checklistRow(c: ChecklistResource): ScanRow {
  const a = c.attributes;
  return {
    id: c.id,
    title: a.title,
    status: a.status,
    assignee: a.assigneeId ?? "",
    dueDate: a.dueDate ?? "",
    template: a.templateId,
  };
}

/** Checklist instances: JSON:API resources whose attributes are the body fields. */
export const CHECKLIST_KIND: RecordKind<ChecklistResource, ChecklistFilters> = {
  noun: "checklist",
  shape: {
    templateId: "string",
    title: "string",
    description: "string",
    status: "string",
    assigneeId: "string",
    assigneeType: "string",
    dueDate: "date",
    scheduledDate: "date",
    location: "string",
  },
  required: ["templateId", "title"],
  columns: ["id", "title", "status", "assignee", "dueDate", "template"],
  list: listChecklists,
  page: checklistPage,
  get: getChecklist,
  create: createChecklist,
  update: updateChecklist,
  values: (c) => c.attributes,
  row: checklistRow,
};

/** Columns of the template table. */
export const TEMPLATE_COLUMNS = ["id", "title", "templateType", "sections", "items"];

/** `acc checklist templates`: every checklist template of the project, up to `limit`. */
export async function runChecklistTemplates(
  opts: { project: AccProjectId; limit?: number },
  deps: OpsDeps,
): Promise<ChecklistResource[]> {
  const http = await deps.http({ mode: "3-legged" });
  const out: ChecklistResource[] = [];
  for await (const t of listChecklistTemplates(http, opts.project, opts)) out.push(t);
  return out;
}

/** A template as a table row. */
export function templateRow(t: ChecklistResource): ScanRow {
  const a = t.attributes;
  return {
    id: t.id,
    title: a.title,
    templateType: a.templateTypeName,
    sections: a.sectionCount,
    items: a.itemCount,
  };
}
