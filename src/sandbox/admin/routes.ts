/**
 * Account administration (aps-api.md §9, accountadmin.yaml): ACC Admin v1 projects of an account
 * (list, create, get) and project users, and the BIM 360 HQ v1 account users. Reading needs
 * `account:read`, creating `account:write`; both are granted to 2-legged tokens too, which must then
 * name the user a write acts for in the `User-Id` header (accountadmin.yaml).
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
import { DATA_CENTRES } from "../../aps/regions.ts";
import { nowMs } from "../clock.ts";
import type { RequestContext } from "../context.ts";
import { adminError } from "../errors.ts";
import { json, readJson } from "../respond.ts";
import type { Route } from "../router.ts";
import {
  type AdminAccount,
  type AdminMember,
  type AdminProject,
  DEFAULT_ADMIN_REGION,
  findProject,
  PROJECT_PROVISION_MS,
  projectStatus,
} from "./store.ts";

const TEXT_MATCHES = ["contains", "startsWith", "endsWith", "equals"];

const iso = (ms: number) => new Date(ms).toISOString();

const REGIONS: readonly string[] = DATA_CENTRES;

/** The region a request is routed to (its `Region` header, else US); throws 400 for an unknown one. */
function requestRegion(req: Request): string {
  const header = req.headers.get("region");
  if (header === null) return DEFAULT_ADMIN_REGION;
  const region = header.trim().toUpperCase();
  if (REGIONS.includes(region)) return region;
  throw adminError(400, "ERR_BAD_INPUT", `'Region' must be one of ${REGIONS.join(", ")}, got '${header}'`);
}

function account(ctx: RequestContext): AdminAccount {
  const id = ctx.params.accountId;
  const found = ctx.sandbox.admin.accounts.get(id);
  if (!found) throw adminError(404, "ERR_NOT_FOUND", `Account '${id}' not found`);
  return found;
}

/** `limit` and `offset` of a list request, checked against the service's bounds. */
export function window(ctx: RequestContext, def: number, max: number): { limit: number; offset: number } {
  const q = ctx.url.searchParams;
  const limitText = q.get("limit") ?? String(def);
  const offsetText = q.get("offset") ?? "0";
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || limit < 1 || limit > max) {
    throw adminError(400, "ERR_BAD_INPUT", `'limit' must be an integer from 1 to ${max}`);
  }
  if (!/^\d+$/.test(offsetText)) throw adminError(400, "ERR_BAD_INPUT", "'offset' must be an integer >= 0");
  return { limit, offset: Number(offsetText) };
}

/** The ACC pagination envelope of one page of `all`. */
function envelope(ctx: RequestContext, all: readonly unknown[], limit: number, offset: number): Response {
  const link = (o: number) => {
    const q = new URLSearchParams(ctx.url.searchParams);
    q.set("offset", String(o));
    q.set("limit", String(limit));
    return `${ctx.baseUrl}${ctx.url.pathname}?${q}`;
  };
  return json(200, {
    pagination: {
      limit,
      offset,
      totalResults: all.length,
      nextUrl: offset + limit < all.length ? link(offset + limit) : null,
      previousUrl: offset > 0 ? link(Math.max(0, offset - limit)) : null,
    },
    results: all.slice(offset, offset + limit),
  });
}

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
    projectValue: { value: 0, currency: "USD" },
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
  return envelope(ctx, results, win.limit, win.offset);
}

/** Checks the optional string `value` (at most `max` characters); the error text, or undefined. */
function badText(name: string, value: unknown, max: number, required = false): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== "string" || value.trim() === "" || value.length > max) {
    return `'${name}' must be a non-empty string of at most ${max} characters`;
  }
  return undefined;
}

