/**
 * Design Automation v3 (aps-api.md §7): the app's nickname, engines, app bundles and activities.
 * Plain functions over an injected Http; every operation needs `code:all` (a 2-legged token).
 * Names and engine ids come checked (aps/da_ids.ts).
 */
import { segment } from "./path.ts";
import type { DaName, EngineId } from "../aps/da_ids.ts";
import type { Http, RequestSpec } from "./http.ts";
import { paginate } from "./pagination.ts";

/** Base path of Design Automation (the US East region, where the platform runs it by default). */
export const DA_BASE = "/da/us-east/v3";

/** The scope of every Design Automation operation. */
export const DA_SCOPE = "code:all";

/** An engine's details. */
export interface Engine {
  id: string;
  productVersion?: string;
  description?: string;
  version?: number;
  package?: string;
}

/** What creating an app bundle answers: its qualified id, version 1 and where to upload the package. */
export interface AppBundleCreated {
  id: string;
  engine: string;
  version: number;
  description?: string;
  uploadParameters: { endpointURL: string; formData: Record<string, string> };
}

/** The first page request of the engine list (pagination scheme "da"). */
export function enginesRequest(): RequestSpec {
  return { path: `${DA_BASE}/engines`, scope: DA_SCOPE };
}

/** The first page request of the app's app bundle list (pagination scheme "da"). */
export function appBundlesRequest(): RequestSpec {
  return { path: `${DA_BASE}/appbundles`, scope: DA_SCOPE };
}

/** The first page request of the activity list (pagination scheme "da"). */
export function activitiesRequest(): RequestSpec {
  return { path: `${DA_BASE}/activities`, scope: DA_SCOPE };
}

/** The app's nickname (its client id when it has none). */
export async function getNickname(http: Http): Promise<string> {
  const res = await http.request<string>({ path: `${DA_BASE}/forgeapps/me`, scope: DA_SCOPE });
  return res.data;
}

/** Sets the app's nickname; 409 when the app already owns data or another app has the name. */
export async function setNickname(http: Http, nickname: DaName): Promise<void> {
  await http.request({
    method: "PATCH",
    path: `${DA_BASE}/forgeapps/me`,
    json: { nickname },
    scope: DA_SCOPE,
    responseType: "none",
  });
}

/** Every engine id, following every page. */
export function listEngines(http: Http, opts: { limit?: number } = {}): AsyncGenerator<string> {
  return paginate<string>(http, enginesRequest(), "da", opts);
}

/** An engine's details; 404 becomes "Engine not found". */
export async function getEngine(http: Http, id: EngineId): Promise<Engine> {
  const res = await http.request<Engine>({
    path: `${DA_BASE}/engines/${segment(id)}`,
    resource: "engine",
    key: id,
    scope: DA_SCOPE,
  });
  return res.data;
}

/** Every app bundle id of the app (one per alias), following every page. */
export function listAppBundles(http: Http, opts: { limit?: number } = {}): AsyncGenerator<string> {
  return paginate<string>(http, appBundlesRequest(), "da", opts);
}

/** Creates an app bundle (version 1); the answer says where to upload its package. */
export async function createAppBundle(
  http: Http,
  input: { id: DaName; engine: EngineId; description?: string },
): Promise<AppBundleCreated> {
  const res = await http.request<AppBundleCreated>({
    method: "POST",
    path: `${DA_BASE}/appbundles`,
    json: {
      id: input.id,
      engine: input.engine,
      ...(input.description !== undefined ? { description: input.description } : {}),
    },
    key: input.id,
    scope: DA_SCOPE,
  });
  return res.data;
}

/** Every activity id the app can use (its own and shared ones), following every page. */
export function listActivities(http: Http, opts: { limit?: number } = {}): AsyncGenerator<string> {
  return paginate<string>(http, activitiesRequest(), "da", opts);
}
