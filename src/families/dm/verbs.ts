/**
 * The data management verbs (`hub`, `project`, `folder`, `item`): browse hubs, projects, folders,
 * items and versions as the logged-in user or as the app. Ids arrive checked; a list answers one
 * page from a cursor (the tool server) or every page up to `limit` (the CLI).
 */
import { storedUserLogin } from "../../session/user_login.ts";
import type { DmProjectId, FolderId, HubId, ItemId } from "../../aps/ids.ts";
import {
  type DmPage,
  type DmResource,
  getFolder,
  getHub,
  getItemWithTip,
  getProject,
  listFolderContents,
  listHubs,
  listItemVersions,
  listProjects,
  listTopFolders,
} from "./api.ts";
import type { Http } from "../../http/http.ts";
import type { OpsDeps } from "../../session/deps.ts";
import type { ListOptions } from "../../http/list.ts";

export type { DmPage, DmResource } from "./api.ts";

/** Whose login a verb uses: the user's (3-legged), the app's (2-legged), or the user's when there is one. */
export type Login = "auto" | "user" | "app";

/** How a verb chooses its login; `usable` makes `auto` skip a stored login that can no longer be renewed. */
export interface LoginChoice {
  as?: Login;
  usable?: boolean;
}

/** The dependencies already told that a command acts as the app (the warning is given once). */
const toldActingAsApp = new WeakSet<OpsDeps>();

/**
 * The HTTP client of a data management call: the user's login when asked or (auto) when there is
 * one. Without one, `auto` falls back to the app (the platform lets provisioned apps in), and says
 * so on stderr once: data management is meant to be done as a user.
 */
export async function dmHttp(deps: OpsDeps, choice: LoginChoice = {}): Promise<Http> {
  const as = choice.as ?? "auto";
  const user = as === "user" || (as === "auto" && (await storedUserLogin(deps, choice.usable)) !== undefined);
  if (as === "auto" && !user && !toldActingAsApp.has(deps)) {
    toldActingAsApp.add(deps);
    deps.warn(
      "no user login: acting as the app, which sees only the hubs and projects it was provisioned for (`diazo auth login` to act as yourself, `--as app` to silence this)",
    );
  }
  return await deps.http({ mode: user ? "3-legged" : "2-legged" });
}

/** Options of every list verb: the login, which part of the list, and the remedy of a "Not found" in the caller's terms. */
export type DmListVerbOptions = LoginChoice & ListOptions & { hint?: string };

/** `hub list`: the hubs the login can see. */
export async function runHubList(opts: DmListVerbOptions, deps: OpsDeps): Promise<DmPage> {
  return await listHubs(await dmHttp(deps, opts), opts);
}

/** `hub get`: one hub. */
export async function runHubGet(opts: LoginChoice & { hub: HubId }, deps: OpsDeps): Promise<DmResource> {
  return await getHub(await dmHttp(deps, opts), opts.hub);
}

/** `project list`: a hub's projects. */
export async function runProjectList(
  opts: DmListVerbOptions & { hub: HubId },
  deps: OpsDeps,
): Promise<DmPage> {
  return await listProjects(await dmHttp(deps, opts), opts.hub, opts);
}

/** `project get`: one project of a hub. */
export async function runProjectGet(
  opts: LoginChoice & { hub: HubId; project: DmProjectId },
  deps: OpsDeps,
): Promise<DmResource> {
  return await getProject(await dmHttp(deps, opts), opts.hub, opts.project);
}

/** What `folder list` lists: a project's top folders (with its hub) or one folder's contents. */
export type FolderListTarget = { hub: HubId; folder?: undefined } | { folder: FolderId; hub?: HubId };

/**
 * `folder list`: the top folders of a project or the contents of a folder (`type` filters; the
 * page's `included` holds the tip versions of its items). Top folders are all folders, so
 * `type: "items"` leaves none of them.
 */
export async function runFolderList(
  opts: DmListVerbOptions & FolderListTarget & { project: DmProjectId; type?: "folders" | "items" },
  deps: OpsDeps,
): Promise<DmPage> {
  if (opts.folder !== undefined) {
    return await listFolderContents(await dmHttp(deps, opts), opts.project, opts.folder, opts);
  }
  if (opts.type === "items") return { items: [], included: [], cursorAfter: () => undefined };
  return await listTopFolders(await dmHttp(deps, opts), opts.hub, opts.project, opts);
}

/** `folder get`: one folder of a project. */
export async function runFolderGet(
  opts: LoginChoice & { project: DmProjectId; folder: FolderId },
  deps: OpsDeps,
): Promise<DmResource> {
  return await getFolder(await dmHttp(deps, opts), opts.project, opts.folder);
}

/** `item get`: one item and its tip (latest) version. */
export async function runItemGet(
  opts: LoginChoice & { project: DmProjectId; item: ItemId },
  deps: OpsDeps,
): Promise<{ item: DmResource; tip?: DmResource }> {
  return await getItemWithTip(await dmHttp(deps, opts), opts.project, opts.item);
}

/** `item versions`: an item's versions, newest first. */
export async function runItemVersions(
  opts: DmListVerbOptions & { project: DmProjectId; item: ItemId },
  deps: OpsDeps,
): Promise<DmPage> {
  return await listItemVersions(await dmHttp(deps, opts), opts.project, opts.item, opts);
}
