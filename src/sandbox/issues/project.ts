/** The project and issue an Issues route names, once the caller may use them (acc_access.ts). */
import { type AccNeed, accProject } from "../acc_access.ts";
import type { RequestContext } from "../context.ts";
import { adminError } from "../errors.ts";
import { type ProjectIssues, projectIssues, type StoredIssue } from "./store.ts";

/** The project the path names, when the caller may `need` it, and its issues data. */
export function issuesOf(ctx: RequestContext, need: AccNeed): { id: string; p: ProjectIssues; uid: string } {
  const id = ctx.params.projectId;
  accProject(ctx, id, need);
  return { id, p: projectIssues(ctx.sandbox.issues, id), uid: ctx.token!.userid! };
}

/** The issue the path names; 404 when the project has no such issue. */
export function issueOf(p: ProjectIssues, issueId: string): StoredIssue {
  const issue = p.issues.get(issueId);
  if (!issue) throw adminError(404, "ERR_NOT_FOUND", `issue ${issueId} not found`);
  return issue;
}
