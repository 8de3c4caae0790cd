/**
 * Design Automation v3: the app's nickname, engines, app bundles (versions,
 * aliases, the package form upload) and activities. Plain functions over an injected Http; every
 * operation needs `code:all` (a 2-legged token). Names and engine ids come checked (aps/da_ids.ts).
 * Work items and health are in da_workitems.ts.
 */
import { DiazoError } from "../../core/errors.ts";
import { segment } from "../../http/path.ts";
import type { DaName, EngineId } from "../../aps/da_ids.ts";
import type { Http, RequestSpec } from "../../http/http.ts";
import { fetchPage, type PageResult, paginate } from "../../http/pagination.ts";
import { CODE_ALL } from "../../aps/scope_constants.ts";

/** Base path of Design Automation (the US East region, where the platform runs it by default). */
export const DA_BASE = "/da/us-east/v3";

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
  return { path: `${DA_BASE}/engines`, scope: CODE_ALL };
}

/** The first page request of the app's app bundle list (pagination scheme "da"). */
export function appBundlesRequest(): RequestSpec {
  return { path: `${DA_BASE}/appbundles`, scope: CODE_ALL };
}

/** The first page request of the activity list (pagination scheme "da"). */
export function activitiesRequest(): RequestSpec {
  return { path: `${DA_BASE}/activities`, scope: CODE_ALL };
}

/** The app's nickname (its client id when it has none). */
export async function getNickname(http: Http): Promise<string> {
  const res = await http.request<string>({ path: `${DA_BASE}/forgeapps/me`, scope: CODE_ALL });
  return res.data;
}

/** Sets the app's nickname; 409 when the app already owns data or another app has the name. */
export async function setNickname(http: Http, nickname: DaName): Promise<void> {
  await http.request({
    method: "PATCH",
    path: `${DA_BASE}/forgeapps/me`,
    json: { nickname },
    scope: CODE_ALL,
    responseType: "none",
  });
}

/** Every engine id, following every page. */
export function listEngines(http: Http, opts: { limit?: number } = {}): AsyncGenerator<string> {
  return paginate<string>(http, enginesRequest(), "da", opts);
}

/** One page of engine, app bundle or activity ids, from the platform's own cursor (`paginationToken`). */
export function daIdsPage(
  http: Http,
  which: "engines" | "appbundles" | "activities",
  opts: { limit: number; cursor?: string },
): Promise<PageResult<string>> {
  const request = which === "engines"
    ? enginesRequest()
    : which === "appbundles"
    ? appBundlesRequest()
    : activitiesRequest();
  return fetchPage<string>(http, request, "da", opts);
}

/** An engine's details; 404 becomes "Engine not found". */
export async function getEngine(http: Http, id: EngineId): Promise<Engine> {
  const res = await http.request<Engine>({
    path: `${DA_BASE}/engines/${segment(id)}`,
    resource: "engine",
    key: id,
    scope: CODE_ALL,
  });
  return res.data;
}

/** Every app bundle id of the app (one per alias), following every page. */
export function listAppBundles(http: Http, opts: { limit?: number } = {}): AsyncGenerator<string> {
  return paginate<string>(http, appBundlesRequest(), "da", opts);
}

/** Creates an app bundle (version 1), or with `newVersion` its next version; the answer says where to upload its package. */
export async function createAppBundle(
  http: Http,
  input: { id: DaName; engine: EngineId; description?: string },
  newVersion = false,
): Promise<AppBundleCreated> {
  const body = {
    engine: input.engine,
    ...(input.description !== undefined ? { description: input.description } : {}),
  };
  const res = await http.request<AppBundleCreated>({
    method: "POST",
    path: newVersion ? `${DA_BASE}/appbundles/${segment(input.id)}/versions` : `${DA_BASE}/appbundles`,
    json: newVersion ? body : { id: input.id, ...body },
    key: input.id,
    scope: CODE_ALL,
  });
  return res.data;
}

/**
 * Uploads an app bundle's package (a zip) through the form the platform returned: a multipart POST
 * of every form field, then the file, to `endpointURL` (no bearer token: the form is the permission).
 */
export async function uploadPackage(
  http: Http,
  upload: AppBundleCreated["uploadParameters"],
  file: { name: string; bytes: Uint8Array },
): Promise<void> {
  const boundary = `----diazo${crypto.randomUUID().replaceAll("-", "")}`;
  const text = new TextEncoder();
  const quoted = (v: string) => v.replace(/["\r\n]/g, "_");
  const head = Object.entries(upload.formData)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(k)}"\r\n\r\n${v}\r\n`)
    .join("") +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(file.name)}"\r\n` +
    "Content-Type: application/octet-stream\r\n\r\n";
  const tail = text.encode(`\r\n--${boundary}--\r\n`);
  const start = text.encode(head);
  const body = new Uint8Array(start.length + file.bytes.length + tail.length);
  body.set(start, 0);
  body.set(file.bytes, start.length);
  body.set(tail, start.length + file.bytes.length);
  await http.request({
    method: "POST",
    path: upload.endpointURL,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    body,
    auth: "none",
    retry: "always",
    responseType: "none",
  });
}

/** What Design Automation keeps versions and aliases of. */
export type DaVersionedKind = "appbundles" | "activities";

/** Points `alias` of an app bundle or activity at `version`: creates it, or moves it when it exists. */
export async function setAlias(
  http: Http,
  kind: DaVersionedKind,
  name: DaName,
  alias: DaName,
  version: number,
): Promise<{ id: string; version: number }> {
  const aliases = `${DA_BASE}/${kind}/${segment(name)}/aliases`;
  try {
    const res = await http.request<{ id: string; version: number }>({
      method: "POST",
      path: aliases,
      json: { id: alias, version },
      scope: CODE_ALL,
    });
    return res.data;
  } catch (e) {
    if (!(e instanceof DiazoError) || e.status !== 409) throw e;
  }
  const res = await http.request<{ id: string; version: number }>({
    method: "PATCH",
    path: `${aliases}/${segment(alias)}`,
    json: { version },
    scope: CODE_ALL,
  });
  return res.data;
}

/** Every activity id the app can use (its own and shared ones), following every page. */
export function listActivities(http: Http, opts: { limit?: number } = {}): AsyncGenerator<string> {
  return paginate<string>(http, activitiesRequest(), "da", opts);
}

/** An activity as created or read. */
export interface Activity {
  id: string;
  engine: string;
  commandLine: string[];
  parameters: Record<string, Record<string, unknown>>;
  appbundles: string[];
  settings?: Record<string, unknown>;
  description?: string;
  version: number;
}

/** An activity's body: the create body without `id` (also the body of a new version). */
export type ActivityBody = Omit<Activity, "id" | "version">;

/** Creates an activity (version 1), or with `newVersion` its next version. */
export async function createActivity(
  http: Http,
  id: DaName,
  body: ActivityBody,
  newVersion = false,
): Promise<Activity> {
  const res = await http.request<Activity>({
    method: "POST",
    path: newVersion ? `${DA_BASE}/activities/${segment(id)}/versions` : `${DA_BASE}/activities`,
    json: newVersion ? body : { id, ...body },
    key: id,
    scope: CODE_ALL,
  });
  return res.data;
}
