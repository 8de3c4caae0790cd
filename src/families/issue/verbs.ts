/**
 * The issue verbs (`issue list|get|create|update|types|transition|comment|attachment`), always as
 * the logged-in user: without a login they stop before any request. Project ids arrive checked
 * (bare GUIDs). `update` reads the issue first and sends only the fields whose value changes;
 * `transition` moves an issue only to a status the platform permits from its current one. A create
 * or update body is assembled by families/acc/records.ts's `recordBody` from the given fields (flags, tool
 * arguments) over a `--from-file` body, as for the other construction-cloud records.
 */
import { fieldError } from "../../core/field_error.ts";
import { isIssueStatus, ISSUE_STATUSES, type IssueStatus } from "../../aps/issues.ts";
import type { AccProjectId } from "../../aps/ids.ts";
import { isGuid } from "../../aps/dm_ids.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import type { Http } from "../../http/http.ts";
import {
  addComment,
  createIssue,
  getIssue,
  getMe,
  type Issue,
  type IssueComment,
  type IssueFilters,
  type IssuePayload,
  issuesRequest,
  type IssueType,
  listComments,
  listIssues,
  listIssueTypes,
  updateIssue,
} from "./api.ts";
import { fetchPage } from "../../http/pagination.ts";
import type { BodyShape } from "../../session/body_file.ts";
import type { OpsDeps } from "../../session/deps.ts";
import type { ListOptions, ListPage } from "../../http/list.ts";
import { changesFrom, recordBody, type RecordInput, userHttp, withMe } from "../acc/records.ts";

export type { Issue, IssueAttachment, IssueComment, IssuePayload, IssueType } from "./api.ts";

/** Where every issue verb acts: a project (its bare GUID). */
export interface IssueProject {
  project: AccProjectId;
}

/** The fields of an issue body, from flags or a file (Issues.yaml `IssuePayload`). */
export const ISSUE_SHAPE: BodyShape = {
  title: "string",
  description: "string",
  issueSubtypeId: "string",
  status: "string",
  assignedTo: "string",
  assignedToType: "string",
  dueDate: "date",
  startDate: "date",
  locationId: "string",
  locationDetails: "string",
  rootCauseId: "string",
  published: "boolean",
  watchers: "string[]",
  customAttributes: "array",
  gpsCoordinates: "object",
  snapshotUrn: "string",
  issueTemplateId: "string",
};

/** The fields of an issue create or update: given fields (null clears one) and/or a body file. */
export type IssueInput = RecordInput;

/** Throws a usage error unless `value` is an issue status; `label` names where it was given. */
export function checkIssueStatus(value: string, label: string): IssueStatus {
  const v = value.trim().toLowerCase();
  if (!isIssueStatus(v)) {
    throw usageError(
      `${label} '${value}' is not an issue status`,
      `Use one of ${ISSUE_STATUSES.join(", ")}.`,
    );
  }
  return v;
}

/**
 * The payload of a create or update, checked before any request: the file's fields under the given
 * ones. An assignee given without its type is a user; a cleared assignee clears its type.
 */
