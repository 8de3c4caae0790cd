/** The submittal record kind (`diazo acc submittal ...`): Submittals v2 behind the record verbs of families/acc/records.ts. */
import {
  createSubmittal,
  getSubmittal,
  listSubmittals,
  type SubmittalFilters,
  type SubmittalItem,
  submittalPage,
  updateSubmittal,
} from "./api.ts";
import type { RecordKind } from "../acc/records.ts";

export type { SubmittalFilters, SubmittalItem };

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
