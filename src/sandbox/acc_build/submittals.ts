/**
 * Submittals v2: items (list with filters and search, get, create, PATCH of
 * plain fields, `POST items/{id}:transition` to move state), packages and specs. An item's state
 * moves only along the workflow (aps/acc_build.ts) and its `statusId` follows its state; void items
 * are left out of a list unless it asks for status 4.
 */
import { SUBMITTAL_STATES, SUBMITTAL_STATUS_OF_STATE, SUBMITTAL_TRANSITIONS } from "../../aps/acc_build.ts";
import type { RequestContext } from "../context.ts";
import { json } from "../respond.ts";
import type { Route } from "../router.ts";
import { notFound } from "../errors.ts";
import { offsetPage, window } from "../admin/common.ts";
import { access, bad, body, checkDates, checkFields, checkMove, checkText, find, named } from "./common.ts";
import type { ProjectBuild, Rec } from "./store.ts";

const PATCH_FIELDS = [
  "title",
  "description",
  "priority",
  "dueDate",
  "requiredOnJobDate",
  "packageId",
  "customIdentifier",
  "manager",
  "managerType",
  "subcontractor",
  "subcontractorType",
  "watchers",
  "typeId",
  "specId",
];
const CREATE_FIELDS = [...PATCH_FIELDS, "stateId"];
const CREATE_STATES = ["draft", "sbc-1", "mgr-1"];
const PRIORITIES = ["Low", "Normal", "High"];

/** The item with its permitted actions: the fields it may change and the moves from its state. */
function detail(item: Rec): Rec {
  const from = String(item.stateId);
  return {
    ...item,
    permittedActions: [{
      id: "Item::partial_update",
      fields: Object.fromEntries(PATCH_FIELDS.map((f) => [f, []])),
      mandatoryFields: [],
      transitions: (SUBMITTAL_TRANSITIONS[from] ?? []).map((to) => ({
        id: `${from}::${to}`,
        stateFrom: { id: from },
        stateTo: { id: to },
        transitionFields: [],
        mandatoryFields: [],
      })),
    }],
  };
}

function list(_req: Request, ctx: RequestContext): Response {
  const { build } = access(ctx, "read");
  const q = ctx.url.searchParams;
  const win = window(ctx, 20, 50);
  const values = (name: string) => q.get(name)?.split(",").filter(Boolean);
  const statuses = values("filter[statusId]");
  const packages = values("filter[packageId]");
  const text = q.get("search")?.toLowerCase();
  const all = build.submittals.filter((s) =>
    (statuses ? statuses.includes(String(s.statusId)) : s.stateId !== "void") &&
    (!packages || packages.includes(String(s.packageId))) &&
    (!text || `${s.identifier} ${s.title} ${s.specIdentifier}`.toLowerCase().includes(text))
  );
  return offsetPage(ctx, all.map(detail), win, "omit");
}

function getOne(_req: Request, ctx: RequestContext): Response {
  const { build } = access(ctx, "read");
  return json(200, detail(find(build.submittals, ctx.params.itemId, "submittal item")));
}

/** Refuses wrong values and references to types, specs or packages the project does not have. */
function checkItem(build: ProjectBuild, b: Record<string, unknown>) {
  checkText(b, ["title", "customIdentifier"], 255);
  checkText(b, ["description"], 3000);
  checkDates(b, ["dueDate", "requiredOnJobDate"]);
  if (b.priority !== undefined && !PRIORITIES.includes(String(b.priority))) {
    throw bad(`'priority' must be one of ${PRIORITIES.join(", ")}`);
  }
  if (b.typeId !== undefined) named(build.itemTypes, b, "typeId", "an item type");
  if (b.specId !== undefined) named(build.specs, b, "specId", "a spec");
  if (b.packageId !== undefined && b.packageId !== null) named(build.packages, b, "packageId", "a package");
}

/** The spec and package fields an item repeats from the ids it names. */
function denormalize(build: ProjectBuild, item: Rec) {
  const spec = build.specs.find((s) => s.id === item.specId);
  const pkg = build.packages.find((p) => p.id === item.packageId);
  Object.assign(item, {
    specIdentifier: spec?.identifier ?? null,
    specTitle: spec?.title ?? null,
    packageIdentifier: pkg?.identifier ?? null,
    packageTitle: pkg?.title ?? null,
  });
}

