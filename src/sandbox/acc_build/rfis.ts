/**
 * RFIs v3: `POST search:rfis` (body-paged, filters and text search), GET one RFI
 * with its permitted moves, POST to create (draft, submitted or open) and PATCH to change. A status
 * change must be one of the moves of the US workflow (aps/acc_build.ts) and leave the RFI with an
 * assignee unless it is void; a draft may be changed only by its creator.
 */
import { RFI_STATUSES, RFI_TRANSITIONS } from "../../aps/acc_build.ts";
import type { RequestContext } from "../context.ts";
import { adminError } from "../errors.ts";
import { json } from "../respond.ts";
import type { Route } from "../router.ts";
import { limitOffset } from "../admin/common.ts";
import { access, bad, body, checkDates, checkFields, checkMove, checkText, find } from "./common.ts";
import type { Rec } from "./store.ts";

const FIELDS = [
  "title",
  "question",
  "status",
  "assignedTo",
  "dueDate",
  "priority",
  "suggestedAnswer",
  "locationDescription",
  "locations",
  "costImpact",
  "scheduleImpact",
  "discipline",
  "category",
  "reference",
  "coReviewers",
  "watchers",
  "customAttributes",
];
const PATCH_FIELDS = [...FIELDS, "officialResponse", "officialResponseStatus", "returnForReviewerList"];
const CREATE_STATUSES = ["draft", "submitted", "open"];
const PRIORITIES = ["High", "Normal", "Low"];

/** The moves the caller may make from the RFI's status, as `permittedActions.updateRfi` lists them. */
function permittedActions(rfi: Rec) {
  const moves = RFI_TRANSITIONS[String(rfi.status)] ?? [];
  return {
    share: true,
    nudge: rfi.status !== "draft",
    updateRfi: {
      permittedStatuses: {
        wfUS: moves.map((status) => ({
          status,
          maxAssignees: 1,
          requiredAttributes: status === "void" ? [] : [{ name: "assignedTo", values: [] }],
          permittedAttributes: PATCH_FIELDS,
        })),
        wfEU: [],
      },
      permittedAttributes: PATCH_FIELDS,
      useCustomAttributes: false,
    },
    createComment: true,
    createResponse: rfi.status === "open",
  };
}

function asArray(v: unknown): unknown[] | undefined {
  if (v === undefined || v === null) return undefined;
  return Array.isArray(v) ? v : [v];
}

/** Whether `value` (a date or timestamp) is in `range`: one instant, `from..to`, `..to` or `from..`. */
function inRange(value: unknown, range: string): boolean {
  if (typeof value !== "string" || value === "") return false;
  const [from, to] = range.includes("..") ? range.split("..") : [range, range];
  const day = value.slice(0, 10);
  return (from === "" || day >= from.slice(0, 10)) && (to === "" || day <= to.slice(0, 10));
}

function matches(rfi: Rec, filter: Record<string, unknown>, search: string | undefined): boolean {
  const status = asArray(filter.status)?.map(String);
  if (status && !status.includes(String(rfi.status))) return false;
  const assigned = asArray(filter.assignedTo)?.map(String);
  if (assigned && !(rfi.assignedTo as { id: string }[]).some((a) => assigned.includes(a.id))) return false;
  if (filter.dueDate !== undefined && !inRange(rfi.dueDate, String(filter.dueDate))) return false;
  const ids = asArray(filter.id)?.map(String);
  if (ids && !ids.includes(rfi.id)) return false;
  if (search) {
    const text = `${rfi.title} ${rfi.question ?? ""} ${rfi.officialResponse ?? ""}`.toLowerCase();
    if (!text.includes(search.toLowerCase())) return false;
  }
  return true;
}

async function search(req: Request, ctx: RequestContext): Promise<Response> {
  const { build } = access(ctx, "read");
  const b = await body(req);
  const win = limitOffset(b.limit, b.offset, 10, 200);
  const filter = (b.filter ?? {}) as Record<string, unknown>;
  if (typeof filter !== "object" || Array.isArray(filter)) throw bad("'filter' must be an object");
  const sort = Array.isArray(b.sort) ? b.sort[0] as { field?: string; order?: string } : undefined;
  const field = sort?.field ?? "createdAt";
  const desc = String(sort?.order ?? "ASC").toUpperCase() === "DESC";
  const all = build.rfis
    .filter((r) => matches(r, filter, typeof b.search === "string" ? b.search : undefined))
    .sort((x, y) => String(x[field] ?? "").localeCompare(String(y[field] ?? "")) * (desc ? -1 : 1))
    .map((r) => ({ ...r, permittedActions: { share: true, nudge: r.status !== "draft" } }));
  return json(200, {
    pagination: { limit: win.limit, offset: win.offset, totalResults: all.length },
    results: all.slice(win.offset, win.offset + win.limit),
  });
}

function detail(rfi: Rec): Rec {
  return {
    ...rfi,
    responses: [],
    draftResponses: [],
    permittedActions: permittedActions(rfi),
    maxAssignees: 1,
  };
}

function getOne(_req: Request, ctx: RequestContext): Response {
  const { build } = access(ctx, "read");
  return json(200, detail(find(build.rfis, ctx.params.rfiId, "RFI")));
}

