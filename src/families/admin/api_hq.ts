/**
 * Account administration, BIM 360 HQ v1: a BIM 360 account's
 * projects (list, create), a project update, the account's member directory (list, add) and its
 * companies. HQ answers plain JSON arrays paged by `limit`/`offset`
 * with no total, so a page shorter than the page size is the last; its fields are snake_case.
 */
import type { AccAccountId, AccProjectId } from "../../aps/ids.ts";
import { ACCOUNT_READ, ACCOUNT_WRITE } from "../../aps/scope_constants.ts";
import { type AccountCompany, adminHeaders, type RegionOption } from "./api.ts";
import type { Http } from "../../http/http.ts";
import { segment } from "../../http/path.ts";

/** Page size of HQ lists (their maximum). */
const HQ_PAGE = 100;

const HQ = "/hq/v1/accounts";

/** A project of a BIM 360 account (HQ, snake_case fields; accountadmin.yaml `ProjectPatch`). */
export interface HqProject {
  id: string;
  account_id?: string;
  name: string;
  project_type?: string;
  status?: string;
  start_date?: string;
  end_date?: string;
  created_at?: string;
  [field: string]: unknown;
}

/** The writable fields of an HQ project (create needs name, project_type, start_date, end_date). */
export interface HqProjectFields {
  name?: string;
  project_type?: string;
  start_date?: string;
  end_date?: string;
  status?: string;
  job_number?: string;
  value?: number;
  currency?: string;
  city?: string;
  country?: string;
  timezone?: string;
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

/** What a user is added to an account's directory with (accountadmin.yaml `UserPayload`). */
export interface AccountUserInput {
  email: string;
  company_id?: string;
  first_name?: string;
  last_name?: string;
  job_title?: string;
  phone?: string;
}

/**
 * Every element of an HQ list at `path`, page after page, up to `limit`. HQ answers bare arrays, so it
 * pages here rather than through `paginate()`; as there, a page asks for no more than `limit` still wants.
 */
async function* hqList<T>(
  http: Http,
  path: string,
  opts: RegionOption & { limit?: number; key?: string },
): AsyncGenerator<T> {
  if (opts.limit !== undefined && opts.limit <= 0) return;
  let count = 0;
  for (let offset = 0;;) {
    const size = Math.min(HQ_PAGE, opts.limit === undefined ? HQ_PAGE : opts.limit - count);
    const res = await http.request<T[]>({
      path,
      query: { limit: size, offset },
      headers: adminHeaders(opts),
      key: opts.key,
      scope: ACCOUNT_READ,
    });
    const page = Array.isArray(res.data) ? res.data : [];
    for (const item of page) {
      yield item;
      if (opts.limit !== undefined && ++count >= opts.limit) return;
    }
    if (page.length < size) return;
    offset += size;
  }
}

/** Every user of an account's member directory. */
export function listAccountUsers(
  http: Http,
  accountId: AccAccountId,
  opts: RegionOption & { limit?: number } = {},
): AsyncGenerator<AccountUser> {
  return hqList<AccountUser>(http, `${HQ}/${segment(accountId)}/users`, {
    ...opts,
    key: `account ${accountId}`,
  });
}

/** Every project of a BIM 360 account. */
export function listHqProjects(
  http: Http,
  accountId: AccAccountId,
  opts: RegionOption & { limit?: number } = {},
): AsyncGenerator<HqProject> {
  return hqList<HqProject>(http, `${HQ}/${segment(accountId)}/projects`, {
    ...opts,
    key: `account ${accountId}`,
  });
}

/** Every company of a BIM 360 account. */
export function listHqCompanies(
  http: Http,
  accountId: AccAccountId,
  opts: RegionOption & { limit?: number } = {},
): AsyncGenerator<AccountCompany> {
  return hqList<AccountCompany>(http, `${HQ}/${segment(accountId)}/companies`, {
    ...opts,
    key: `account ${accountId}`,
  });
}

/** Creates a project in a BIM 360 account (201). */
export async function createHqProject(
  http: Http,
  accountId: AccAccountId,
  fields: HqProjectFields,
  opts: RegionOption = {},
): Promise<HqProject> {
  const res = await http.request<HqProject>({
    method: "POST",
    path: `${HQ}/${segment(accountId)}/projects`,
    headers: adminHeaders(opts),
    json: fields,
    key: `account ${accountId}`,
    scope: ACCOUNT_WRITE,
  });
  return res.data;
}

/** Changes a project of an account (PATCH); 404 becomes "Project not found". */
export async function updateHqProject(
  http: Http,
  accountId: AccAccountId,
  projectId: AccProjectId,
  fields: HqProjectFields,
  opts: RegionOption = {},
): Promise<HqProject> {
  const res = await http.request<HqProject>({
    method: "PATCH",
    path: `${HQ}/${segment(accountId)}/projects/${segment(projectId)}`,
    headers: adminHeaders(opts),
    json: fields,
    resource: "project",
    scope: ACCOUNT_WRITE,
  });
  return res.data;
}

/**
 * Adds a user to an account's member directory (201); 409 when the e-mail is already there.
 * `retry: true` resends it after a transient failure: safe for a caller that takes a 409 as done.
 */
export async function createAccountUser(
  http: Http,
  accountId: AccAccountId,
  input: AccountUserInput,
  opts: RegionOption & { retry?: boolean } = {},
): Promise<AccountUser> {
  const res = await http.request<AccountUser>({
    method: "POST",
    retry: opts.retry ? "always" : "auto",
    path: `${HQ}/${segment(accountId)}/users`,
    headers: adminHeaders(opts),
    json: input,
    key: `account ${accountId}`,
    scope: ACCOUNT_WRITE,
  });
  return res.data;
}