async function createProject(req: Request, ctx: RequestContext): Promise<Response> {
  const region = requestRegion(req);
  const acc = account(ctx);
  // A 2-legged token acts for no user: accountadmin.yaml requires it to name one (impersonation).
  if (!ctx.token?.userid && !req.headers.get("user-id")?.trim()) {
    throw adminError(400, "ERR_BAD_INPUT", "'User-Id' is required with a 2-legged token");
  }
  if (!(req.headers.get("content-type") ?? "").includes("application/json")) {
    throw adminError(415, "ERR_UNSUPPORTED_MEDIA_TYPE", "The request body must be application/json");
  }
  const body = await readJson(req);
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw adminError(400, "ERR_BAD_INPUT", "The request body must be a JSON object with 'name' and 'type'");
  }
  const b = body as Record<string, unknown>;
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
  const project: AdminProject = {
    id: crypto.randomUUID(),
    accountId: acc.id,
    region,
    name,
    type: b.type as string,
    classification: (b.classification as string | undefined) ?? "production",
    platform: "acc",
    status: "pending",
    activeAtMs: now + PROJECT_PROVISION_MS,
    jobNumber: (b.jobNumber as string | undefined) ?? null,
    city: null,
    country: null,
    timezone: null,
    startDate: (b.startDate as string | undefined) ?? null,
    endDate: (b.endDate as string | undefined) ?? null,
    productKeys: template ? [...template.productKeys] : ["docs", "build"],
    templateId: template?.id ?? null,
    createdMs: now,
    updatedMs: now,
  };
  acc.projects.set(project.id, project);
  return json(202, projectBody(project, acc, now));
}

/** The path's project as hosted in the request's region; throws 400 for a bad region, 404 when not hosted there. */
function projectOr404(req: Request, ctx: RequestContext): { project: AdminProject; acc: AdminAccount } {
  const region = requestRegion(req);
  const store = ctx.sandbox.admin;
  const project = findProject(store, ctx.params.projectId);
  if (project?.region !== region) {
    throw adminError(404, "ERR_NOT_FOUND", `Project '${ctx.params.projectId}' not found`);
  }
  return { project, acc: store.accounts.get(project.accountId)! };
}

function getProject(req: Request, ctx: RequestContext): Response {
  const found = projectOr404(req, ctx);
  return json(200, projectBody(found.project, found.acc, nowMs(ctx.sandbox.clock)));
}

function projectUserBody(m: AdminMember, project: AdminProject, acc: AdminAccount) {
  const u = acc.users.find((x) => x.id === m.userId)!;
  return {
    email: u.email,
    id: u.id,
    name: `${u.firstName} ${u.lastName}`,
    firstName: u.firstName,
    lastName: u.lastName,
    autodeskId: u.uid,
    jobTitle: u.jobTitle,
    accessLevels: {
      accountAdmin: u.role === "account_admin",
      projectAdmin: m.projectAdmin,
      executive: false,
    },
    addedOn: iso(m.addedMs),
    updatedAt: iso(m.addedMs),
    companyId: u.companyId,
    companyName: acc.companies.find((c) => c.id === u.companyId)?.name,
    roleIds: [...m.roleIds],
    roles: m.roleIds.map((id) => ({ id, name: acc.roles.find((r) => r.id === id)?.name ?? id })),
    status: u.status,
    products: project.productKeys.map((key) => ({
      key,
      access: m.projectAdmin ? "administrator" : "member",
    })),
  };
}

function listProjectUsers(req: Request, ctx: RequestContext): Response {
  const found = projectOr404(req, ctx);
  const win = window(ctx, 20, 200);
  const { project, acc } = found;
  const users = (acc.members.get(project.id) ?? []).map((m) => projectUserBody(m, project, acc));
  return envelope(ctx, users, win.limit, win.offset);
}

function listAccountUsers(req: Request, ctx: RequestContext): Response {
  const region = requestRegion(req);
  const acc = account(ctx);
  const win = window(ctx, 10, 100);
  return json(
    200,
    acc.users.filter((u) => u.region === region).slice(win.offset, win.offset + win.limit).map((u) => {
      const company = acc.companies.find((c) => c.id === u.companyId)?.name;
      // Unset fields are left out: accountadmin.yaml types them as non-nullable strings.
      return {
        id: u.id,
        account_id: acc.id,
        role: u.role,
        status: u.status,
        company_id: u.companyId,
        company_name: company,
        last_sign_in: u.status === "active" ? iso(u.createdMs + 3_600_000) : undefined,
        email: u.email,
        name: `${u.firstName} ${u.lastName}`,
        nickname: u.firstName,
        first_name: u.firstName,
        last_name: u.lastName,
        uid: u.uid,
        company,
        job_title: u.jobTitle,
        created_at: iso(u.createdMs),
        updated_at: iso(u.createdMs),
      };
    }),
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
];
