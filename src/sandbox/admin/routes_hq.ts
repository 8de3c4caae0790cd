/**
 * BIM 360 HQ v1 account administration: a BIM 360 account's
 * projects (list, create), a project update (PATCH, any account's project), adding a user to an
 * account's member directory, and the account's companies. There is no accounts list: no public
 * reference has one (accounts are the data management hubs).
 *
 * HQ answers plain JSON arrays paged by `limit`/`offset` (default 10, at most 100) with snake_case
 * fields; a project has the fields of accountadmin.yaml's `ProjectPatch`, a user those of `User`.
 * The project list and create answer only for BIM 360 accounts: an ACC account's projects are
 * administered through ACC Admin v1 (400 here).
 */

import { EMAIL_PATTERN, HQ_PROJECT_STATUSES } from "../../aps/admin.ts";
import { nowMs } from "../clock.ts";
import type { RequestContext } from "../context.ts";
import { adminError } from "../errors.ts";
import { json } from "../respond.ts";
import type { Route } from "../router.ts";
import {
  account,
  actingUser,
  badText,
  hqUserBody,
  iso,
  objectBody,
  requestRegion,
  storeNewProject,
  window,
} from "./common.ts";
import { type AdminAccount, type AdminProject, type AdminUser, projectStatus, seedGuid } from "./store.ts";

const HQ = "/hq/v1/accounts";
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A project's status as HQ names it (a suspended project is `inactive`). */
function hqStatus(p: AdminProject, now: number): string {
  const status = projectStatus(p, now);
  return status === "suspended" ? "inactive" : status;
}

/** A project as HQ answers it (accountadmin.yaml `ProjectPatch`); unset fields are left out. */
function hqProjectBody(p: AdminProject, now: number): Record<string, unknown> {
  return {
    id: p.id,
    account_id: p.accountId,
    name: p.name,
    start_date: p.startDate ?? undefined,
    end_date: p.endDate ?? undefined,
    project_type: p.type,
    value: p.value ?? 0,
    currency: p.currency ?? "USD",
    status: hqStatus(p, now),
    job_number: p.jobNumber ?? undefined,
    city: p.city ?? undefined,
    country: p.country ?? undefined,
    timezone: p.timezone ?? undefined,
    service_types: p.productKeys.join(","),
    created_at: iso(p.createdMs),
    updated_at: iso(p.updatedMs),
  };
}

/** A write acts for the token's user or, when a 2-legged token names one, that user. */
function checkActor(req: Request, ctx: RequestContext, acc: AdminAccount): void {
  if (ctx.token?.userid || req.headers.has("user-id")) actingUser(req, ctx, acc);
}

function bim360Account(ctx: RequestContext): AdminAccount {
  const acc = account(ctx);
  if (acc.platform !== "bim360") {
    throw adminError(
      400,
      "ERR_BAD_INPUT",
      `Account '${acc.id}' is an ACC account: its projects are administered through /construction/admin/v1`,
    );
  }
  return acc;
}

function listProjects(req: Request, ctx: RequestContext): Response {
  const region = requestRegion(req);
  const acc = bim360Account(ctx);
  const win = window(ctx, 10, 100);
  const now = nowMs(ctx.sandbox.clock);
  const hosted = [...acc.projects.values()].filter((p) => p.region === region)
    .sort((a, b) => a.name.localeCompare(b.name));
  return json(200, hosted.slice(win.offset, win.offset + win.limit).map((p) => hqProjectBody(p, now)));
}