async function issueBody(input: IssueInput): Promise<IssuePayload> {
  const fields = { ...input.fields };
  const flag = (f: string) => input.flagOf?.[f] ?? f;
  if (typeof fields.title === "string" && fields.title.trim() === "") {
    throw usageError(`${flag("title")} must not be empty`, `Example: ${flag("title")} 'Cracked slab edge'`);
  }
  if (fields.assignedTo === null) fields.assignedToType = null;
  else if (fields.assignedTo !== undefined) fields.assignedToType ??= "user";
  else delete fields.assignedToType;
  const body = await recordBody(ISSUE_SHAPE, { ...input, fields });
  if (typeof body.status === "string") checkIssueStatus(body.status, "status");
  return body;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Filters of `issue list`: the platform's, plus a due date the list is cut at (kept locally). */
export interface IssueListOptions extends IssueProject, IssueFilters {
  /** Only issues due before this date (YYYY-MM-DD); issues without a due date are left out. */
  dueBefore?: string;
  limit?: number;
}

/** The filters with `me` among the assignees replaced by the caller's Autodesk id. */
function withIssueMe<F extends IssueFilters & IssueProject>(http: Http, f: F): Promise<F> {
  return withMe(f, async () => (await getMe(http, f.project)).id);
}

/** `issue list`: every issue that passes the filters (`me` is the caller), every page, up to `limit`. */
export async function runIssueList(options: IssueListOptions, deps: OpsDeps): Promise<Issue[]> {
  const http = await userHttp(deps);
  const opts = await withIssueMe(http, options);
  if (opts.dueBefore === undefined) return await collect(listIssues(http, opts.project, opts, opts.limit));
  const out: Issue[] = [];
  for await (const issue of listIssues(http, opts.project, opts)) {
    if (typeof issue.dueDate !== "string" || issue.dueDate.slice(0, 10) >= opts.dueBefore) continue;
    out.push(issue);
    if (opts.limit !== undefined && out.length >= opts.limit) break;
  }
  return out;
}

/** One page of `issue list` for a caller that pages itself (the tool server). */
export async function runIssueListPage(
  opts: IssueProject & IssueFilters & ListOptions & { limit: number },
  deps: OpsDeps,
): Promise<ListPage<Issue>> {
  const http = await userHttp(deps);
  return await fetchPage<Issue>(
    http,
    issuesRequest(opts.project, await withIssueMe(http, opts)),
    "acc",
    opts,
  );
}

/**
 * The id of the issue `ref` names: a GUID as is, or the issue's number in the project (`42` or
 * `#42`), looked up with one request.
 */
export async function issueId(http: Http, project: AccProjectId, ref: string): Promise<string> {
  const n = /^#?(\d+)$/.exec(ref.trim())?.[1];
  if (n === undefined) return ref;
  const number = issueNumber(n);
  for await (const issue of listIssues(http, project, { displayId: number }, 1)) return issue.id;
  throw new DiazoError("not_found", { status: 404, params: { what: `issue #${n} in project ${project}` } });
}

/** The largest issue number: the platform's integers are 32-bit. */
export const MAX_ISSUE_NUMBER = 2_147_483_647;

/**
 * An issue number checked as a digit string before it becomes a number: past 2^53 a JavaScript
 * number rounds (99999999999999999999 would be sent as 100000000000000000000), so it is compared as
 * digits first; 0 and numbers over MAX_ISSUE_NUMBER are usage errors.
 */
export function issueNumber(digits: string): number {
  const trimmed = digits.replace(/^0+(?=\d)/, "");
  const n = trimmed.length <= 10 ? Number(trimmed) : Infinity;
  if (n >= 1 && n <= MAX_ISSUE_NUMBER) return n;
  throw usageError(
    `issue number ${digits.length > 24 ? `${digits.slice(0, 24)}…` : digits} is out of range`,
    `An issue number is 1 to ${MAX_ISSUE_NUMBER} (as \`issue list\` shows it), or pass the issue's id.`,
  );
}

/** `issue get`: one issue, by id or number. */
export async function runIssueGet(opts: IssueProject & { issue: string }, deps: OpsDeps): Promise<Issue> {
  const http = await userHttp(deps);
  return await getIssue(http, opts.project, await issueId(http, opts.project, opts.issue));
}

/** `issue types`: the project's issue types (categories) with their subtypes. */
export async function runIssueTypes(opts: IssueProject, deps: OpsDeps): Promise<IssueType[]> {
  return await collect(listIssueTypes(await userHttp(deps), opts.project));
}

/** The subtype id `subtype` names: an id as is, else a subtype title (or code) of an active type. */
async function subtypeId(http: Http, project: AccProjectId, subtype: string): Promise<string> {
  if (isGuid(subtype)) return subtype;
  const wanted = subtype.trim().toLowerCase();
  const known: string[] = [];
  for await (const type of listIssueTypes(http, project)) {
    for (const s of type.subtypes ?? []) {
      if (!type.isActive || !s.isActive) continue;
      known.push(s.title);
      if (s.title.toLowerCase() === wanted || s.code?.toLowerCase() === wanted) return s.id;
    }
  }
  throw fieldError({
    field: "issue_subtype_id",
    problem: `no issue type '${subtype}' in this project`,
    help: `Use a subtype id or one of: ${known.join(", ")} (see {step}).`,
    next: { command: `diazo issue types --project ${project}`, tool: "issue_types" },
  });
}

/** A payload whose `issueSubtypeId` may be a title: resolved to an id (one request) when it is. */
async function resolved(http: Http, project: AccProjectId, payload: IssuePayload): Promise<IssuePayload> {
  const sub = payload.issueSubtypeId;
  return typeof sub === "string"
    ? { ...payload, issueSubtypeId: await subtypeId(http, project, sub) }
    : payload;
}

/** `issue create`: `title` and `issueSubtypeId` are required, `status` defaults to open. */
export async function runIssueCreate(opts: IssueProject & IssueInput, deps: OpsDeps): Promise<Issue> {
  const body = await issueBody(opts);
  const missing = ["title", "issueSubtypeId"].filter((k) => body[k] === undefined);
  if (missing.length > 0) {
    const fields = missing.map((k) => k === "title" ? "title" : "issue_subtype_id");
    throw fieldError({
      field: fields[0],
      problem: `an issue needs ${fields.map((f) => `{${f}}`).join(" and ")}`,
      help: "Give them (or a body file that holds them); {step} lists the types.",
      next: { command: "diazo issue types --project <id>", tool: "issue_types" },
    });
  }
  const http = await userHttp(deps);
  const payload = await resolved(http, opts.project, { status: "open", ...body });
  return await createIssue(http, opts.project, payload);
}

/** What `issue update` did: the issue as it now is, and the fields it sent. */
export interface IssueUpdate {
  issue: Issue;
  changed: string[];
}

/**
 * `issue update`: reads the issue, then sends only the fields whose value differs from it (nothing
 * at all when none does). A status change must be one the platform permits (see `transition`).
 */
export async function runIssueUpdate(
  opts: IssueProject & IssueInput & { issue: string },
  deps: OpsDeps,
): Promise<IssueUpdate> {
  const body = await issueBody({ ...opts, defaults: undefined });
  if (Object.keys(body).length === 0) {
    throw usageError("nothing to update", "Give a field to change, e.g. --title, --status or --from-file.");
  }
  const http = await userHttp(deps);
  const current = await getIssue(http, opts.project, await issueId(http, opts.project, opts.issue));
  const payload = await resolved(http, opts.project, body);
  const changes = changesFrom(current, payload);
  // The platform takes an assignee with its type: a new assignee of the same type still names it.
  if (typeof changes.assignedTo === "string") changes.assignedToType = payload.assignedToType ?? "user";
  const changed = Object.keys(changes);
  if (typeof changes.status === "string") checkTransition(current, changes.status);
  if (changed.length === 0) return { issue: current, changed };
  return { issue: await updateIssue(http, opts.project, current.id, changes), changed };
}

/** Throws a usage error naming the permitted statuses unless `issue` may move to `to`. */
function checkTransition(issue: Issue, to: string): void {
  const allowed = issue.permittedStatuses ?? [];
  if (allowed.includes(to)) return;
  const what = isIssueStatus(to)
    ? `cannot move issue #${issue.displayId} from ${issue.status} to ${to}`
    : `'${to}' is not an issue status`;
  throw usageError(
    what,
    allowed.length
      ? `From ${issue.status} it may move to: ${allowed.join(", ")}.`
      : `No status change is permitted to you from ${issue.status}.`,
  );
}

/**
 * `issue transition`: moves an issue to `to` when the platform permits it from its current status.
 * An issue already there is left as it is (`moved` false, nothing sent): a script may run it twice.
 */
export async function runIssueTransition(
  opts: IssueProject & { issue: string; to: string },
  deps: OpsDeps,
): Promise<{ issue: Issue; moved: boolean }> {
  const http = await userHttp(deps);
  const current = await getIssue(http, opts.project, await issueId(http, opts.project, opts.issue));
  if (current.status === opts.to) return { issue: current, moved: false };
  checkTransition(current, opts.to);
  return {
    issue: await updateIssue(http, opts.project, current.id, { status: opts.to as IssueStatus }),
    moved: true,
  };
}

/** `issue comment`: adds a comment. */
export async function runIssueComment(
  opts: IssueProject & { issue: string; body: string },
  deps: OpsDeps,
): Promise<IssueComment> {
  if (opts.body.trim() === "" || opts.body.length > 10000) {
    throw usageError("a comment is 1 to 10000 characters", "Example: --body 'Checked on site, fixed.'");
  }
  const http = await userHttp(deps);
  return await addComment(http, opts.project, await issueId(http, opts.project, opts.issue), opts.body);
}

/** `issue comment list`: an issue's comments, every page up to `limit`. */
export async function runIssueCommentList(
  opts: IssueProject & { issue: string; limit?: number },
  deps: OpsDeps,
): Promise<IssueComment[]> {
  const http = await userHttp(deps);
  const id = await issueId(http, opts.project, opts.issue);
  return await collect(listComments(http, opts.project, id, opts.limit));
}
