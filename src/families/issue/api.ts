/**
 * ACC Issues v1 (openapi/construction/issues/Issues.yaml): issues, their types, comments and attachments,
 * under `/construction/issues/v1/projects/{projectId}` with the project's bare GUID. Plain
 * functions over an injected Http acting as the user; reading needs `data:read`, writing
 * `data:write`. Lists are ACC offset pages, followed to the end unless a limit stops them.
 * A failure names the project (403: not a member / 404: project not found) or the record.
 */
import type { AccProjectId } from "../../aps/ids.ts";
import type { Http, RequestSpec } from "../../http/http.ts";
import { paginate } from "../../http/pagination.ts";
import { segment } from "../../http/path.ts";
import { DATA_READ, DATA_WRITE } from "../../aps/scope_constants.ts";

/** Largest page of the issues and comments lists. */
const PAGE = 100;

/** An issue with the platform's field names (Issues.yaml `Issue`). */
export interface Issue {
  id: string;
  displayId: number;
  title: string;
  status: string;
  issueTypeId?: string;
  issueSubtypeId?: string;
  assignedTo?: string | null;
  assignedToType?: string | null;
  dueDate?: string | null;
  permittedStatuses?: string[];
  [field: string]: unknown;
}

/** An issue type (UI: category) with its subtypes (UI: types). */
export interface IssueType {
  id: string;
  title: string;
  isActive: boolean;
  subtypes?: { id: string; title: string; code?: string; isActive: boolean; [field: string]: unknown }[];
  [field: string]: unknown;
}

/** A comment of an issue. */
export interface IssueComment {
  id: string;
  body: string;
  createdAt?: string;
  createdBy?: string;
  [field: string]: unknown;
}

/** An attachment of an issue. */
export interface IssueAttachment {
  attachmentId: string;
  displayName: string;
  fileName: string;
  storageUrn: string;
  fileSize?: number;
  [field: string]: unknown;
}

/** The fields a client may send when creating or updating an issue (Issues.yaml `IssuePayload`). */
export type IssuePayload = Record<string, unknown>;

/** Server-side filters of the issues list (each a comma list on the wire). */
export interface IssueFilters {
  status?: string[];
  assignedTo?: string[];
  issueTypeId?: string[];
  issueSubtypeId?: string[];
  search?: string;
  /** The issue's number in the project (#N). */
  displayId?: number;
  sortBy?: string;
}

function base(project: AccProjectId): string {
  return `/construction/issues/v1/projects/${segment(project)}`;
}

function spec(project: AccProjectId, path: string, write: boolean, record?: string): RequestSpec {
  return {
    path: `${base(project)}${path}`,
    scope: write ? DATA_WRITE : DATA_READ,
    resource: record ? "acc-record" : "acc-project",
    key: record,
  };
}

const list = (values?: string[]) => values?.length ? values.join(",") : undefined;

/** The first page request of a project's issues (pagination scheme "acc"). */
export function issuesRequest(project: AccProjectId, filters: IssueFilters = {}): RequestSpec {
  return {
    ...spec(project, "/issues", false),
    query: {
      limit: PAGE,
      "filter[status]": list(filters.status),
      "filter[assignedTo]": list(filters.assignedTo),
      "filter[issueTypeId]": list(filters.issueTypeId),
      "filter[issueSubtypeId]": list(filters.issueSubtypeId),
      "filter[search]": filters.search,
      "filter[displayId]": filters.displayId,
      sortBy: filters.sortBy,
    },
  };
}

/** Every issue that passes the filters, following every page up to `limit`. */
export function listIssues(
  http: Http,
  project: AccProjectId,
  filters: IssueFilters = {},
  limit?: number,
): AsyncGenerator<Issue> {
  return paginate<Issue>(http, issuesRequest(project, filters), "acc", { limit });
}

/** The caller's profile in the project (`users/me`): their Autodesk id and what they may do. */
export async function getMe(
  http: Http,
  project: AccProjectId,
): Promise<{ id: string; [field: string]: unknown }> {
  return (await http.request<{ id: string }>(spec(project, "/users/me", false))).data;
}

/** One issue; 404 is "Not found: issue <id>". */
export async function getIssue(http: Http, project: AccProjectId, issueId: string): Promise<Issue> {
  return (await http.request<Issue>(spec(project, `/issues/${segment(issueId)}`, false, `issue ${issueId}`)))
    .data;
}

/** Creates an issue (`title`, `issueSubtypeId` and `status` are required by the platform). */
export async function createIssue(http: Http, project: AccProjectId, payload: IssuePayload): Promise<Issue> {
  return (await http.request<Issue>({ ...spec(project, "/issues", true), method: "POST", json: payload }))
    .data;
}

/** Changes the fields of `payload` (only those) on an issue. */
export async function updateIssue(
  http: Http,
  project: AccProjectId,
  issueId: string,
  payload: IssuePayload,
): Promise<Issue> {
  return (await http.request<Issue>({
    ...spec(project, `/issues/${segment(issueId)}`, true, `issue ${issueId}`),
    method: "PATCH",
    json: payload,
  })).data;
}

/** The project's issue types with their subtypes, every page. */
export function listIssueTypes(http: Http, project: AccProjectId): AsyncGenerator<IssueType> {
  const request = { ...spec(project, "/issue-types", false), query: { include: "subtypes", limit: 200 } };
  return paginate<IssueType>(http, request, "acc");
}

/** An issue's comments, oldest first, every page up to `limit`. */
export function listComments(
  http: Http,
  project: AccProjectId,
  issueId: string,
  limit?: number,
): AsyncGenerator<IssueComment> {
  const request = {
    ...spec(project, `/issues/${segment(issueId)}/comments`, false, `issue ${issueId}`),
    query: { limit: PAGE },
  };
  return paginate<IssueComment>(http, request, "acc", { limit });
}

/** Adds a comment to an issue. */
export async function addComment(
  http: Http,
  project: AccProjectId,
  issueId: string,
  body: string,
): Promise<IssueComment> {
  return (await http.request<IssueComment>({
    ...spec(project, `/issues/${segment(issueId)}/comments`, true, `issue ${issueId}`),
    method: "POST",
    json: { body },
  })).data;
}

/** An issue's attachments (the platform answers them all at once). */
export async function listAttachments(
  http: Http,
  project: AccProjectId,
  issueId: string,
): Promise<IssueAttachment[]> {
  const res = await http.request<{ attachments?: IssueAttachment[] }>(
    spec(project, `/attachments/${segment(issueId)}/items`, false, `issue ${issueId}`),
  );
  return res.data?.attachments ?? [];
}

/** What an attachment record is made from: an object uploaded to the project's storage. */
export interface AttachmentInput {
  attachmentId: string;
  displayName: string;
  /** The storage object's name, `<guid>.<ext>`. */
  fileName: string;
  storageUrn: string;
}

/** Attaches uploaded objects to an issue. */
export async function addAttachments(
  http: Http,
  project: AccProjectId,
  issueId: string,
  items: AttachmentInput[],
): Promise<IssueAttachment[]> {
  const res = await http.request<{ attachments?: IssueAttachment[] }>({
    ...spec(project, "/attachments", true, `issue ${issueId}`),
    method: "POST",
    json: {
      domainEntityId: issueId,
      attachments: items.map((a) => ({ ...a, attachmentType: "issue-attachment" })),
    },
  });
  return res.data?.attachments ?? [];
}
