/**
 * What the account administration routes share: the `Region` header, the path's account and
 * project, list windows and the ACC pagination envelope, body checks, the acting user of a
 * 2-legged write (`User-Id`), and the project-member body.
 */

import { DATA_CENTRES } from "../../aps/regions.ts";
import type { RequestContext } from "../context.ts";
import { adminError } from "../errors.ts";
import { json, readJson } from "../respond.ts";
import {
  type AdminAccount,
  type AdminMember,
  type AdminProject,
  type AdminUser,
  DEFAULT_ADMIN_REGION,
  findProject,
} from "./store.ts";

/** An ISO 8601 time of a sandbox-clock instant. */
export const iso = (ms: number): string => new Date(ms).toISOString();

const REGIONS: readonly string[] = DATA_CENTRES;

/** The region a request is routed to (its `Region` header, else US); throws 400 for an unknown one. */
export function requestRegion(req: Request): string {
  const header = req.headers.get("region");
  if (header === null) return DEFAULT_ADMIN_REGION;
  const region = header.trim().toUpperCase();
  if (REGIONS.includes(region)) return region;
  throw adminError(400, "ERR_BAD_INPUT", `'Region' must be one of ${REGIONS.join(", ")}, got '${header}'`);
}

/** The path's account; 404 when there is none. */
export function account(ctx: RequestContext): AdminAccount {
  const id = ctx.params.accountId;
  const found = ctx.sandbox.admin.accounts.get(id);
  if (!found) throw adminError(404, "ERR_NOT_FOUND", `Account '${id}' not found`);
  return found;
}

/**
 * `limit` (1..max, default `def`) and `offset` (>= 0, default 0) of a list, given as a query's text
 * or a body's numbers; else the platform's 400. Every ACC list of the sandbox checks its window here.
 */
export function limitOffset(
  limitValue: unknown,
  offsetValue: unknown,
  def: number,
  max: number,
): { limit: number; offset: number } {
  const int = (v: unknown, d: number): number =>
    v === undefined || v === null
      ? d
      : typeof v === "string"
      ? (/^\d+$/.test(v) ? Number(v) : NaN)
      : Number.isInteger(v)
      ? v as number
      : NaN;
  const limit = int(limitValue, def);
  const offset = int(offsetValue, 0);
  if (!(limit >= 1 && limit <= max)) {
    throw adminError(400, "ERR_BAD_INPUT", `'limit' must be an integer from 1 to ${max}`);
  }
  if (!(offset >= 0)) throw adminError(400, "ERR_BAD_INPUT", "'offset' must be an integer >= 0");
  return { limit, offset };
}

/** `limit` and `offset` of a list request's query, checked against the service's bounds. */
export function window(ctx: RequestContext, def: number, max: number): { limit: number; offset: number } {
  const q = ctx.url.searchParams;
  return limitOffset(q.get("limit") ?? undefined, q.get("offset") ?? undefined, def, max);
}

/**
 * One ACC offset page of `all`: `{pagination: {limit, offset, totalResults, nextUrl, previousUrl},
 * results}`. `links` says how the neighbour pages' addresses appear: `null` when there is none
 * (account administration), left out then (`omit`), or never (`none`, as the issues service).
 */
export function offsetPage(
  ctx: RequestContext,
  all: readonly unknown[],
  win: { limit: number; offset: number },
  links: "null" | "omit" | "none",
): Response {
  const { limit, offset } = win;
  const link = (o: number) => {
    const q = new URLSearchParams(ctx.url.searchParams);
    q.set("offset", String(o));
    q.set("limit", String(limit));
    return `${ctx.baseUrl}${ctx.url.pathname}?${q}`;
  };
  const next = offset + limit < all.length ? link(offset + limit) : null;
  const previous = offset > 0 ? link(Math.max(0, offset - limit)) : null;
  const shown = links === "null"
    ? { nextUrl: next, previousUrl: previous }
    : links === "omit"
    ? { ...(next ? { nextUrl: next } : {}), ...(previous ? { previousUrl: previous } : {}) }
    : {};
  return json(200, {
    pagination: { limit, offset, totalResults: all.length, ...shown },
    results: all.slice(offset, offset + limit),
  });
}