async function create(req: Request, ctx: RequestContext): Promise<Response> {
  const { build, uid, now } = access(ctx, "write");
  const b = await body(req);
  checkFields(b, CREATE_FIELDS, ["typeId", "specId", "title", "stateId"]);
  if (!CREATE_STATES.includes(String(b.stateId))) {
    throw bad(`a new item's 'stateId' must be one of ${CREATE_STATES.join(", ")}`);
  }
  checkItem(build, b);
  const identifier = build.counters.submittal++;
  const item: Rec = {
    id: crypto.randomUUID(),
    identifier,
    customIdentifier: String(identifier),
    description: null,
    priority: "Normal",
    revision: 0,
    packageId: null,
    dueDate: null,
    watchers: [],
    manager: uid,
    managerType: "1",
    ...b,
    statusId: SUBMITTAL_STATUS_OF_STATE[String(b.stateId)],
    ballInCourtUsers: [uid],
    ballInCourtType: b.stateId === "sbc-1" ? "subcontractor" : "manager",
    createdAt: now,
    createdBy: uid,
    updatedAt: now,
    updatedBy: uid,
  };
  denormalize(build, item);
  build.submittals.push(item);
  return json(201, detail(item));
}

async function update(req: Request, ctx: RequestContext): Promise<Response> {
  const { build, uid, now } = access(ctx, "write");
  const item = find(build.submittals, ctx.params.itemId, "submittal item");
  const b = await body(req);
  if ("stateId" in b || "statusId" in b) {
    throw bad("the state changes through POST items/{itemId}:transition");
  }
  checkFields(b, PATCH_FIELDS);
  checkItem(build, b);
  Object.assign(item, b, { updatedAt: now, updatedBy: uid });
  denormalize(build, item);
  return json(200, detail(item));
}

/** `POST items/{itemId}:transition` (the router sees `{itemId}:transition` as one segment). */
async function transition(req: Request, ctx: RequestContext): Promise<Response> {
  const [id, action] = ctx.params.itemAction.split(":");
  if (action !== "transition") throw notFound();
  const { build, uid, now } = access(ctx, "write");
  const item = find(build.submittals, id, "submittal item");
  const b = await body(req);
  checkFields(b, ["stateId", "responseId", "responseComment", "customIdentifier"], ["stateId"]);
  if (!SUBMITTAL_STATES.includes(String(b.stateId))) {
    throw bad(`'stateId' must be one of ${SUBMITTAL_STATES.join(", ")}`);
  }
  checkMove("the item", SUBMITTAL_TRANSITIONS, String(item.stateId), String(b.stateId));
  const stateId = String(b.stateId);
  Object.assign(item, b, {
    statusId: SUBMITTAL_STATUS_OF_STATE[stateId],
    ballInCourtType: stateId === "rev" ? "reviewer" : stateId.startsWith("sbc") ? "subcontractor" : "manager",
    ballInCourtUsers: stateId === "sbc-2" || stateId === "void" ? [] : item.ballInCourtUsers,
    updatedAt: now,
    updatedBy: uid,
  });
  if (stateId === "rev") item.sentToReview = now.slice(0, 10);
  if (stateId === "sbc-2") item.publishedDate = now.slice(0, 10);
  return json(200, detail(item));
}

/** A read-only list of the project's `pick` (packages, specs, item types), offset paged. */
function plainList(pick: (b: ProjectBuild) => readonly Rec[]) {
  return (_req: Request, ctx: RequestContext): Response =>
    offsetPage(ctx, pick(access(ctx, "read").build), window(ctx, 20, 50), "omit");
}

const READ = ["data:read", "data:write", "data:create"];
const P = "/construction/submittals/v2/projects/:projectId";

/** Routes of the submittals service. */
export const submittalRoutes: readonly Route[] = [
  { method: "GET", pattern: `${P}/items`, scopes: READ, handler: list },
  { method: "POST", pattern: `${P}/items`, scopes: READ, handler: create },
  { method: "GET", pattern: `${P}/items/:itemId`, scopes: READ, handler: getOne },
  { method: "PATCH", pattern: `${P}/items/:itemId`, scopes: READ, handler: update },
  { method: "POST", pattern: `${P}/items/:itemAction`, scopes: READ, handler: transition },
  { method: "GET", pattern: `${P}/packages`, scopes: READ, handler: plainList((b) => b.packages) },
  { method: "GET", pattern: `${P}/specs`, scopes: READ, handler: plainList((b) => b.specs) },
  { method: "GET", pattern: `${P}/item-types`, scopes: READ, handler: plainList((b) => b.itemTypes) },
];
