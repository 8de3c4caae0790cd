/**
 * The account administration verbs on projects (`admin project list|create|get|users`, and
 * their `acc projects`, `acc create-project` spellings): as the logged-in user by default, or as the app
 * (`as: "app"`) with the user a write acts for (`user`, sent as `User-Id`). An account's projects
 * are reached through the API generation of its kind (admin_account.ts): ACC Admin v1 for an ACC
 * account, BIM 360 HQ v1 for a BIM 360 one. Ids arrive checked (bare GUIDs); `region` routes a
 * request to the data centre hosting the account.
 */
import type { AccAccountId, AccProjectId } from "../../aps/ids.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import {
  type AccountProject,
  createAccountProject,
  getProject,
  listAccountProjects,
  listProjectUsers,
  type ProjectFilters,
  type ProjectInput,
  type ProjectUser,
  projectUsersPage,
} from "./api.ts";
import { createHqProject, listHqProjects } from "./api_hq.ts";
import type { Http } from "../../http/http.ts";
import { type AdminCall, adminClient, collect, hqProjectView, resolvePlatform } from "./account.ts";
import type { OpsDeps } from "../../session/deps.ts";
import type { ListPage } from "../../http/list.ts";

export type { AccountProject, ProjectUser } from "./api.ts";
export type { AccountUser } from "./api_hq.ts";
export type { AdminAuth, AdminCall, AdminRegion } from "./account.ts";

/** `admin project list` / `acc projects`: the projects of an account that pass the filters, every page up to `limit`. */
export async function runAdminProjectList(
  opts: AdminCall & ProjectFilters & { account: AccAccountId; limit?: number; platform?: string },
  deps: OpsDeps,
): Promise<AccountProject[]> {
  const { http, call } = await adminClient(deps, opts, false);
  if (await resolvePlatform(http, opts.account, opts.platform, call) === "acc") {
    return await collect(listAccountProjects(http, opts.account, { ...opts, ...call }));
  }
  // HQ takes no filters: they apply here, before --limit.
  const out: AccountProject[] = [];
  for await (const p of listHqProjects(http, opts.account, call)) {
    const view = hqProjectView(p);
    if (opts.status && !opts.status.includes(view.status)) continue;
    if (opts.name && !view.name.toLowerCase().includes(opts.name.toLowerCase())) continue;
    if (opts.classification && !opts.classification.includes("production")) continue;
    out.push(view);
    if (opts.limit !== undefined && out.length >= opts.limit) break;
  }
  return out;
}

/** How long `admin project create --wait` waits for provisioning when no timeout is given. */
const PROVISION_TIMEOUT_MS = 120_000;

/** Polls a created project with the wait's backoff until it is no longer pending, within `timeoutMs`. */
async function waitProvisioned(
  http: Http,
  project: AccountProject,
  opts: { region?: string; timeoutMs?: number },
  deps: OpsDeps,
): Promise<AccountProject> {
  const limitMs = opts.timeoutMs ?? PROVISION_TIMEOUT_MS;
  const { startPollClock } = await import("../../http/poll.ts"); // loaded only for a wait
  const clock = startPollClock({ ...deps.poll, timeoutMs: limitMs });
  let current = project;
  while (current.status === "pending") {
    try {
      await clock.pause();
    } catch (e) {
      if (!(e instanceof DiazoError) || e.code !== "timeout") throw e;
      throw new DiazoError("failure", {
        params: {
          detail: `project ${project.id} is still pending after ${Math.round(limitMs / 1000)} s`,
          hint:
            `Check it later with \`diazo admin project get ${project.id}\`; provisioning can take a while.`,
        },
      });
    }
    current = await getProject(http, project.id as AccProjectId, opts);
  }
  return current;
}

/** What a project is created from: ACC's fields, and the dates a BIM 360 project needs. */
export interface AdminProjectCreate extends AdminCall, ProjectInput {
  account: AccAccountId;
  platform?: string;
  /** BIM 360: first and last day (YYYY-MM-DD); default today and a year later. */
  startDate?: string;
  endDate?: string;
  wait?: { timeoutMs?: number };
  onAccepted?: (project: AccountProject) => void;
}

/** A date `days` after `from` as YYYY-MM-DD. */
function day(from: Date, days = 0): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * `admin project create` / `acc create-project`: ACC accepts a project as pending (with `wait`
 * this returns it once provisioned); BIM 360 creates it at once. `onAccepted` hears of it as soon
 * as it is accepted.
 */
export async function runAdminProjectCreate(
  opts: AdminProjectCreate,
  deps: OpsDeps,
): Promise<AccountProject> {
  const { http, call } = await adminClient(deps, opts, true);
  const { name, type, classification, jobNumber, templateId } = opts;
  if (await resolvePlatform(http, opts.account, opts.platform, call) === "bim360") {
    if (templateId || classification) {
      throw usageError(
        "--template and --classification apply to ACC accounts only",
        "A BIM 360 project is created from a name, a type and its dates; drop --template and --classification.",
      );
    }
    const start = opts.startDate ?? day(new Date());
    const created = hqProjectView(
      await createHqProject(http, opts.account, {
        name,
        project_type: type,
        start_date: start,
        end_date: opts.endDate ?? day(new Date(`${start}T00:00:00Z`), 365),
        job_number: jobNumber,
      }, call),
    );
    opts.onAccepted?.(created);
    return created;
  }
  const created = await createAccountProject(
    http,
    opts.account,
    { name, type, classification, jobNumber, templateId, startDate: opts.startDate, endDate: opts.endDate },
    call,
  );
  opts.onAccepted?.(created);
  if (!opts.wait) return created;
  return await waitProvisioned(http, created, { region: opts.region, timeoutMs: opts.wait.timeoutMs }, deps);
}

/** `admin project get`: one project. */
export async function runAdminProjectGet(
  opts: AdminCall & { project: AccProjectId },
  deps: OpsDeps,
): Promise<AccountProject> {
  const { http, call } = await adminClient(deps, opts, false);
  return await getProject(http, opts.project, call);
}

/** `admin project users`: the users of a project, every page up to `limit`. */
export async function runAdminProjectUsers(
  opts: AdminCall & { project: AccProjectId; limit?: number },
  deps: OpsDeps,
): Promise<ProjectUser[]> {
  const { http, call } = await adminClient(deps, opts, false);
  return await collect(listProjectUsers(http, opts.project, { ...call, limit: opts.limit }));
}

/** One page of `runAdminProjectUsers`'s users from the platform's offset (the tool server's paging). */
export async function runAdminProjectUsersPage(
  opts: AdminCall & { project: AccProjectId; limit: number; cursor?: string },
  deps: OpsDeps,
): Promise<ListPage<ProjectUser>> {
  const { http, call } = await adminClient(deps, opts, false);
  return await projectUsersPage(http, opts.project, { ...call, limit: opts.limit, cursor: opts.cursor });
}