/** Checks the optional string `value` (at most `max` characters); the error text, or undefined. */
export function badText(name: string, value: unknown, max: number, required = false): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== "string" || value.trim() === "" || value.length > max) {
    return `'${name}' must be a non-empty string of at most ${max} characters`;
  }
  return undefined;
}

/** The path's project as hosted in the request's region; throws 400 for a bad region, 404 when not hosted there. */
export function projectOr404(
  req: Request,
  ctx: RequestContext,
): { project: AdminProject; acc: AdminAccount } {
  const region = requestRegion(req);
  const store = ctx.sandbox.admin;
  const project = findProject(store, ctx.params.projectId);
  if (project?.region !== region) {
    throw adminError(404, "ERR_NOT_FOUND", `Project '${ctx.params.projectId}' not found`);
  }
  return { project, acc: store.accounts.get(project.accountId)! };
}

/** A project member as ACC Admin answers it (ProjectUserDetails). */
export function projectUserBody(m: AdminMember, project: AdminProject, acc: AdminAccount) {
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

/**
 * The user a write acts for: the token's user, or with a 2-legged token the `User-Id` header
 * (the user's account id or Autodesk id, accountadmin.yaml); 400 when a 2-legged token names
 * nobody, 403 when it names someone who is not a user of the account.
 */
export function actingUser(req: Request, ctx: RequestContext, acc: AdminAccount): AdminUser | undefined {
  const uid = ctx.token?.userid;
  if (uid) return acc.users.find((u) => u.uid === uid);
  const named = req.headers.get("user-id")?.trim();
  if (!named) throw adminError(400, "ERR_BAD_INPUT", "'User-Id' is required with a 2-legged token");
  const user = acc.users.find((u) => u.id === named || u.uid === named);
  if (!user) throw adminError(403, "ERR_NOT_ALLOWED", `'User-Id' ${named} is not a user of the account`);
  return user;
}

/** The JSON object body of a write; 415 when it is not JSON, 400 when it is not an object. */
export async function objectBody(req: Request): Promise<Record<string, unknown>> {
  if (!(req.headers.get("content-type") ?? "").includes("application/json")) {
    throw adminError(415, "ERR_UNSUPPORTED_MEDIA_TYPE", "The request body must be application/json");
  }
  const body = await readJson(req);
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw adminError(400, "ERR_BAD_INPUT", "The request body must be a JSON object");
  }
  return body as Record<string, unknown>;
}

/** An account user as HQ answers it (User); unset fields are left out (the file types them as non-nullable strings). */
export function hqUserBody(u: AdminUser, acc: AdminAccount): Record<string, unknown> {
  const company = acc.companies.find((c) => c.id === u.companyId)?.name;
  const name = `${u.firstName} ${u.lastName}`.trim();
  return {
    id: u.id,
    account_id: acc.id,
    role: u.role,
    status: u.status,
    company_id: u.companyId || undefined,
    company_name: company,
    last_sign_in: u.status === "active" ? iso(u.createdMs + 3_600_000) : undefined,
    email: u.email,
    name: name || undefined,
    nickname: u.firstName || undefined,
    first_name: u.firstName || undefined,
    last_name: u.lastName || undefined,
    uid: u.uid || undefined,
    company,
    job_title: u.jobTitle || undefined,
    created_at: iso(u.createdMs),
    updated_at: iso(u.createdMs),
  };
}

/** A new project of `acc`, stored: the defaults of a created project (active, no place, now), then `fields`. */
export function storeNewProject(
  acc: AdminAccount,
  now: number,
  fields: Partial<AdminProject> & Pick<AdminProject, "region" | "name" | "type" | "platform">,
): AdminProject {
  const project: AdminProject = {
    id: crypto.randomUUID(),
    accountId: acc.id,
    classification: "production",
    status: "active",
    jobNumber: null,
    city: null,
    country: null,
    timezone: null,
    startDate: null,
    endDate: null,
    productKeys: ["docs"],
    templateId: null,
    createdMs: now,
    updatedMs: now,
    ...fields,
  };
  acc.projects.set(project.id, project);
  return project;
}
