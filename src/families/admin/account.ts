/**
 * What every account administration verb shares: who it acts as (the user's login, or the app
 * with the user a write acts for), which API generation an account is administered with (its
 * kind: ACC Admin v1 or BIM 360 HQ v1), and `admin account list` / `acc accounts`.
 *
 * The kind comes from documented data only: ACC Admin v1's project list answers the projects of
 * both generations with their `platform` (accountadmin.yaml `Project.platform`), and the accounts
 * are the data management hubs of type `hubs:autodesk.bim360:Account` (an account id is its hub id
 * without `b.`). No public reference lists accounts or their kind directly.
 */
import type { AccAccountId } from "../../aps/ids.ts";
import { fieldError } from "../../core/field_error.ts";
import { type AccountProject, countAccountProjects, type RegionOption } from "./api.ts";
import type { HqProject } from "./api_hq.ts";
import type { Http } from "../../http/http.ts";
import type { OpsDeps } from "../../session/deps.ts";

/** Where every admin verb goes: the data centre of the account (absent: the platform's, US). */
export interface AdminRegion {
  region?: string;
}

/** Who an admin verb acts as: the logged-in user (default), or the app on behalf of `user`. */
export interface AdminAuth {
  as?: "user" | "app";
  /** With `as: "app"`: the account user id or Autodesk id a write acts for (`User-Id`). */
  user?: string;
}

/** The options every admin verb takes. */
export type AdminCall = AdminRegion & AdminAuth;

/** An HTTP client for `opts` and the headers of its requests; a missing login or `--user` fails before any request. */
export async function adminClient(
  deps: OpsDeps,
  opts: AdminCall,
  write: boolean,
): Promise<{ http: Http; call: RegionOption }> {
  const app = opts.as === "app";
  if (opts.user !== undefined && !app) {
    throw fieldError({
      field: "user",
      problem: "{user} is only used with {as} app",
      help: "A user's login acts as that user: drop {user}, or add {as} app.",
    });
  }
  if (app && write && !opts.user) {
    throw fieldError({
      field: "user",
      problem: "{user} is required with {as} app for account writes",
      help:
        "The platform records an app's write as made by a user: add {user} <account user id or Autodesk id>.",
    });
  }
  const http = await deps.http({ mode: app ? "2-legged" : "3-legged" });
  return { http, call: { region: opts.region, userId: app ? opts.user : undefined } };
}

/** Every element of an async list. */
export async function collect<T>(items: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The API generation of `account`: `platform` when given, else read from its projects' `platform`. */
export async function resolvePlatform(
  http: Http,
  account: AccAccountId,
  platform?: string,
  call: RegionOption = {},
): Promise<"acc" | "bim360"> {
  if (platform === "acc" || platform === "bim360") return platform;
  const kind = await accountKind(http, account, call);
  if (kind) return kind;
  throw fieldError({
    field: "platform",
    problem: `cannot tell whether account ${account} is ACC or BIM 360: it has no projects to tell by`,
    help: "Name its kind with {platform}.",
    allowed: ["acc", "bim360"],
  });
}

/**
 * An account's kind from its projects: ACC when it has an ACC project (an ACC account also holds
 * the BIM 360 projects it was upgraded from), BIM 360 when it has only BIM 360 ones, undefined when
 * it has none.
 */
async function accountKind(
  http: Http,
  account: AccAccountId,
  call: RegionOption,
): Promise<"acc" | "bim360" | undefined> {
  if (await countAccountProjects(http, account, { ...call, platform: "acc" }) > 0) return "acc";
  return await countAccountProjects(http, account, call) > 0 ? "bim360" : undefined;
}

/**
 * An HQ project with ACC's names beside its own (type, platform, createdAt), for one table and
 * query; `platform` "" when unknown (a PATCH answers projects of either generation).
 */
export function hqProjectView(p: HqProject, platform = "bim360"): AccountProject {
  return {
    ...p,
    type: String(p.project_type ?? ""),
    status: String(p.status ?? ""),
    ...(platform ? { platform } : {}),
    accountId: p.account_id,
    createdAt: p.created_at,
  };
}

/** An account as `admin account list` answers it; `platform` "" when it has no project to tell by. */
export interface AccountRow {
  id: string;
  name: string;
  region?: string;
  platform: string;
  /** Its data management hub id (`b.` + the account id). */
  hubId: string;
}

/** `admin account list` / `acc accounts`: the accounts the login (or the app) can see, up to `limit`. */
export async function runAccountList(
  opts: AdminAuth & { limit?: number },
  deps: OpsDeps,
): Promise<AccountRow[]> {
  const { http } = await adminClient(deps, opts, false);
  // The hubs' requests load only here: the other admin commands (a project list) need none of them.
  const { DM_ACCOUNT_HUB, listHubs } = await import("../dm/api.ts");
  const hubs = (await listHubs(http)).items.filter((h) =>
    (h.attributes.extension as { type?: string } | undefined)?.type === DM_ACCOUNT_HUB
  ).slice(0, opts.limit);
  const rows: AccountRow[] = [];
  for (const hub of hubs) {
    const id = hub.id.replace(/^b\./, "") as AccAccountId;
    const region = typeof hub.attributes.region === "string" ? hub.attributes.region : undefined;
    const kind = await accountKind(http, id, { region });
    rows.push({ id, name: String(hub.attributes.name ?? ""), region, platform: kind ?? "", hubId: hub.id });
  }
  return rows;
}
