/**
 * Design Automation v3 (aps-api.md §7): the app's nickname, engines, app bundles and activities.
 * Plain functions over an injected Http; every operation needs `code:all` (a 2-legged token).
 */
import { usageError } from "../core/errors.ts";
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

/** The parts of a fully qualified id `<owner>.<name>+<alias>`. */
export interface QualifiedId {
  owner: string;
  name: string;
  alias: string;
}

const QUALIFIED = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)\+([$A-Za-z0-9_]+)$/;
const NAME = /^[A-Za-z0-9_]{1,64}$/;

/** Splits a qualified id such as `Autodesk.AutoCAD+24`; undefined when it is not one. */
export function parseQualifiedId(id: string): QualifiedId | undefined {
  const m = QUALIFIED.exec(id);
  return m ? { owner: m[1], name: m[2], alias: m[3] } : undefined;
}

/** A list entry as diazo shows it: the platform's id, with its parts beside it. */
export function describeId(id: string): { id: string } & Partial<QualifiedId> {
  return { id, ...parseQualifiedId(id) };
}

/** Checks an engine id before any request: a usage error unless it is `<owner>.<name>+<version>`. */
export function checkEngineId(id: string): string {
  if (parseQualifiedId(id)) return id;
  throw usageError(
    `invalid engine id '${id}'`,
    "Engine ids are qualified, e.g. Autodesk.AutoCAD+24 or Autodesk.Revit+2024; list them with `diazo da engine list`.",
  );
}

/** Checks an unqualified name (app bundle, activity, nickname): letters, digits and underscores. */
export function checkDaName(what: string, name: string): string {
  if (NAME.test(name)) return name;
  throw usageError(
    `invalid ${what} '${name}'`,
    `A ${what} is 1-64 letters, digits or underscores, e.g. ${
      name.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 64) || "MyApp"
    }.`,
  );
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
export async function setNickname(http: Http, nickname: string): Promise<void> {
  checkDaName("nickname", nickname);
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
export async function getEngine(http: Http, id: string): Promise<Engine> {
  checkEngineId(id);
  const res = await http.request<Engine>({
    path: `${DA_BASE}/engines/${encodeURIComponent(id)}`,
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
  input: { id: string; engine: string; description?: string },
): Promise<AppBundleCreated> {
  checkDaName("app bundle name", input.id);
  checkEngineId(input.engine);
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
