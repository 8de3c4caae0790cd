/**
 * Account administration, ACC Admin v1: projects of an account, their users
 * (list, add, remove) and the account's companies; the BIM 360 HQ v1 half is admin_hq.ts. Plain
 * functions over an injected Http; reading needs `account:read`, writing `account:write`.
 * Account and project ids come checked, as the bare GUIDs (aps/dm_ids.ts `accId`).
 * Every request takes an optional `region`, sent as the `Region` header (absent: the platform's
 * default, US), so that accounts hosted in another data centre can be reached.
 */
import { segment } from "../../http/path.ts";
import type { AccAccountId, AccProjectId } from "../../aps/ids.ts";
import type { Http, RequestSpec } from "../../http/http.ts";
import { fetchPage, type PageResult, paginate } from "../../http/pagination.ts";
import { ACCOUNT_READ, ACCOUNT_WRITE } from "../../aps/scope_constants.ts";

/** Page size of ACC Admin lists (their maximum). */
const ACC_PAGE = 200;

const ADMIN = "/construction/admin/v1";

/** The data centre a request is routed to (absent: the platform's default, US), and the user a 2-legged write acts for. */
export interface RegionOption {
  region?: string;
  /** Sent as `User-Id`: the user an app's (2-legged) request acts for. */
  userId?: string;
}

/** The `Region` and `User-Id` headers of an admin request. */
export function adminHeaders(opts: RegionOption = {}): Record<string, string> {
  return {
    ...(opts.region ? { Region: opts.region } : {}),
    ...(opts.userId ? { "User-Id": opts.userId } : {}),
  };
}

/** A project of an account, with the platform's field names. */
export interface AccountProject {
  id: string;
  name: string;
  type: string;
  status: string;
  classification?: string;
  platform?: string;
  accountId?: string;
  jobNumber?: string | null;
  createdAt?: string;
  memberCount?: number;
  [field: string]: unknown;
}

/** What a new project is created from (`name` and `type` are required by the platform). */
export interface ProjectInput {
  name: string;
  type: string;
  classification?: string;
  jobNumber?: string;
  startDate?: string;
  endDate?: string;
  /** Clone this project (a template) instead of starting empty. */
  templateId?: AccProjectId;
}

/** A user of a project (ACC Admin, camelCase fields). */
export interface ProjectUser {
  id: string;
  email: string;
  name?: string;
  companyName?: string | null;
  status?: string;
  accessLevels?: { accountAdmin?: boolean; projectAdmin?: boolean; executive?: boolean };
  [field: string]: unknown;
}

/** Filters of the project list. */
export interface ProjectFilters {
  /** Statuses to include: active, pending, archived, suspended. */
  status?: string[];
  /** A name fragment (the platform matches `contains` by default). */
  name?: string;
  /** Classifications to include: production, template, component, sample. */
  classification?: string[];
}

/** The first page request of an account's project list (pagination scheme "acc"). */
export function accountProjectsRequest(
  accountId: AccAccountId,
  filters: ProjectFilters & RegionOption = {},
): RequestSpec {
  return {
    path: `${ADMIN}/accounts/${segment(accountId)}/projects`,
    headers: adminHeaders(filters),
    query: {
      limit: ACC_PAGE,
      "filter[status]": filters.status?.join(","),
      "filter[name]": filters.name,
      "filter[classification]": filters.classification?.join(","),
    },
    key: `account ${accountId}`,
    scope: ACCOUNT_READ,
  };
}

/** The first page request of a project's user list (pagination scheme "acc"). */
export function projectUsersRequest(projectId: AccProjectId, opts: RegionOption = {}): RequestSpec {
  return {
    path: `${ADMIN}/projects/${segment(projectId)}/users`,
    headers: adminHeaders(opts),
    query: { limit: ACC_PAGE },
    resource: "project",
    scope: ACCOUNT_READ,
  };
}

/** How many projects of an account (in the call's region) are on `platform`, or on any platform. */
export async function countAccountProjects(
  http: Http,
  accountId: AccAccountId,
  opts: RegionOption & { platform?: string } = {},
): Promise<number> {
  const res = await http.request<{ pagination?: { totalResults?: number }; results?: unknown[] }>({
    path: `${ADMIN}/accounts/${segment(accountId)}/projects`,
    headers: adminHeaders(opts),
    query: { limit: 1, "filter[platform]": opts.platform },
    key: `account ${accountId}`,
    scope: ACCOUNT_READ,
  });
  return res.data.pagination?.totalResults ?? res.data.results?.length ?? 0;
}

