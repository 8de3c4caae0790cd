/**
 * ACC Issues v1 (openapi/construction/issues/Issues.yaml) under
 * `/construction/issues/v1/projects/:projectId`: the caller's profile, issue types, issues (list with
 * filters, sort and `fields`; create; get; update), comments and attachments. Every route asks acc_access.ts
 * first (the project exists, the token acts for a member with the data scope), then answers for that caller:
 * `permittedStatuses` come from the status graph of aps/issues.ts, and an update to any other status is
 * refused (400) with the permitted ones named. Lists are ACC offset pages; issues 1-100 (default 100). The
 * error body of this service is not documented; the sandbox answers `{"code", "message"}`.
 */

import {
  ISSUE_SORT_FIELDS,
  ISSUE_TRANSITIONS,
  type IssueStatus,
  unknownSortFields,
} from "../../aps/issues.ts";
import { ACC_ROUTE_SCOPES } from "../acc_access.ts";
import { nowMs } from "../clock.ts";
import type { RequestContext } from "../context.ts";
import { adminError } from "../errors.ts";
import { json, readJson } from "../respond.ts";
import type { Route } from "../router.ts";
import { offsetPage, window } from "../admin/common.ts";
import { checkPayload, CREATE_STATUSES, issueBody, PERMITTED_ATTRIBUTES } from "./bodies.ts";
import { threadRoutes } from "./threads.ts";
import { issueOf, issuesOf } from "./project.ts";
import type { ProjectIssues, StoredIssue } from "./store.ts";

/** Stored fields that a sort field of the platform names otherwise. */
const SORT_ALIASES: Record<string, string> = { issueType: "issueTypeId", issueSubType: "issueSubtypeId" };

/** A comma-separated `filter[name]`, or undefined. */
function filter(ctx: RequestContext, name: string): string[] | undefined {
  const text = ctx.url.searchParams.get(`filter[${name}]`);
  return text === null ? undefined : text.split(",").map((s) => s.trim()).filter(Boolean);
}

function matches(issue: StoredIssue, ctx: RequestContext): boolean {
  const f = (name: string) => filter(ctx, name);
  const has = (values: string[] | undefined, v: string | null) =>
    values === undefined || values.includes(v ?? "null");
  const search = ctx.url.searchParams.get("filter[search]")?.toLowerCase();
  const created = f("createdAt");
  return has(f("id"), issue.id) && has(f("issueTypeId"), issue.issueTypeId) &&
    has(f("issueSubtypeId"), issue.issueSubtypeId) && has(f("status"), issue.status) &&
    has(f("assignedTo"), issue.assignedTo) && has(f("assignedToType"), issue.assignedToType) &&
    has(f("createdBy"), issue.createdBy) && has(f("dueDate"), issue.dueDate) &&
    has(f("startDate"), issue.startDate) && has(f("displayId"), String(issue.displayId)) &&
    (created === undefined || created.some((d) => new Date(issue.createdMs).toISOString().startsWith(d))) &&
    (search === undefined || issue.title.toLowerCase().includes(search) ||
      String(issue.displayId) === search);
}

function sorter(ctx: RequestContext): (a: StoredIssue, b: StoredIssue) => number {
  const keys = (ctx.url.searchParams.get("sortBy") ?? "displayId").split(",").map((s) => s.trim());
  if (unknownSortFields(keys.join(",")).length > 0) {
    throw adminError(400, "ERR_BAD_INPUT", `'sortBy' must name fields among ${ISSUE_SORT_FIELDS.join(", ")}`);
  }
  const value = (i: StoredIssue, k: string): string | number =>
    k === "createdAt"
      ? i.createdMs
      : k === "updatedAt"
      ? i.updatedMs
      : k === "displayId"
      ? i.displayId
      : String(i[(SORT_ALIASES[k] ?? k) as keyof StoredIssue] ?? "");
  return (a, b) => {
    for (const key of keys) {
      const desc = key.startsWith("-");
      const k = key.replace(/^-/, "");
      const [x, y] = [value(a, k), value(b, k)];
      if (x !== y) return (x < y ? -1 : 1) * (desc ? -1 : 1);
    }
    return 0;
  };
}

function listIssues(_req: Request, ctx: RequestContext): Response {
  const { id, p } = issuesOf(ctx, "read");
  const win = window(ctx, 100, 100);
  if (ctx.url.searchParams.get("filter[deleted]") === "true") return offsetPage(ctx, [], win, "none");
  const fields = ctx.url.searchParams.get("fields")?.split(",").map((s) => s.trim()).filter(Boolean);
  const results = [...p.issues.values()].filter((i) => matches(i, ctx)).sort(sorter(ctx)).map((i) => {
    const body: Record<string, unknown> = issueBody(i, id, p);
    return fields
      ? Object.fromEntries(Object.entries(body).filter(([k]) => k === "id" || fields.includes(k)))
      : body;
  });
  return offsetPage(ctx, results, win, "none");
}

