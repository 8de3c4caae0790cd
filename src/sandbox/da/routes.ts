/**
 * Design Automation v3 (aps-api.md §7): the app's nickname, engines, app bundles and activities,
 * under `/da/us-east/v3` (and `/da/us-west/v3`), all with scope `code:all`.
 *
 * Lists answer a page object `{paginationToken, data: [ids]}`; the next page is the same URL with
 * `?page=<paginationToken>`, and the last page has `paginationToken: null`. The platform's error
 * body for this service is not documented; the sandbox answers `{"diagnostic": "..."}`. App bundle
 * packages are not emulated: creation answers upload parameters, but nothing receives the upload.
 */

import type { RequestContext } from "../context.ts";
import {
  appBundleIds,
  DA_ENGINES,
  DA_NAME,
  DA_PUBLIC_ACTIVITIES,
  DA_UPLOAD_ENDPOINT,
  daApp,
  type DaAppBundle,
  daOwner,
} from "./store.ts";
import { nowMs } from "../clock.ts";
import { daError, notFound } from "../errors.ts";
import { empty, json, readJson } from "../respond.ts";
import type { Handler, Route } from "../router.ts";

/** Items per page of every Design Automation list. */
export const DA_PAGE_SIZE = 10;

/** Regions the sandbox serves Design Automation in. */
const DA_REGIONS = ["us-east", "us-west"];

const SCOPES = ["code:all"];

function encodePageToken(offset: number): string {
  return btoa(JSON.stringify({ offset })).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodePageToken(token: string): number | undefined {
  try {
    const { offset } = JSON.parse(atob(token.replace(/-/g, "+").replace(/_/g, "/")));
    return Number.isInteger(offset) && offset >= 0 ? offset : undefined;
  } catch {
    return undefined;
  }
}

/** One page of `ids` as the `page` query parameter selects it. */
function page(ids: readonly string[], ctx: RequestContext): Response {
  const token = ctx.url.searchParams.get("page");
  const offset = token === null ? 0 : decodePageToken(token);
  if (offset === undefined) throw daError(400, `Invalid pagination token '${token}'`);
  const end = offset + DA_PAGE_SIZE;
  return json(200, {
    paginationToken: end < ids.length ? encodePageToken(end) : null,
    data: ids.slice(offset, end),
  });
}

/** Wraps a handler so that it answers only in the regions the sandbox serves. */
function inRegion(handler: Handler): Handler {
  return (req, ctx) => {
    if (!DA_REGIONS.includes(ctx.params.region)) throw notFound();
    return handler(req, ctx);
  };
}

function callerApp(ctx: RequestContext) {
  const clientId = ctx.clientId ?? "";
  const app = daApp(ctx.sandbox.da, clientId);
  return { app, owner: daOwner(app, clientId) };
}

function getNickname(_req: Request, ctx: RequestContext): Response {
  return json(200, callerApp(ctx).owner);
}

async function setNickname(req: Request, ctx: RequestContext): Promise<Response> {
  const body = await readJson(req) as { nickname?: unknown } | undefined;
  const nickname = body && typeof body === "object" ? body.nickname : undefined;
  if (typeof nickname !== "string" || !DA_NAME.test(nickname)) {
    throw daError(400, "'nickname' must be 1-64 letters, digits or underscores");
  }
  const { app } = callerApp(ctx);
  if (app.nickname === nickname) return empty(200);
  if (app.appBundles.size > 0) {
    throw daError(
      409,
      "The app already owns app bundles or activities under its current name: delete them (DELETE /forgeapps/me) before changing the nickname",
    );
  }
  for (const [clientId, other] of ctx.sandbox.da.apps) {
    if (clientId !== ctx.clientId && (other.nickname === nickname || clientId === nickname)) {
      throw daError(409, `The nickname '${nickname}' is taken by another app`);
    }
  }
  app.nickname = nickname;
  return empty(200);
}

function listEngines(_req: Request, ctx: RequestContext): Response {
  return page(DA_ENGINES.map((e) => e.id), ctx);
}

function getEngine(_req: Request, ctx: RequestContext): Response {
  const engine = DA_ENGINES.find((e) => e.id === ctx.params.id);
  if (!engine) throw daError(404, `Engine '${ctx.params.id}' not found`);
  return json(200, engine);
}

function listAppBundles(_req: Request, ctx: RequestContext): Response {
  const { app, owner } = callerApp(ctx);
  return page(appBundleIds(app, owner), ctx);
}

async function createAppBundle(req: Request, ctx: RequestContext): Promise<Response> {
  const body = await readJson(req);
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw daError(400, "The request body must be a JSON object with 'id' and 'engine'");
  }
  const { id, engine, description } = body as Record<string, unknown>;
  if (typeof id !== "string" || !DA_NAME.test(id)) {
    throw daError(400, "'id' must be 1-64 letters, digits or underscores (an unqualified name)");
  }
  if (typeof engine !== "string" || !DA_ENGINES.some((e) => e.id === engine)) {
    throw daError(400, `Engine '${String(engine)}' not found: 'engine' must be an engine id`);
  }
  if (description !== undefined && typeof description !== "string") {
    throw daError(400, "'description' must be a string");
  }
  const { app, owner } = callerApp(ctx);
  if (app.appBundles.has(id)) {
    throw daError(409, `AppBundle '${owner}.${id}' already exists: post a new version instead`);
  }
  const bundle: DaAppBundle = {
    name: id,
    engine,
    description: description ?? "",
    version: 1,
    aliases: new Map(),
  };
  app.appBundles.set(id, bundle);
  const key = `apps/${owner}/${id}/1`;
  const date = new Date(nowMs(ctx.sandbox.clock)).toISOString().replace(/[-:]|\.\d{3}/g, "");
  return json(200, {
    uploadParameters: {
      endpointURL: DA_UPLOAD_ENDPOINT,
      formData: {
        key,
        "content-type": "application/octet-stream",
        policy: btoa(JSON.stringify({ conditions: [{ key }, ["content-length-range", 0, 104857600]] })),
        success_action_status: "200",
        success_action_redirect: "",
        "x-amz-algorithm": "AWS4-HMAC-SHA256",
        "x-amz-date": date,
        "x-amz-server-side-encryption": "AES256",
      },
    },
    id: `${owner}.${id}`,
    engine,
    description: bundle.description,
    version: bundle.version,
  });
}

function listActivities(_req: Request, ctx: RequestContext): Response {
  return page(DA_PUBLIC_ACTIVITIES, ctx);
}

const base = "/da/:region/v3";

/** Routes of Design Automation v3. */
export const daRoutes: readonly Route[] = [
  { method: "GET", pattern: `${base}/forgeapps/me`, scopes: SCOPES, handler: inRegion(getNickname) },
  { method: "PATCH", pattern: `${base}/forgeapps/me`, scopes: SCOPES, handler: inRegion(setNickname) },
  { method: "GET", pattern: `${base}/engines`, scopes: SCOPES, handler: inRegion(listEngines) },
  { method: "GET", pattern: `${base}/engines/:id`, scopes: SCOPES, handler: inRegion(getEngine) },
  { method: "GET", pattern: `${base}/appbundles`, scopes: SCOPES, handler: inRegion(listAppBundles) },
  { method: "POST", pattern: `${base}/appbundles`, scopes: SCOPES, handler: inRegion(createAppBundle) },
  { method: "GET", pattern: `${base}/activities`, scopes: SCOPES, handler: inRegion(listActivities) },
];
