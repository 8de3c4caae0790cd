/**
 * ACC Admin v1 project members and companies (accountadmin.yaml): add a user to a project (201
 * `ProjectUserDetails`; an e-mail the account does not know joins its directory as pending),
 * remove one (204), and the account's companies (`CompaniesPage`). Writes act for the token's user
 * or, with a 2-legged token, the user its `User-Id` header names.
 */

import { EMAIL_PATTERN, PRODUCT_ACCESS, PRODUCT_KEYS } from "../../aps/admin.ts";
import { nowMs } from "../clock.ts";
import type { RequestContext } from "../context.ts";
import { adminError } from "../errors.ts";
import { empty, json } from "../respond.ts";
import type { Route } from "../router.ts";
import {
  account,
  actingUser,
  badText,
  iso,
  objectBody,
  offsetPage,
  projectOr404,
  projectUserBody,
  requestRegion,
  window,
} from "./common.ts";
import { addAccountUser } from "./routes_hq.ts";
import type { AdminAccount, AdminMember, AdminProject } from "./store.ts";

const ADMIN = "/construction/admin/v1";

/** The first problem of a `ProjectUserPayload`, or undefined. */
function memberProblem(b: Record<string, unknown>, acc: AdminAccount): string | undefined {
  const text = badText("email", b.email, 255, true) ??
    (EMAIL_PATTERN.test(String(b.email).trim()) ? undefined : "'email' must be an e-mail address") ??
    badText("companyId", b.companyId, 255);
  if (text) return text;
  if (b.companyId !== undefined && !acc.companies.some((c) => c.id === b.companyId)) {
    return `'companyId' ${b.companyId} is not a company of the account`;
  }
  if (b.roleIds !== undefined) {
    if (!Array.isArray(b.roleIds)) return "'roleIds' must be an array of role ids";
    const bad = b.roleIds.find((r) => !acc.roles.some((x) => x.id === r));
    if (bad !== undefined) return `'roleIds' names an unknown role ${JSON.stringify(bad)}`;
  }
  if (!Array.isArray(b.products)) return "'products' is required: an array of {key, access}";
  for (const p of b.products as { key?: unknown; access?: unknown }[]) {
    if (!PRODUCT_KEYS.includes(String(p?.key))) {
      return `'products[].key' must be one of ${PRODUCT_KEYS.join(", ")}`;
    }
    if (!PRODUCT_ACCESS.includes(String(p?.access))) {
      return `'products[].access' must be one of ${PRODUCT_ACCESS.join(", ")}`;
    }
  }
  return undefined;
}

/** Adds the member a `ProjectUserPayload` describes to `project`; throws the platform's 400 or 409. */
export function addMemberFrom(
  b: Record<string, unknown>,
  project: AdminProject,
  acc: AdminAccount,
  now: number,
): AdminMember {
  const problem = memberProblem(b, acc);
  if (problem) throw adminError(400, "ERR_BAD_INPUT", problem);
  const email = (b.email as string).trim().toLowerCase();
  const user = acc.users.find((u) => u.email.toLowerCase() === email) ??
    addAccountUser(acc, { email, region: project.region, now, companyId: b.companyId as string | undefined });
  const members = acc.members.get(project.id) ?? [];
  if (members.some((m) => m.userId === user.id)) {
    throw adminError(409, "ERR_CONFLICT", `'${email}' is already a member of the project`);
  }
  const products = b.products as { key: string; access: string }[];
  const member: AdminMember = {
    userId: user.id,
    projectAdmin: products.some((p) => p.access === "administrator"),
    roleIds: (b.roleIds as string[] | undefined) ?? [],
    addedMs: now,
  };
  acc.members.set(project.id, [...members, member]);
  return member;
}

async function addMember(req: Request, ctx: RequestContext): Promise<Response> {
  const { project, acc } = projectOr404(req, ctx);
  actingUser(req, ctx, acc);
  const b = await objectBody(req);
  const member = addMemberFrom(b, project, acc, nowMs(ctx.sandbox.clock));
  return json(201, projectUserBody(member, project, acc));
}

async function removeMember(req: Request, ctx: RequestContext): Promise<Response> {
  const { project, acc } = projectOr404(req, ctx);
  actingUser(req, ctx, acc);
  await req.body?.cancel();
  const id = ctx.params.userId;
  const user = acc.users.find((u) => u.id === id || (u.uid !== "" && u.uid === id));
  const members = acc.members.get(project.id) ?? [];
  if (!user || !members.some((m) => m.userId === user.id)) {
    throw adminError(404, "ERR_NOT_FOUND", `User '${id}' is not a member of the project`);
  }
  acc.members.set(project.id, members.filter((m) => m.userId !== user.id));
  return empty(204);
}

function listCompanies(req: Request, ctx: RequestContext): Response {
  requestRegion(req);
  const acc = account(ctx);
  const win = window(ctx, 20, 200);
  const companies = acc.companies.map((c) => {
    const users = acc.users.filter((u) => u.companyId === c.id);
    const projects = [...acc.members.entries()].filter(([, ms]) =>
      ms.some((m) => users.some((u) => u.id === m.userId))
    );
    return {
      id: c.id,
      accountId: acc.id,
      name: c.name,
      trade: "General Contractor",
      addresses: [],
      status: "active",
      createdAt: iso(Date.UTC(2024, 0, 15)),
      updatedAt: iso(Date.UTC(2024, 0, 15)),
      originalName: c.name,
      projectSize: projects.length,
      userSize: users.length,
    };
  });
  return offsetPage(ctx, companies, win, "null");
}

const READ = ["account:read"];
const WRITE = ["account:write"];

/** Routes of ACC Admin v1 project members and companies. */
export const memberRoutes: readonly Route[] = [
  { method: "POST", pattern: `${ADMIN}/projects/:projectId/users`, scopes: WRITE, handler: addMember },
  {
    method: "DELETE",
    pattern: `${ADMIN}/projects/:projectId/users/:userId`,
    scopes: WRITE,
    handler: removeMember,
  },
  { method: "GET", pattern: `${ADMIN}/accounts/:accountId/companies`, scopes: READ, handler: listCompanies },
];