/** Refuses values of the wrong shape in an RFI body. */
function checkRfi(b: Record<string, unknown>) {
  checkText(b, ["title", "locationDescription", "reference"], 255);
  checkText(b, ["question", "suggestedAnswer", "officialResponse"], 10_000);
  checkDates(b, ["dueDate"]);
  if (b.status !== undefined && !RFI_STATUSES.includes(String(b.status))) {
    throw bad(`'status' must be one of ${RFI_STATUSES.join(", ")}`);
  }
  if (b.priority !== undefined && b.priority !== null && !PRIORITIES.includes(String(b.priority))) {
    throw bad(`'priority' must be one of ${PRIORITIES.join(", ")}`);
  }
  const assignees = b.assignedTo;
  if (
    assignees !== undefined &&
    (!Array.isArray(assignees) ||
      !assignees.every((a) => typeof a?.id === "string" && typeof a?.type === "string"))
  ) {
    throw bad("'assignedTo' must be a list of {id, type}");
  }
}

async function create(req: Request, ctx: RequestContext): Promise<Response> {
  const { build, uid, now } = access(ctx, "write");
  const b = await body(req);
  checkFields(b, [...FIELDS, "id"], ["title", "status"]);
  checkRfi(b);
  if (!CREATE_STATUSES.includes(String(b.status))) {
    throw bad(`a new RFI's 'status' must be one of ${CREATE_STATUSES.join(", ")}`);
  }
  if (b.status !== "draft" && !(b.assignedTo as unknown[] | undefined)?.length) {
    throw bad(`'assignedTo' is required to create an RFI in '${b.status}'`);
  }
  const rfi: Rec = {
    id: typeof b.id === "string" ? b.id : crypto.randomUUID(),
    customIdentifier: String(build.counters.rfi++).padStart(3, "0"),
    question: null,
    assignedTo: [],
    dueDate: null,
    priority: null,
    locationDescription: null,
    officialResponse: null,
    commentsCount: 0,
    discipline: [],
    category: [],
    costImpact: null,
    scheduleImpact: null,
    reference: null,
    ...b,
    workflowType: "US",
    officialResponseStatus: "unanswered",
    managerId: uid,
    createdBy: uid,
    createdAt: now,
    updatedBy: uid,
    updatedAt: now,
    projectId: ctx.params.projectId,
    containerId: ctx.params.projectId,
  };
  build.rfis.push(rfi);
  return json(201, detail(rfi));
}

async function update(req: Request, ctx: RequestContext): Promise<Response> {
  const { build, uid, now } = access(ctx, "write");
  const rfi = find(build.rfis, ctx.params.rfiId, "RFI");
  const b = await body(req);
  checkFields(b, PATCH_FIELDS);
  checkRfi(b);
  if (rfi.status === "draft" && rfi.createdBy !== uid) {
    throw adminError(403, "ERR_NOT_ALLOWED", "only the creator may change a draft RFI");
  }
  if (b.status !== undefined) {
    checkMove("the RFI", RFI_TRANSITIONS, String(rfi.status), String(b.status));
    const assignees = (b.assignedTo ?? rfi.assignedTo) as unknown[];
    if (b.status !== "void" && b.status !== rfi.status && assignees.length === 0) {
      throw bad(`moving the RFI to '${b.status}' needs 'assignedTo'`);
    }
  }
  const { returnForReviewerList: _, ...fields } = b;
  const previousStatus = rfi.status;
  Object.assign(rfi, fields, { updatedBy: uid, updatedAt: now });
  if (b.status !== undefined && b.status !== previousStatus) {
    rfi.previousStatus = previousStatus;
    if (b.status === "answered") Object.assign(rfi, { answeredAt: now, answeredBy: uid });
    if (b.status === "closed") Object.assign(rfi, { closedAt: now, closedBy: uid });
  }
  return json(200, detail(rfi));
}

/** `GET /users/me`: the caller in the project, and the statuses a new RFI of theirs may take. */
function me(_req: Request, ctx: RequestContext): Response {
  const { uid } = access(ctx, "read");
  const user = [...ctx.sandbox.admin.accounts.values()].flatMap((a) => a.users).find((u) => u.uid === uid);
  return json(200, {
    user: { id: uid, name: user ? `${user.firstName} ${user.lastName}` : uid, role: "project_user" },
    permittedActions: {
      createRfi: { permittedStatuses: { wfUS: CREATE_STATUSES.map((status) => ({ status })) } },
    },
    workflow: { roles: [], type: "US" },
  });
}

const READ = ["data:read", "data:write", "data:create"];
const P = "/construction/rfis/v3/projects/:projectId";

/** Routes of the RFI service. */
export const rfiRoutes: readonly Route[] = [
  { method: "GET", pattern: `${P}/users/me`, scopes: READ, handler: me },
  { method: "POST", pattern: `${P}/search:rfis`, scopes: READ, handler: search },
  { method: "GET", pattern: `${P}/rfis/:rfiId`, scopes: READ, handler: getOne },
  { method: "POST", pattern: `${P}/rfis`, scopes: READ, handler: create },
  { method: "PATCH", pattern: `${P}/rfis/:rfiId`, scopes: READ, handler: update },
];
