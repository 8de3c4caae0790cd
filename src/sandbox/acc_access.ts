/**
 * Who may see a construction-cloud project (issues, RFIs, assets, submittals, checklists): the
 * project must exist in an account of the admin store, the token must act for a user (these
 * services refuse the app alone), that user must be a member of the project, and the token must
 * carry the data scope the operation needs. Every construction-cloud route asks here first.
 */
import { type AdminProject, findProject } from "./admin/store.ts";
import type { RequestContext } from "./context.ts";
import { adminError } from "./errors.ts";

/** What an operation does to the project's data. */
export type AccNeed = "read" | "write";

const SCOPES: Record<AccNeed, readonly string[]> = {
  read: ["data:read", "data:write", "data:create"],
  write: ["data:write", "data:create"],
};

/**
 * The scopes a construction-cloud route lets through to its handler: any scope of data or account
 * access, so that `accProject` (not the gateway) refuses a token that lacks the data scope it needs,
 * with the service's own 403.
 */
export const ACC_ROUTE_SCOPES: readonly string[] = [
  "data:read",
  "data:write",
  "data:create",
  "account:read",
  "account:write",
];

/** The project the route names, when the caller may `need` it; else the platform's 404 or 403. */
export function accProject(ctx: RequestContext, projectId: string, need: AccNeed): AdminProject {
  const project = findProject(ctx.sandbox.admin, projectId);
  if (!project) throw adminError(404, "ERR_NOT_FOUND", `project ${projectId} not found`);
  const { users, members } = ctx.sandbox.admin.accounts.get(project.accountId)!;
  const userid = ctx.token?.userid;
  if (!userid) throw adminError(403, "ERR_NOT_ALLOWED", "this operation needs a user's token (3-legged)");
  const user = users.find((u) => u.uid === userid);
  if (!user || !(members.get(projectId) ?? []).some((m) => m.userId === user.id)) {
    throw adminError(403, "ERR_NOT_ALLOWED", "the user is not a member of this project");
  }
  const scopes = ctx.token?.scope ?? [];
  if (!SCOPES[need].some((s) => scopes.includes(s))) {
    throw adminError(403, "ERR_INSUFFICIENT_SCOPE", `the token lacks ${SCOPES[need][0]}`);
  }
  return project;
}
