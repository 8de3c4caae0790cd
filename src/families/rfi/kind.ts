/** The RFI record kind (`diazo rfi ...`): RFIs v3 behind the record verbs of families/acc/records.ts. */
import type { BodyShape } from "../../session/body_file.ts";
import type { AccProjectId } from "../../aps/ids.ts";
import type { Http } from "../../http/http.ts";
import {
  createRfi,
  getRfi,
  getRfiMe,
  type Rfi,
  type RfiFilters,
  searchRfiPage,
  searchRfis,
  updateRfi,
} from "./api.ts";
import { type RecordKind, withMe } from "../acc/records.ts";

export type { Rfi, RfiFilters } from "./api.ts";

/** The fields of an RFI body (create and update). */
export const RFI_SHAPE: BodyShape = {
  title: "string",
  question: "string",
  status: "string",
  assignedTo: "array",
  dueDate: "date",
  priority: "string",
  suggestedAnswer: "string",
  locationDescription: "string",
  locations: "string[]",
  costImpact: "string",
  scheduleImpact: "string",
  discipline: "string[]",
  category: "string[]",
  reference: "string",
  coReviewers: "array",
  watchers: "array",
  customAttributes: "array",
  officialResponse: "string",
  officialResponseStatus: "string",
};

/** The ids of a list of `{id, type}` actors, comma-separated. */
function actorIds(actors: unknown): string {
  return Array.isArray(actors)
    ? actors.map((a) => (a as { id?: unknown })?.id).filter(Boolean).join(",")
    : "";
}

/** The filters with `me` among the assignees replaced by the caller's Autodesk id. */
function withRfiMe<F extends RfiFilters>(http: Http, project: AccProjectId, f: F): Promise<F> {
  return withMe(f, async () => (await getRfiMe(http, project)).user.id);
}

/** RFIs: searched (POST, body-paged), read, created and patched. */
export const RFI_KIND: RecordKind<Rfi, RfiFilters> = {
  noun: "RFI",
  shape: RFI_SHAPE,
  required: ["title", "status"],
  columns: ["id", "customIdentifier", "title", "status", "assignee", "dueDate"],
  list: async function* (http, project, opts) {
    yield* searchRfis(http, project, await withRfiMe(http, project, opts));
  },
  page: async (http, project, opts) => searchRfiPage(http, project, await withRfiMe(http, project, opts)),
  get: getRfi,
  create: createRfi,
  update: updateRfi,
  values: (r) => r,
  moves: (r) => {
    const permitted =
      (r.permittedActions as { updateRfi?: { permittedStatuses?: { wfUS?: { status: string }[] } } })
        ?.updateRfi?.permittedStatuses?.wfUS;
    return permitted && { field: "status", from: r.status, allowed: permitted.map((p) => p.status) };
  },
  row: (r) => ({
    id: r.id,
    customIdentifier: r.customIdentifier,
    title: r.title,
    status: r.status,
    assignee: actorIds(r.assignedTo),
    dueDate: r.dueDate ?? "",
  }),
};
