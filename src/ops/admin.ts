/**
 * The account administration verbs (`admin project ...`, `admin user list`): projects of an
 * account, their users, and the account's member directory, always as the logged-in user. Ids
 * arrive checked (bare GUIDs); `region` routes a request to the data centre hosting the account.
 */
import type { AccAccountId, AccProjectId } from "../aps/ids.ts";
import { DiazoError } from "../core/errors.ts";
import {
  type AccountProject,
  type AccountUser,
  createAccountProject,
  getProject,
  listAccountProjects,
  listAccountUsers,
  listProjectUsers,
  type ProjectFilters,
  type ProjectInput,
  type ProjectUser,
} from "../services/admin.ts";
import type { Http } from "../services/http.ts";
import type { OpsDeps } from "./deps.ts";

export type { AccountProject, AccountUser, ProjectUser } from "../services/admin.ts";

/** Where every admin verb goes: the data centre of the account (absent: the platform's, US). */
export interface AdminRegion {
  region?: string;
}

/** An HTTP client acting as the logged-in user: without a login this fails before any request. */
function userHttp(deps: OpsDeps): Promise<Http> {
  return deps.http({ mode: "3-legged" });
}

async function collect<T>(items: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** `admin project list`: the projects of an account that pass the filters, every page up to `limit`. */
export async function runAdminProjectList(
  opts: AdminRegion & ProjectFilters & { account: AccAccountId; limit?: number },
  deps: OpsDeps,
): Promise<AccountProject[]> {
  return await collect(listAccountProjects(await userHttp(deps), opts.account, opts));
}

/** How long `admin project create --wait` waits for provisioning when no timeout is given. */
const PROVISION_TIMEOUT_MS = 120_000;

/** Polls a created project every second until it is no longer pending, within `timeoutMs`. */
async function waitProvisioned(
  http: Http,
  project: AccountProject,
  opts: AdminRegion & { timeoutMs?: number },
): Promise<AccountProject> {
  const limitMs = opts.timeoutMs ?? PROVISION_TIMEOUT_MS;
  const start = Date.now();
  let current = project;
  while (current.status === "pending") {
    if (Date.now() - start > limitMs) {
      throw new DiazoError("failure", {
        params: {
          detail: `project ${project.id} is still pending after ${Math.round(limitMs / 1000)} s`,
          hint:
            `Check it later with \`diazo admin project get ${project.id}\`; provisioning can take a while.`,
        },
      });
    }
    await new Promise((r) => setTimeout(r, 1000));
    current = await getProject(http, project.id as AccProjectId, opts);
  }
  return current;
}

/**
 * `admin project create`: the platform accepts a project as pending; with `wait` this returns it
 * once provisioned. `onAccepted` hears of it as soon as it is accepted.
 */
export async function runAdminProjectCreate(
  opts: AdminRegion & ProjectInput & {
    account: AccAccountId;
    templateId?: AccProjectId;
    wait?: { timeoutMs?: number };
    onAccepted?: (project: AccountProject) => void;
  },
  deps: OpsDeps,
): Promise<AccountProject> {
  const http = await userHttp(deps);
  const { name, type, classification, jobNumber, templateId } = opts;
  const created = await createAccountProject(
    http,
    opts.account,
    { name, type, classification, jobNumber, templateId },
    { region: opts.region },
  );
  opts.onAccepted?.(created);
  if (!opts.wait) return created;
  return await waitProvisioned(http, created, { region: opts.region, timeoutMs: opts.wait.timeoutMs });
}

/** `admin project get`: one project. */
export async function runAdminProjectGet(
  opts: AdminRegion & { project: AccProjectId },
  deps: OpsDeps,
): Promise<AccountProject> {
  return await getProject(await userHttp(deps), opts.project, { region: opts.region });
}

/** `admin project users`: the users of a project, every page up to `limit`. */
export async function runAdminProjectUsers(
  opts: AdminRegion & { project: AccProjectId; limit?: number },
  deps: OpsDeps,
): Promise<ProjectUser[]> {
  return await collect(listProjectUsers(await userHttp(deps), opts.project, opts));
}

/** `admin user list`: the account's member directory, every page up to `limit`. */
export async function runAdminUserList(
  opts: AdminRegion & { account: AccAccountId; limit?: number },
  deps: OpsDeps,
): Promise<AccountUser[]> {
  return await collect(listAccountUsers(await userHttp(deps), opts.account, opts));
}