/** Every project of an account that passes the filters, following every page. */
export function listAccountProjects(
  http: Http,
  accountId: AccAccountId,
  opts: ProjectFilters & RegionOption & { limit?: number } = {},
): AsyncGenerator<AccountProject> {
  return paginate<AccountProject>(http, accountProjectsRequest(accountId, opts), "acc", {
    limit: opts.limit,
  });
}

/** Creates a project; the platform accepts it (202) with status `pending` and provisions it after. */
export async function createAccountProject(
  http: Http,
  accountId: AccAccountId,
  input: ProjectInput,
  opts: RegionOption = {},
): Promise<AccountProject> {
  const { templateId, ...fields } = input;
  const res = await http.request<AccountProject>({
    method: "POST",
    path: `${ADMIN}/accounts/${segment(accountId)}/projects`,
    headers: adminHeaders(opts),
    json: { ...fields, ...(templateId ? { template: { projectId: templateId } } : {}) },
    key: `account ${accountId}`,
    scope: ACCOUNT_WRITE,
  });
  return res.data;
}

/** A project by id; 404 becomes "Project not found". */
export async function getProject(
  http: Http,
  projectId: AccProjectId,
  opts: RegionOption = {},
): Promise<AccountProject> {
  const res = await http.request<AccountProject>({
    path: `${ADMIN}/projects/${segment(projectId)}`,
    headers: adminHeaders(opts),
    resource: "project",
    scope: ACCOUNT_READ,
  });
  return res.data;
}

/** Every user of a project, following every page. */
export function listProjectUsers(
  http: Http,
  projectId: AccProjectId,
  opts: RegionOption & { limit?: number } = {},
): AsyncGenerator<ProjectUser> {
  return paginate<ProjectUser>(http, projectUsersRequest(projectId, opts), "acc", { limit: opts.limit });
}

/** One page of a project's users, from the platform's offset (the tool server's paging). */
export function projectUsersPage(
  http: Http,
  projectId: AccProjectId,
  opts: RegionOption & { limit: number; cursor?: string },
): Promise<PageResult<ProjectUser>> {
  const { limit, cursor } = opts;
  return fetchPage<ProjectUser>(http, projectUsersRequest(projectId, opts), "acc", { limit, cursor });
}

/** What a user is added to a project with (accountadmin.yaml `ProjectUserPayload`). */
export interface ProjectUserInput {
  email: string;
  companyId?: string;
  roleIds?: string[];
  products: { key: string; access: string }[];
}

/** Adds a user to a project (201); an e-mail the account does not know joins its directory. */
export async function addProjectUser(
  http: Http,
  projectId: AccProjectId,
  input: ProjectUserInput,
  opts: RegionOption = {},
): Promise<ProjectUser> {
  const res = await http.request<ProjectUser>({
    method: "POST",
    path: `${ADMIN}/projects/${segment(projectId)}/users`,
    headers: adminHeaders(opts),
    json: input,
    resource: "project",
    scope: ACCOUNT_WRITE,
  });
  return res.data;
}

/** Removes a user (account user id or Autodesk id) from a project (204). */
export async function removeProjectUser(
  http: Http,
  projectId: AccProjectId,
  userId: string,
  opts: RegionOption = {},
): Promise<void> {
  await http.request({
    method: "DELETE",
    path: `${ADMIN}/projects/${segment(projectId)}/users/${segment(userId)}`,
    headers: adminHeaders(opts),
    key: `project member ${userId}`,
    responseType: "none",
    scope: ACCOUNT_WRITE,
  });
}

/** A company of an account (ACC Admin `AccountCompany`, HQ `Company`). */
export interface AccountCompany {
  id: string;
  name: string;
  trade?: string;
  [field: string]: unknown;
}

/** Every company of an ACC account, following every page. */
export function listAccCompanies(
  http: Http,
  accountId: AccAccountId,
  opts: RegionOption & { limit?: number } = {},
): AsyncGenerator<AccountCompany> {
  const first: RequestSpec = {
    path: `${ADMIN}/accounts/${segment(accountId)}/companies`,
    headers: adminHeaders(opts),
    query: { limit: ACC_PAGE },
    key: `account ${accountId}`,
    scope: ACCOUNT_READ,
  };
  return paginate<AccountCompany>(http, first, "acc", { limit: opts.limit });
}
