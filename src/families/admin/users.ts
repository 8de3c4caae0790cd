/**
 * The account administration verbs on people and companies: the member directory (`admin user
 * list|add`, `acc add-user`), project members (`admin project user add|remove`), companies
 * (`admin company list`, by the account's API generation) and `admin project update` (HQ PATCH,
 * for a project of either generation).
 */
import type { AccAccountId, AccProjectId } from "../../aps/ids.ts";
import { DiazoError } from "../../core/errors.ts";
import {
  type AccountCompany,
  type AccountProject,
  addProjectUser,
  listAccCompanies,
  listProjectUsers,
  type ProjectUser,
  type ProjectUserInput,
  removeProjectUser,
} from "./api.ts";
import {
  type AccountUser,
  type AccountUserInput,
  createAccountUser,
  type HqProjectFields,
  listAccountUsers,
  listHqCompanies,
  updateHqProject,
} from "./api_hq.ts";
import { type AdminCall, adminClient, collect, hqProjectView, resolvePlatform } from "./account.ts";
import type { OpsDeps } from "../../session/deps.ts";

export type { AccountCompany, ProjectUserInput } from "./api.ts";
export type { AccountUserInput, HqProjectFields } from "./api_hq.ts";

/** `admin user list`: the account's member directory, every page up to `limit`. */
export async function runAdminUserList(
  opts: AdminCall & { account: AccAccountId; limit?: number },
  deps: OpsDeps,
): Promise<AccountUser[]> {
  const { http, call } = await adminClient(deps, opts, false);
  return await collect(listAccountUsers(http, opts.account, { ...call, limit: opts.limit }));
}

/** `admin user add` / `acc add-user`: adds a user to the account's member directory (HQ, both generations). */
export async function runAdminUserAdd(
  opts: AdminCall & { account: AccAccountId; user_fields: AccountUserInput },
  deps: OpsDeps,
): Promise<AccountUser> {
  const { http, call } = await adminClient(deps, opts, true);
  return await createAccountUser(http, opts.account, opts.user_fields, call);
}

/** `admin project user add`: gives a user (by e-mail) access to a project's products. */
export async function runAdminProjectUserAdd(
  opts: AdminCall & { project: AccProjectId; member: ProjectUserInput },
  deps: OpsDeps,
): Promise<ProjectUser> {
  const { http, call } = await adminClient(deps, opts, true);
  return await addProjectUser(http, opts.project, opts.member, call);
}

/** `admin project user remove`: removes a member, named by id, Autodesk id or e-mail (looked up first). */
export async function runAdminProjectUserRemove(
  opts: AdminCall & { project: AccProjectId; member: string },
  deps: OpsDeps,
): Promise<{ projectId: string; userId: string; email?: string; removed: true }> {
  const { http, call } = await adminClient(deps, opts, true);
  let userId = opts.member;
  let email: string | undefined;
  if (opts.member.includes("@")) {
    const wanted = opts.member.toLowerCase();
    for await (const u of listProjectUsers(http, opts.project, call)) {
      if (u.email.toLowerCase() === wanted) {
        userId = u.id;
        email = u.email;
        break;
      }
    }
    if (email === undefined) {
      throw new DiazoError("dm_not_found", {
        params: {
          what: `${opts.member} in project ${opts.project}`,
          hint: `List the project's members with \`diazo admin project users ${opts.project}\`.`,
        },
      });
    }
  }
  await removeProjectUser(http, opts.project, userId, call);
  return { projectId: opts.project, userId, email, removed: true };
}

/** `admin company list`: the account's companies, through the API generation of its kind. */
export async function runAdminCompanyList(
  opts: AdminCall & { account: AccAccountId; limit?: number; platform?: string },
  deps: OpsDeps,
): Promise<AccountCompany[]> {
  const { http, call } = await adminClient(deps, opts, false);
  const list = await resolvePlatform(http, opts.account, opts.platform, call) === "acc"
    ? listAccCompanies(http, opts.account, { ...call, limit: opts.limit })
    : listHqCompanies(http, opts.account, { ...call, limit: opts.limit });
  return await collect(list);
}

/** `admin project update`: changes a project's fields (HQ PATCH; a project of either generation). */
export async function runAdminProjectUpdate(
  opts: AdminCall & { account: AccAccountId; project: AccProjectId; fields: HqProjectFields },
  deps: OpsDeps,
): Promise<AccountProject> {
  const { http, call } = await adminClient(deps, opts, true);
  return hqProjectView(await updateHqProject(http, opts.account, opts.project, opts.fields, call), "");
}