/** The first problem of the writable project fields in `b`, or undefined; `create` requires the four. */
function projectProblem(b: Record<string, unknown>, create: boolean): string | undefined {
  const date = (k: string) =>
    b[k] !== undefined && (typeof b[k] !== "string" || !DATE.test(b[k] as string))
      ? `'${k}' must be a date YYYY-MM-DD`
      : undefined;
  const problem = badText("name", b.name, 255, create) ??
    badText("project_type", b.project_type, 255, create) ??
    (create && b.start_date === undefined ? "'start_date' is required" : undefined) ??
    (create && b.end_date === undefined ? "'end_date' is required" : undefined) ??
    date("start_date") ?? date("end_date") ?? badText("job_number", b.job_number, 100) ??
    badText("currency", b.currency, 3) ?? badText("city", b.city, 255) ??
    badText("country", b.country, 255) ??
    badText("timezone", b.timezone, 255) ??
    (b.value !== undefined && (typeof b.value !== "number" || b.value < 0)
      ? "'value' must be a number >= 0"
      : undefined);
  if (problem) return problem;
  if (typeof b.start_date === "string" && typeof b.end_date === "string" && b.start_date >= b.end_date) {
    return "'start_date' must be earlier than 'end_date'";
  }
  return undefined;
}

function nameTaken(acc: AdminAccount, region: string, name: string, except?: string): void {
  const taken = [...acc.projects.values()].some((p) =>
    p.region === region && p.id !== except && p.name.toLowerCase() === name.toLowerCase()
  );
  if (taken) throw adminError(409, "ERR_CONFLICT", `A project named '${name}' already exists`);
}

async function createProject(req: Request, ctx: RequestContext): Promise<Response> {
  const region = requestRegion(req);
  const acc = bim360Account(ctx);
  checkActor(req, ctx, acc);
  const b = await objectBody(req);
  const problem = projectProblem(b, true);
  if (problem) throw adminError(400, "ERR_BAD_INPUT", problem);
  const name = (b.name as string).trim();
  nameTaken(acc, region, name);
  const now = nowMs(ctx.sandbox.clock);
  const text = (k: string) => (b[k] as string | undefined) ?? null;
  const project = storeNewProject(acc, now, {
    region,
    name,
    type: b.project_type as string,
    platform: "bim360",
    jobNumber: text("job_number"),
    city: text("city"),
    country: text("country"),
    timezone: text("timezone"),
    startDate: b.start_date as string,
    endDate: b.end_date as string,
    value: b.value as number | undefined,
    currency: b.currency as string | undefined,
  });
  return json(201, hqProjectBody(project, now));
}

const PATCHABLE: Record<string, keyof AdminProject> = {
  name: "name",
  project_type: "type",
  start_date: "startDate",
  end_date: "endDate",
  job_number: "jobNumber",
  city: "city",
  country: "country",
  timezone: "timezone",
  value: "value",
  currency: "currency",
};

async function updateProject(req: Request, ctx: RequestContext): Promise<Response> {
  const region = requestRegion(req);
  const acc = account(ctx);
  const project = acc.projects.get(ctx.params.projectId);
  if (project?.region !== region) {
    throw adminError(404, "ERR_NOT_FOUND", `Project '${ctx.params.projectId}' not found`);
  }
  checkActor(req, ctx, acc);
  const b = await objectBody(req);
  const unknown = Object.keys(b).find((k) => !(k in PATCHABLE) && k !== "status");
  if (unknown !== undefined) throw adminError(400, "ERR_BAD_INPUT", `'${unknown}' cannot be changed`);
  if (Object.keys(b).length === 0) throw adminError(400, "ERR_BAD_INPUT", "Nothing to change");
  const merged = { start_date: project.startDate ?? undefined, end_date: project.endDate ?? undefined, ...b };
  const problem = projectProblem(merged, false) ??
    (b.status !== undefined && !HQ_PROJECT_STATUSES.includes(String(b.status))
      ? `'status' must be one of ${HQ_PROJECT_STATUSES.join(", ")}`
      : undefined);
  if (problem) throw adminError(400, "ERR_BAD_INPUT", problem);
  if (typeof b.name === "string") nameTaken(acc, region, b.name.trim(), project.id);
  const fields = project as unknown as Record<string, unknown>;
  for (const [k, field] of Object.entries(PATCHABLE)) {
    if (b[k] !== undefined) fields[field] = typeof b[k] === "string" ? (b[k] as string).trim() : b[k];
  }
  if (b.status !== undefined) {
    project.status = b.status === "inactive" ? "suspended" : b.status as AdminProject["status"];
  }
  const now = nowMs(ctx.sandbox.clock);
  project.updatedMs = now;
  return json(200, hqProjectBody(project, now));
}

