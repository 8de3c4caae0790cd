/**
 * Account administration (openapi/construction/accountadmin/accountadmin.yaml): ACC Admin v1 projects of an
 * account (list, create, get) and project users, and the BIM 360 HQ v1 account users. Reading needs
 * `account:read`, creating `account:write`; both are granted to 2-legged tokens too, which must then name the
 * user a write acts for in the `User-Id` header (accountadmin.yaml).
 *
 * ACC lists answer `{pagination: {limit, offset, totalResults, nextUrl, previousUrl}, results}`
 * (limit 1-200, default 20); HQ users are a plain JSON array (limit 1-100, default 10). A created
 * project answers 202 with status `pending`, and reads as `active` a few seconds later on the
 * sandbox clock. The error body of these services is not documented; the sandbox answers
 * `{"code", "message"}`.
 *
 * Every route reads the `Region` header (absent: US; an unknown value: 400): lists show only that
 * region's projects and users, a project hosted elsewhere is not found (404), and a created
 * project is hosted in the request's region.
 */

import { PROJECT_CLASSIFICATIONS, PROJECT_PLATFORMS, PROJECT_STATUSES } from "../../aps/admin.ts";
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
  offsetPage,
  projectOr404,
  projectUserBody,
  requestRegion,
  storeNewProject,
  window,
} from "./common.ts";
import { hqRoutes } from "./routes_hq.ts";
import { memberRoutes } from "./routes_members.ts";
import { userRoutes } from "./routes_users.ts";
import { type AdminAccount, type AdminProject, PROJECT_PROVISION_MS, projectStatus } from "./store.ts";

const TEXT_MATCHES = ["contains", "startsWith", "endsWith", "equals"];

function projectBody(p: AdminProject, acc: AdminAccount, now: number) {
  const members = acc.members.get(p.id) ?? [];
  const companies = new Set(members.map((m) => acc.users.find((u) => u.id === m.userId)?.companyId));
  return {
    id: p.id,
    name: p.name,
    startDate: p.startDate,
    endDate: p.endDate,
    type: p.type,
    classification: p.classification,
    projectValue: { value: p.value ?? 0, currency: p.currency ?? "USD" },
    status: projectStatus(p, now),
    // The reference answers null for an unset address, place, date, image or template; fields it
    // does not call nullable are left out when unset.
    jobNumber: p.jobNumber ?? undefined,
    addressLine1: null,
    addressLine2: null,
    city: p.city,
    stateOrProvince: null,
    postalCode: null,
    country: p.country,
    latitude: null,
    longitude: null,
    timezone: p.timezone,
    imageUrl: null,
    thumbnailImageUrl: null,
    createdAt: iso(p.createdMs),
    updatedAt: iso(p.updatedMs),
    accountId: p.accountId,
    sheetCount: 0,
    products: p.productKeys.map((key) => ({ key, status: "active" })),
    platform: p.platform,
    companyCount: companies.size,
    memberCount: members.length,
    templateId: p.templateId,
  };
}

/** A comma list filter; undefined when absent; throws 400 when a value is not allowed. */
function listFilter(
  ctx: RequestContext,
  name: string,
  allowed: readonly string[],
): string[] | undefined {
  const text = ctx.url.searchParams.get(`filter[${name}]`);
  if (text === null) return undefined;
  const values = text.split(",").map((s) => s.trim()).filter(Boolean);
  const bad = values.find((v) => !allowed.includes(v));
  if (bad !== undefined) {
    throw adminError(400, "ERR_BAD_INPUT", `'filter[${name}]' values must be among ${allowed.join(", ")}`);
  }
  return values;
}

function textMatches(value: string, pattern: string, how: string): boolean {
  const v = value.toLowerCase();
  const p = pattern.toLowerCase();
  if (how === "equals") return v === p;
  if (how === "startsWith") return v.startsWith(p);
  if (how === "endsWith") return v.endsWith(p);
  return v.includes(p);
}

function listProjects(req: Request, ctx: RequestContext): Response {
  const region = requestRegion(req);
  const acc = account(ctx);
  const win = window(ctx, 20, 200);
  const statuses = listFilter(ctx, "status", PROJECT_STATUSES);
  const classes = listFilter(ctx, "classification", PROJECT_CLASSIFICATIONS);
  const platforms = listFilter(ctx, "platform", PROJECT_PLATFORMS);
  const how = ctx.url.searchParams.get("filterTextMatch") ?? "contains";
  if (!TEXT_MATCHES.includes(how)) {
    throw adminError(400, "ERR_BAD_INPUT", `'filterTextMatch' must be one of ${TEXT_MATCHES.join(", ")}`);
  }
  const name = ctx.url.searchParams.get("filter[name]");
  const now = nowMs(ctx.sandbox.clock);
  const has = (f: string[] | undefined, v: string) => f === undefined || f.includes(v);
  const results = [...acc.projects.values()]
    .filter((p) =>
      p.region === region && has(statuses, projectStatus(p, now)) && has(classes, p.classification) &&
      has(platforms, p.platform) &&
      (name === null || textMatches(p.name, name, how))
    )
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((p) => projectBody(p, acc, now));
  return offsetPage(ctx, results, win, "null");
}

