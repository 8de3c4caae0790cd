/**
 * Account administration (aps-api.md §9): projects and project users of an account (ACC Admin
 * v1) and the account's member directory (BIM 360 HQ v1). Plain functions over an injected Http;
 * reading needs `account:read`, creating `account:write`, both granted only to a user's login.
 * Account and project ids come checked, as the bare GUIDs (aps/dm_ids.ts `accId`).
 * Every request takes an optional `region`, sent as the `Region` header (absent: the platform's
 * default, US), so that accounts hosted in another data centre can be reached.
 */
import { segment } from "./path.ts";
import type { AccAccountId, AccProjectId } from "../aps/ids.ts";
import type { Http, RequestSpec } from "./http.ts";
import { paginate } from "./pagination.ts";

/** Scope of reading account administration data. */
export const ACCOUNT_READ = "account:read";
/** Scope of changing account administration data. */
export const ACCOUNT_WRITE = "account:write";

/** Page size of ACC Admin lists (their maximum). */
const ACC_PAGE = 200;
/** Page size of HQ lists (their maximum). */
const HQ_PAGE = 100;

const ADMIN = "/construction/admin/v1";

/** The data centre a request is routed to; absent, the platform's default (US). */
export interface RegionOption {
  region?: string;
}

function regionHeaders(region?: string): Record<string, string> {
  return region ? { Region: region } : {};
}

/** A project of an account, with the platform's field names (aps-api.md §9.1). */
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

/** A user of an account's member directory (HQ, snake_case fields). */
export interface AccountUser {
  id: string;
  email: string;
  name?: string;
  role?: string;
  status?: string;
  company_name?: string | null;
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
    headers: regionHeaders(filters.region),
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
    headers: regionHeaders(opts.region),
    query: { limit: ACC_PAGE },
    resource: "project",
    scope: ACCOUNT_READ,
  };
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
    headers: regionHeaders(opts.region),
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
    headers: regionHeaders(opts.region),
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

/**
 * Every user of an account's member directory. HQ answers a bare array paged by `limit`/`offset`
 * with no total, so a page shorter than the page size is the last.
 */
export async function* listAccountUsers(
  http: Http,
  accountId: AccAccountId,
  opts: RegionOption & { limit?: number } = {},
): AsyncGenerator<AccountUser> {
  const path = `/hq/v1/accounts/${segment(accountId)}/users`;
  if (opts.limit !== undefined && opts.limit <= 0) return;
  let count = 0;
  for (let offset = 0;; offset += HQ_PAGE) {
    const res = await http.request<AccountUser[]>({
      path,
      query: { limit: HQ_PAGE, offset },
      headers: regionHeaders(opts.region),
      key: `account ${accountId}`,
      scope: ACCOUNT_READ,
    });
    const users = Array.isArray(res.data) ? res.data : [];
    for (const u of users) {
      yield u;
      if (opts.limit !== undefined && ++count >= opts.limit) return;
    }
    if (users.length < HQ_PAGE) return;
  }
}