/** Adds a user to the account's directory (status pending until they sign in); 409 for a known e-mail. */
export function addAccountUser(
  acc: AdminAccount,
  fields: { email: string; region: string; now: number; companyId?: string; first?: string; last?: string },
): AdminUser {
  const email = fields.email.trim().toLowerCase();
  if (acc.users.some((u) => u.email.toLowerCase() === email)) {
    throw adminError(409, "ERR_CONFLICT", `A user with the e-mail '${email}' already exists in the account`);
  }
  const user: AdminUser = {
    id: seedGuid(`user/${acc.id}/${email}`),
    uid: "",
    region: fields.region,
    email,
    firstName: fields.first ?? "",
    lastName: fields.last ?? "",
    role: "account_user",
    status: "pending",
    companyId: fields.companyId ?? "",
    jobTitle: "",
    createdMs: fields.now,
  };
  acc.users.push(user);
  return user;
}

/** Adds the user a `UserPayload` describes to the account's directory; throws the platform's 400 or 409. */
export function addUserFrom(
  b: Record<string, unknown>,
  acc: AdminAccount,
  region: string,
  now: number,
): AdminUser {
  const problem = badText("email", b.email, 255, true) ??
    (EMAIL_PATTERN.test(String(b.email).trim()) ? undefined : "'email' must be an e-mail address") ??
    badText("company_id", b.company_id, 255) ?? badText("first_name", b.first_name, 255) ??
    badText("last_name", b.last_name, 255) ?? badText("job_title", b.job_title, 255) ??
    (b.company_id !== undefined && !acc.companies.some((c) => c.id === b.company_id)
      ? `'company_id' ${b.company_id} is not a company of the account`
      : undefined);
  if (problem) throw adminError(400, "ERR_BAD_INPUT", problem);
  const user = addAccountUser(acc, {
    email: b.email as string,
    region,
    now,
    companyId: b.company_id as string | undefined,
    first: b.first_name as string | undefined,
    last: b.last_name as string | undefined,
  });
  if (typeof b.job_title === "string") user.jobTitle = b.job_title;
  return user;
}

async function createUser(req: Request, ctx: RequestContext): Promise<Response> {
  const region = requestRegion(req);
  const acc = account(ctx);
  checkActor(req, ctx, acc);
  const user = addUserFrom(await objectBody(req), acc, region, nowMs(ctx.sandbox.clock));
  return json(201, hqUserBody(user, acc));
}

function listCompanies(req: Request, ctx: RequestContext): Response {
  requestRegion(req);
  const acc = account(ctx);
  const win = window(ctx, 10, 100);
  return json(
    200,
    acc.companies.slice(win.offset, win.offset + win.limit).map((c) => ({
      id: c.id,
      account_id: acc.id,
      name: c.name,
      trade: "General Contractor",
      country: "US",
    })),
  );
}

const READ = ["account:read"];
const WRITE = ["account:write"];

/** Routes of BIM 360 HQ v1 account administration (beside the users list of routes.ts). */
export const hqRoutes: readonly Route[] = [
  { method: "GET", pattern: `${HQ}/:accountId/projects`, scopes: READ, handler: listProjects },
  { method: "POST", pattern: `${HQ}/:accountId/projects`, scopes: WRITE, handler: createProject },
  { method: "PATCH", pattern: `${HQ}/:accountId/projects/:projectId`, scopes: WRITE, handler: updateProject },
  { method: "POST", pattern: `${HQ}/:accountId/users`, scopes: WRITE, handler: createUser },
  { method: "GET", pattern: `${HQ}/:accountId/companies`, scopes: READ, handler: listCompanies },
];