async function createProject(req: Request, ctx: RequestContext): Promise<Response> {
  const region = requestRegion(req);
  const acc = account(ctx);
  // A 2-legged token acts for no user: accountadmin.yaml requires it to name one (impersonation).
  actingUser(req, ctx, acc);
  const b = await objectBody(req);
  const problem = badText("name", b.name, 255, true) ?? badText("type", b.type, 255, true) ??
    badText("jobNumber", b.jobNumber, 100) ?? badText("startDate", b.startDate, 10) ??
    badText("endDate", b.endDate, 10) ??
    (b.classification !== undefined && !PROJECT_CLASSIFICATIONS.includes(String(b.classification))
      ? `'classification' must be one of ${PROJECT_CLASSIFICATIONS.join(", ")}`
      : undefined);
  if (problem) throw adminError(400, "ERR_BAD_INPUT", problem);
  const name = (b.name as string).trim();
  const hosted = [...acc.projects.values()].filter((p) => p.region === region);
  let template: AdminProject | undefined;
  if (b.template !== undefined) {
    const tid = (b.template as { projectId?: unknown } | null)?.projectId;
    template = typeof tid === "string" ? hosted.find((p) => p.id === tid) : undefined;
    if (!template) {
      throw adminError(
        400,
        "ERR_BAD_INPUT",
        `'template.projectId' must name a project of the account in ${region}`,
      );
    }
  }
  // The platform declares no 409 here (reference and accountadmin.yaml): a taken name is bad input.
  if (hosted.some((p) => p.name.toLowerCase() === name.toLowerCase())) {
    throw adminError(
      400,
      "ERR_BAD_INPUT",
      `A project named '${name}' already exists in the account's ${region} region`,
    );
  }
  const now = nowMs(ctx.sandbox.clock);
  const project = storeNewProject(acc, now, {
    region,
    name,
    type: b.type as string,
    classification: (b.classification as string | undefined) ?? "production",
    platform: "acc",
    status: "pending",
    activeAtMs: now + PROJECT_PROVISION_MS,
    jobNumber: (b.jobNumber as string | undefined) ?? null,
    startDate: (b.startDate as string | undefined) ?? null,
    endDate: (b.endDate as string | undefined) ?? null,
    productKeys: template ? [...template.productKeys] : ["docs", "build"],
    templateId: template?.id ?? null,
  });
  return json(202, projectBody(project, acc, now));
}

function getProject(req: Request, ctx: RequestContext): Response {
  const found = projectOr404(req, ctx);
  return json(200, projectBody(found.project, found.acc, nowMs(ctx.sandbox.clock)));
}

function listProjectUsers(req: Request, ctx: RequestContext): Response {
  const found = projectOr404(req, ctx);
  const win = window(ctx, 20, 200);
  const { project, acc } = found;
  const users = (acc.members.get(project.id) ?? []).map((m) => projectUserBody(m, project, acc));
  return offsetPage(ctx, users, win, "null");
}

function listAccountUsers(req: Request, ctx: RequestContext): Response {
  const region = requestRegion(req);
  const acc = account(ctx);
  const win = window(ctx, 10, 100);
  return json(
    200,
    acc.users.filter((u) => u.region === region).slice(win.offset, win.offset + win.limit)
      .map((u) => hqUserBody(u, acc)),
  );
}

const READ = ["account:read"];
const WRITE = ["account:write"];
const ADMIN = "/construction/admin/v1";

/** Routes of account administration. */
export const adminRoutes: readonly Route[] = [
  { method: "GET", pattern: `${ADMIN}/accounts/:accountId/projects`, scopes: READ, handler: listProjects },
  { method: "POST", pattern: `${ADMIN}/accounts/:accountId/projects`, scopes: WRITE, handler: createProject },
  { method: "GET", pattern: `${ADMIN}/projects/:projectId`, scopes: READ, handler: getProject },
  { method: "GET", pattern: `${ADMIN}/projects/:projectId/users`, scopes: READ, handler: listProjectUsers },
  { method: "GET", pattern: "/hq/v1/accounts/:accountId/users", scopes: READ, handler: listAccountUsers },
  ...userRoutes,
  ...hqRoutes,
  ...memberRoutes,
];