function getIssue(_req: Request, ctx: RequestContext): Response {
  const { id, p } = issuesOf(ctx, "read");
  return json(200, issueBody(issueOf(p, ctx.params.issueId), id, p));
}

/** The subtype (of an active type) `subtypeId` names; 400 otherwise. */
function subtype(p: ProjectIssues, subtypeId: string) {
  for (const t of p.types) {
    const s = t.subtypes.find((x) => x.id === subtypeId);
    if (s && t.isActive && s.isActive) return s;
  }
  throw adminError(
    400,
    "ERR_BAD_INPUT",
    `'issueSubtypeId' ${subtypeId} is not an active type of this project`,
  );
}

/** Applies a checked payload to `issue` as `uid` at `now`. */
function apply(
  issue: StoredIssue,
  p: ProjectIssues,
  b: Record<string, unknown>,
  uid: string,
  now: number,
): void {
  const copy = PERMITTED_ATTRIBUTES.filter((k) => k !== "issueSubtypeId");
  const target = issue as unknown as Record<string, unknown>;
  for (const k of copy) if (b[k] !== undefined) target[k] = b[k];
  if (b.assignedTo === null || b.assignedToType === null) {
    issue.assignedTo = null;
    issue.assignedToType = null;
  }
  if (typeof b.issueSubtypeId === "string") {
    const s = subtype(p, b.issueSubtypeId);
    issue.issueSubtypeId = s.id;
    issue.issueTypeId = s.issueTypeId;
  }
  if (typeof b.status === "string" && b.status !== issue.status) {
    const to = b.status as IssueStatus;
    if (to === "closed") [issue.closedBy, issue.closedMs] = [uid, now];
    if (issue.status === "closed") [issue.closedBy, issue.closedMs] = [null, null];
    if (issue.openedMs === null && to !== "draft") [issue.openedBy, issue.openedMs] = [uid, now];
    issue.status = to;
  }
  issue.updatedBy = uid;
  issue.updatedMs = now;
}

async function createIssue(req: Request, ctx: RequestContext): Promise<Response> {
  const { id, p, uid } = issuesOf(ctx, "write");
  const b = checkPayload(await readJson(req), true);
  if (!CREATE_STATUSES.includes(b.status as string)) {
    throw adminError(400, "ERR_BAD_INPUT", `a new issue's 'status' must be ${CREATE_STATUSES.join(" or ")}`);
  }
  const s = subtype(p, b.issueSubtypeId as string);
  const now = nowMs(ctx.sandbox.clock);
  const issue: StoredIssue = {
    id: crypto.randomUUID(),
    displayId: p.nextDisplayId++,
    title: "",
    description: null,
    issueTypeId: s.issueTypeId,
    issueSubtypeId: s.id,
    status: b.status as IssueStatus,
    assignedTo: null,
    assignedToType: null,
    dueDate: null,
    startDate: null,
    locationId: null,
    locationDetails: null,
    rootCauseId: null,
    published: false,
    watchers: [],
    createdBy: uid,
    createdMs: now,
    updatedBy: uid,
    updatedMs: now,
    openedBy: b.status === "draft" ? null : uid,
    openedMs: b.status === "draft" ? null : now,
    closedBy: null,
    closedMs: null,
  };
  apply(issue, p, { ...b, status: undefined }, uid, now);
  p.issues.set(issue.id, issue);
  return json(200, issueBody(issue, id, p));
}

async function updateIssue(req: Request, ctx: RequestContext): Promise<Response> {
  const { id, p, uid } = issuesOf(ctx, "write");
  const issue = issueOf(p, ctx.params.issueId);
  const b = checkPayload(await readJson(req), false);
  if (typeof b.status === "string" && b.status !== issue.status) {
    const allowed = ISSUE_TRANSITIONS[issue.status];
    if (!allowed.includes(b.status as IssueStatus)) {
      throw adminError(
        400,
        "ERR_BAD_INPUT",
        `an issue cannot move from ${issue.status} to ${b.status}; permitted: ${allowed.join(", ")}`,
      );
    }
  }
  apply(issue, p, b, uid, nowMs(ctx.sandbox.clock));
  return json(200, issueBody(issue, id, p));
}

const BASE = "/construction/issues/v1/projects/:projectId";

/** Routes of ACC Issues. */
export const issuesRoutes: readonly Route[] = [
  { method: "GET", pattern: `${BASE}/issues`, scopes: ACC_ROUTE_SCOPES, handler: listIssues },
  { method: "POST", pattern: `${BASE}/issues`, scopes: ACC_ROUTE_SCOPES, handler: createIssue },
  { method: "GET", pattern: `${BASE}/issues/:issueId`, scopes: ACC_ROUTE_SCOPES, handler: getIssue },
  { method: "PATCH", pattern: `${BASE}/issues/:issueId`, scopes: ACC_ROUTE_SCOPES, handler: updateIssue },
  ...threadRoutes(BASE),
];
