/**
 * The account-admin user operations of accountadmin.yaml that the official Node SDK calls
 * (`@aps_sdk/construction-account-admin`): one project user (`getProjectUser`), the v2 project
 * users import (`importProjectUsers`, 202 `{jobId}`; the sandbox adds the users at once), and the
 * HQ account users: one user (`getUser`), a status or default-company change (`patchUserDetails`)
 * and an import of many (`importUsers`, 201 with the users added and those refused).
 */

import { nowMs } from "../clock.ts";
import type { RequestContext } from "../context.ts";
import { adminError, notFound, SandboxError } from "../errors.ts";
import { json, readJson } from "../respond.ts";
import type { Route } from "../router.ts";
import {
  account,
  actingUser,
  hqUserBody,
  objectBody,
  projectOr404,
  projectUserBody,
  requestRegion,
} from "./common.ts";
import { addUserFrom } from "./routes_hq.ts";
import { addMemberFrom } from "./routes_members.ts";
import type { AdminAccount, AdminUser } from "./store.ts";

const ADMIN = "/construction/admin";
const HQ = "/hq/v1/accounts";

/** The user `id` names (an account user id or an Autodesk id), else the platform's 404. */
function userOr404(acc: AdminAccount, id: string): AdminUser {
  const user = acc.users.find((u) => u.id === id || (u.uid !== "" && u.uid === id));
  if (!user) throw adminError(404, "ERR_NOT_FOUND", `User '${id}' not found`);
  return user;
}

function getProjectUser(req: Request, ctx: RequestContext): Response {
  const { project, acc } = projectOr404(req, ctx);
  const user = userOr404(acc, ctx.params.userId);
  const member = (acc.members.get(project.id) ?? []).find((m) => m.userId === user.id);
  if (!member) {
    throw adminError(404, "ERR_NOT_FOUND", `User '${ctx.params.userId}' is not a member of the project`);
  }
  return json(200, projectUserBody(member, project, acc));
}

async function importProjectUsers(req: Request, ctx: RequestContext): Promise<Response> {
  const { project, acc } = projectOr404(req, ctx);
  actingUser(req, ctx, acc);
  const b = await objectBody(req);
  if (!Array.isArray(b.users) || b.users.length === 0) {
    throw adminError(400, "ERR_BAD_INPUT", "'users' is required: an array of users to import");
  }
  if (b.users.length > 200) throw adminError(400, "ERR_BAD_INPUT", "'users' takes at most 200 users");
  const now = nowMs(ctx.sandbox.clock);
  for (const u of b.users) {
    if (!u || typeof u !== "object") throw adminError(400, "ERR_BAD_INPUT", "'users[]' must be objects");
    addMemberFrom(u as Record<string, unknown>, project, acc, now);
  }
  return json(202, { jobId: crypto.randomUUID() });
}

function getUser(req: Request, ctx: RequestContext): Response {
  requestRegion(req);
  const acc = account(ctx);
  return json(200, hqUserBody(userOr404(acc, ctx.params.userId), acc));
}

async function patchUser(req: Request, ctx: RequestContext): Promise<Response> {
  requestRegion(req);
  const acc = account(ctx);
  const user = userOr404(acc, ctx.params.userId);
  const b = await objectBody(req);
  const unknown = Object.keys(b).find((k) => k !== "status" && k !== "company_id");
  if (unknown !== undefined) throw adminError(400, "ERR_BAD_INPUT", `'${unknown}' cannot be changed`);
  if (b.status !== undefined) {
    if (b.status !== "active" && b.status !== "inactive") {
      throw adminError(400, "ERR_BAD_INPUT", "'status' must be one of active, inactive");
    }
    // accountadmin.yaml: the status changes only for a user who is not pending or not invited.
    if (user.status === "pending") {
      throw adminError(400, "ERR_BAD_INPUT", `A ${user.status} user's status cannot be changed`);
    }
    user.status = b.status;
  }
  if (b.company_id !== undefined) {
    if (!acc.companies.some((c) => c.id === b.company_id)) {
      throw adminError(400, "ERR_BAD_INPUT", `'company_id' ${b.company_id} is not a company of the account`);
    }
    user.companyId = b.company_id as string;
  }
  return json(200, hqUserBody(user, acc));
}

async function importUsers(req: Request, ctx: RequestContext): Promise<Response> {
  const region = requestRegion(req);
  const acc = account(ctx);
  if (!(req.headers.get("content-type") ?? "").includes("application/json")) {
    throw adminError(415, "ERR_UNSUPPORTED_MEDIA_TYPE", "The request body must be application/json");
  }
  const rows = await readJson(req);
  if (!Array.isArray(rows)) throw adminError(400, "ERR_BAD_INPUT", "The request body must be a JSON array");
  const now = nowMs(ctx.sandbox.clock);
  const success: Record<string, unknown>[] = [];
  const failure: Record<string, unknown>[] = [];
  for (const row of rows) {
    try {
      if (!row || typeof row !== "object") {
        throw adminError(400, "ERR_BAD_INPUT", "each user must be an object");
      }
      success.push(hqUserBody(addUserFrom(row as Record<string, unknown>, acc, region, now), acc));
    } catch (e) {
      if (!(e instanceof SandboxError)) throw e;
      const message = (e.fields as { message?: string }).message;
      failure.push({ ...(row && typeof row === "object" ? row : {}), error: message });
    }
  }
  return json(201, {
    success: success.length,
    failure: failure.length,
    success_items: success,
    failure_items: failure,
  });
}

const READ = ["account:read"];
const WRITE = ["account:write"];

/** Routes of the account-admin user operations the official SDK calls. */
export const userRoutes: readonly Route[] = [
  {
    method: "GET",
    pattern: `${ADMIN}/v1/projects/:projectId/users/:userId`,
    scopes: READ,
    handler: getProjectUser,
  },
  {
    method: "POST",
    pattern: `${ADMIN}/v2/projects/:projectId/users:import`,
    scopes: WRITE,
    handler: importProjectUsers,
  },
  { method: "POST", pattern: `${HQ}/:accountId/users/import`, scopes: WRITE, handler: importUsers },
  // HQ's user search is not emulated: its path must not reach the one-user routes below.
  {
    method: "GET",
    pattern: `${HQ}/:accountId/users/search`,
    scopes: [],
    handler: () => Promise.reject(notFound()),
  },
  { method: "GET", pattern: `${HQ}/:accountId/users/:userId`, scopes: READ, handler: getUser },
  { method: "PATCH", pattern: `${HQ}/:accountId/users/:userId`, scopes: WRITE, handler: patchUser },
];
