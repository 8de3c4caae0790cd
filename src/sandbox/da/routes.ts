/**
 * Design Automation v3: the app's nickname, engines, app bundles, activities, work
 * items and the service's health, under `/da/us-east/v3` (and `/da/us-west/v3`), all with scope
 * `code:all`; plus the storage the platform hands out signed links to (packages, reports).
 *
 * Lists answer a page object (paging.ts). Errors are a bare JSON string, as the platform's recorded
 * answers are (`"Cannot modify alias that does not exist."`). The app's service limits answer the
 * recorded shape; `/shares` lists no shares (the sandbox shares nothing).
 */

import type { RequestContext } from "../context.ts";
import { activityKind } from "./activities.ts";
import { appBundleKind, packageRoutes } from "./bundles.ts";
import { page } from "./paging.ts";
import { DA_ENGINES, DA_HEALTH_ENGINES, DA_NAME, DA_PUBLIC_ACTIVITIES, versionedIds } from "./store.ts";
import { callerApp, versionedRoutes } from "./versioned.ts";
import { workItemRoutes } from "./workitems.ts";
import { daError, notFound } from "../errors.ts";
import { empty, json, readJson } from "../respond.ts";
import type { Handler, Route } from "../router.ts";

/** Regions the sandbox serves Design Automation in. */
const DA_REGIONS = ["us-east", "us-west"];

const SCOPES = ["code:all"];

/** Wraps a handler so that it answers only in the regions the sandbox serves. */
function inRegion(handler: Handler): Handler {
  return (req, ctx) => {
    if (!DA_REGIONS.includes(ctx.params.region)) throw notFound();
    return handler(req, ctx);
  };
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
  if (app.appBundles.size > 0 || app.activities.size > 0) {
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

/** `DELETE /forgeapps/me`: every app bundle, activity and work item of the app, and its nickname. */
function deleteApp(_req: Request, ctx: RequestContext): Response {
  const { clientId } = callerApp(ctx);
  ctx.sandbox.da.apps.delete(clientId);
  for (const [id, wi] of ctx.sandbox.da.workItems) {
    if (wi.clientId === clientId) ctx.sandbox.da.workItems.delete(id);
  }
  return empty(200);
}

/** The recorded answer of `GET /servicelimits/me` (Design Automation service limits). */
const SERVICE_LIMITS = {
  frontendLimits: {
    limitPayloadSizeInKB: 16,
    limitVersions: 100,
    limitAliases: 100,
    limitPublicAliases: 0,
    limitAppUploadSizeInMB: 100,
  },
  backendLimits: {
    AutoCAD: { limitProcessingTimeSec: 100, limitTotalUncompressedAppsSizeInMB: 500 },
    Revit: { limitProcessingTimeSec: 10800, limitTotalUncompressedAppsSizeInMB: 500 },
    Inventor: { limitProcessingTimeSec: 900, limitTotalUncompressedAppsSizeInMB: 500 },
    "3dsMax": { limitProcessingTimeSec: 3600, limitTotalUncompressedAppsSizeInMB: 500 },
  },
};

function getServiceLimits(_req: Request, ctx: RequestContext): Response {
  callerApp(ctx);
  return json(200, SERVICE_LIMITS);
}

function listShares(_req: Request, ctx: RequestContext): Response {
  callerApp(ctx);
  return page([], ctx);
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
  return page(versionedIds(app.appBundles, owner), ctx);
}

function listActivities(_req: Request, ctx: RequestContext): Response {
  const { app, owner } = callerApp(ctx);
  return page([...versionedIds(app.activities, owner), ...DA_PUBLIC_ACTIVITIES], ctx);
}

/**
 * `GET /health/{engine}`: one product's status (any case), or every product's for `api`; "Fully
 * Operational" unless the sandbox setting `da_health` names another status for the product.
 */
function health(_req: Request, ctx: RequestContext): Response {
  const asked = ctx.params.engine.toLowerCase();
  const set = Object.entries(ctx.sandbox.settings.daHealth);
  const status = (engine: string) => ({
    Status: set.find(([e]) => e.toLowerCase() === engine.toLowerCase())?.[1] ?? "Fully Operational",
  });
  if (asked === "api") {
    return json(200, { engines: Object.fromEntries(DA_HEALTH_ENGINES.map((e) => [e, status(e)])) });
  }
  if (!DA_HEALTH_ENGINES.some((e) => e.toLowerCase() === asked)) {
    throw daError(404, `No health status for engine '${ctx.params.engine}'`);
  }
  return json(200, status(asked));
}

const base = "/da/:region/v3";

/** Routes of Design Automation v3. */
export const daRoutes: readonly Route[] = [
  { method: "GET", pattern: `${base}/forgeapps/me`, scopes: SCOPES, handler: inRegion(getNickname) },
  { method: "PATCH", pattern: `${base}/forgeapps/me`, scopes: SCOPES, handler: inRegion(setNickname) },
  { method: "DELETE", pattern: `${base}/forgeapps/me`, scopes: SCOPES, handler: inRegion(deleteApp) },
  { method: "GET", pattern: `${base}/servicelimits/me`, scopes: SCOPES, handler: inRegion(getServiceLimits) },
  { method: "GET", pattern: `${base}/shares`, scopes: SCOPES, handler: inRegion(listShares) },
  { method: "GET", pattern: `${base}/engines`, scopes: SCOPES, handler: inRegion(listEngines) },
  { method: "GET", pattern: `${base}/engines/:id`, scopes: SCOPES, handler: inRegion(getEngine) },
  { method: "GET", pattern: `${base}/appbundles`, scopes: SCOPES, handler: inRegion(listAppBundles) },
  { method: "GET", pattern: `${base}/activities`, scopes: SCOPES, handler: inRegion(listActivities) },
  { method: "GET", pattern: `${base}/health/:engine`, scopes: [], handler: inRegion(health) },
  ...versionedRoutes(appBundleKind, base, SCOPES, inRegion),
  ...versionedRoutes(activityKind, base, SCOPES, inRegion),
  ...workItemRoutes(base, SCOPES, inRegion),
  ...packageRoutes,
];
