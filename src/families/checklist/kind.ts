/**
 * The checklist record kind (`diazo acc checklist ...`) behind the record verbs of families/acc/records.ts,
 * and `acc checklist templates`.
 */
import type { AccProjectId } from "../../aps/ids.ts";
import {
  type ChecklistFilters,
  checklistPage,
  type ChecklistResource,
  createChecklist,
  getChecklist,
  listChecklists,
  listChecklistTemplates,
  updateChecklist,
} from "./api.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { type RecordKind, type ScanRow, userHttp } from "../acc/records.ts";

export type { ChecklistFilters, ChecklistResource };

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
  const http = await userHttp(deps);
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
