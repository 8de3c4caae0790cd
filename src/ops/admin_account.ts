/**
 * What every account administration verb shares: who it acts as (the user's login, or the app
 * with the user a write acts for), which API generation an account is administered with (its
 * kind: ACC Admin v1 or BIM 360 HQ v1), and `admin account list` / `acc accounts`.
 */
import type { AccAccountId } from "../aps/ids.ts";
import { DiazoError, usageError } from "../core/errors.ts";
import type { AccountProject, RegionOption } from "../services/admin.ts";
import { type HqAccount, type HqProject, listAccounts } from "../services/admin_hq.ts";
import type { Http } from "../services/http.ts";
import type { OpsDeps } from "./deps.ts";

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
    throw usageError(
      "--user is only used with --as app",
      "A user's login acts as that user: drop --user, or add --as app.",
    );
  }
  if (app && write && !opts.user) {
    throw usageError(
      "--user is required with --as app for account writes",
      "The platform records an app's write as made by a user: add --user <account user id or Autodesk id>.",
    );
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

/** The API generation of `account`: `platform` when given, else the kind the accounts list reports. */
export async function resolvePlatform(
  http: Http,
  account: AccAccountId,
  platform?: string,
): Promise<"acc" | "bim360"> {
  if (platform === "acc" || platform === "bim360") return platform;
  for await (const a of listAccounts(http)) {
    if (a.id === account) return a.platform === "bim360" ? "bim360" : "acc";
  }
  throw new DiazoError("dm_not_found", {
    params: {
      what: `account ${account}`,
      hint: "List the accounts your login can see with `diazo acc accounts`.",
    },
  });
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

/** `admin account list` / `acc accounts`: the accounts the login (or the app) can see, every page up to `limit`. */
export async function runAccountList(
  opts: AdminAuth & { limit?: number },
  deps: OpsDeps,
): Promise<HqAccount[]> {
  const { http } = await adminClient(deps, opts, false);
  return await collect(listAccounts(http, { limit: opts.limit }));
}
