/**
 * Webhooks v1 (openapi/webhooks/webhooks.yaml): hooks per region and caller, listed in pages
 * (`links.next` is an absolute URL carrying `pageState`; an empty list is 204 except for the app's
 * list), and the secret tokens that sign callbacks. Reads need `data:read`, writes `data:write`.
 * Delivery of events is in delivery.ts.
 */

import type { RequestContext } from "../context.ts";
import { webhooksError } from "../errors.ts";
import { empty, json, readJson } from "../respond.ts";
import type { Route } from "../router.ts";
import { createEventHook, createSystemHooks, deleteHook, getHook, patchHook } from "./hooks.ts";
import { badInput, caller, hookRegion, pathEvent, pathSystem } from "./request.ts";
import { regionHooks, secretKey, type StoredHook } from "./store.ts";
import { hookDetails } from "./views.ts";

const READ = ["data:read"];
const WRITE = ["data:write"];

function encodePageState(offset: number): string {
  return btoa(JSON.stringify({ offset }));
}

function decodePageState(state: string): number {
  try {
    const { offset } = JSON.parse(atob(state));
    if (Number.isInteger(offset) && offset >= 0) return offset;
  } catch { /* reported below */ }
  throw badInput(`Invalid pageState '${state}'`);
}

/** One page of the caller's hooks that pass `keep`, in the request's region; 204 when none (unless `emptyOk`). */
function listPage(
  req: Request,
  ctx: RequestContext,
  keep: (h: StoredHook) => boolean,
  opts: { sort?: "asc" | "desc"; emptyOk?: boolean } = {},
): Response {
  const q = ctx.url.searchParams;
  const status = q.get("status");
  if (status !== null && status !== "active" && status !== "inactive") {
    throw badInput("'status' must be 'active' or 'inactive'");
  }
  const hooks = [...regionHooks(ctx.sandbox.webhooks, hookRegion(req, ctx)).values()]
    .filter((h) => keep(h) && (status === null || h.status === status));
  if (opts.sort) {
    const sign = opts.sort === "asc" ? 1 : -1;
    hooks.sort((a, b) => sign * (a.updatedMs - b.updatedMs));
  }
  const state = q.get("pageState");
  const offset = state === null ? 0 : decodePageState(state);
  const size = ctx.sandbox.settings.webhookPageSize;
  const page = hooks.slice(offset, offset + size);
  if (page.length === 0 && !opts.emptyOk) return empty(204);
  const links: Record<string, string> = {};
  if (offset + size < hooks.length) {
    const next = new URL(`${ctx.baseUrl}${ctx.url.pathname}${ctx.url.search}`);
    next.searchParams.set("pageState", encodePageState(offset + size));
    links.next = next.toString();
  }
  return json(200, { links, data: page.map(hookDetails) });
}

function mine(ctx: RequestContext): (h: StoredHook) => boolean {
  const who = caller(ctx).createdBy;
  return (h) => h.createdBy === who;
}

function listEventHooks(req: Request, ctx: RequestContext): Response {
  const sys = pathSystem(ctx);
  const event = pathEvent(ctx, sys);
  const scopeName = ctx.url.searchParams.get("scopeName");
  const own = mine(ctx);
  return listPage(req, ctx, (h) =>
    own(h) && h.system === sys.system && h.event === event &&
    (scopeName === null || Object.values(h.scope).includes(scopeName)));
}

function listSystemHooks(req: Request, ctx: RequestContext): Response {
  const sys = pathSystem(ctx);
  const own = mine(ctx);
  return listPage(req, ctx, (h) => own(h) && h.system === sys.system);
}

function listHooks(req: Request, ctx: RequestContext): Response {
  return listPage(req, ctx, mine(ctx));
}

/** `GET /app/hooks`: every hook the calling app created (2-legged only), by `lastUpdatedDate`. */
function listAppHooks(req: Request, ctx: RequestContext): Response {
  if (ctx.token?.userid !== undefined) {
    throw webhooksError(403, "FORBIDDEN", "This operation requires a two-legged access token");
  }
  const sort = ctx.url.searchParams.get("sort") ?? "desc";
  if (sort !== "asc" && sort !== "desc") throw badInput("'sort' must be 'asc' or 'desc'");
  const clientId = caller(ctx).clientId;
  return listPage(req, ctx, (h) => h.clientId === clientId, { sort, emptyOk: true });
}

async function tokenBody(req: Request): Promise<string> {
  const b = await readJson(req) as { token?: unknown } | undefined;
  const token = b && typeof b === "object" ? b.token : undefined;
  if (typeof token !== "string" || token === "") throw badInput("'token' is required: the secret, a string");
  return token;
}

/** `POST /tokens`: sets the caller's secret; 400 when one exists. */
async function createToken(req: Request, ctx: RequestContext): Promise<Response> {
  const token = await tokenBody(req);
  const key = secretKey(hookRegion(req, ctx), caller(ctx).createdBy);
  const secrets = ctx.sandbox.webhooks.secrets;
  if (secrets.has(key)) throw badInput("Secret token already exists: change it with PUT /tokens/@me");
  secrets.set(key, token);
  return json(200, { status: 200, detail: ["Token created successfully for client: *****"] });
}

/** `PUT /tokens/@me`: replaces the caller's secret (at once; the platform takes up to 10 minutes). */
async function putToken(req: Request, ctx: RequestContext): Promise<Response> {
  const token = await tokenBody(req);
  ctx.sandbox.webhooks.secrets.set(secretKey(hookRegion(req, ctx), caller(ctx).createdBy), token);
  return empty(204);
}

function deleteToken(req: Request, ctx: RequestContext): Response {
  ctx.sandbox.webhooks.secrets.delete(secretKey(hookRegion(req, ctx), caller(ctx).createdBy));
  return empty(204);
}

const base = "/webhooks/v1";
const eventHooks = `${base}/systems/:system/events/:event/hooks`;

/** Routes of Webhooks v1. */
export const webhookRoutes: readonly Route[] = [
  { method: "GET", pattern: `${eventHooks}/:hook_id`, scopes: READ, handler: getHook },
  { method: "PATCH", pattern: `${eventHooks}/:hook_id`, scopes: WRITE, handler: patchHook },
  { method: "DELETE", pattern: `${eventHooks}/:hook_id`, scopes: WRITE, handler: deleteHook },
  { method: "GET", pattern: eventHooks, scopes: READ, handler: listEventHooks },
  { method: "POST", pattern: eventHooks, scopes: WRITE, handler: createEventHook },
  { method: "GET", pattern: `${base}/systems/:system/hooks`, scopes: READ, handler: listSystemHooks },
  { method: "POST", pattern: `${base}/systems/:system/hooks`, scopes: WRITE, handler: createSystemHooks },
  { method: "GET", pattern: `${base}/hooks`, scopes: READ, handler: listHooks },
  { method: "GET", pattern: `${base}/app/hooks`, scopes: READ, handler: listAppHooks },
  { method: "POST", pattern: `${base}/tokens`, scopes: WRITE, handler: createToken },
  { method: "PUT", pattern: `${base}/tokens/@me`, scopes: WRITE, handler: putToken },
  { method: "DELETE", pattern: `${base}/tokens/@me`, scopes: WRITE, handler: deleteToken },
];
