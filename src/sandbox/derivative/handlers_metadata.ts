/**
 * Handlers of model metadata: the model views of a translated design, its object tree and its
 * properties (all, one object, or a query). Each extraction answers 202 on its first read, as the
 * platform does while it prepares the data, and 200 afterwards.
 */

import type { RequestContext } from "../context.ts";
import { derivativeError } from "../errors.ts";
import { nowMs } from "../clock.ts";
import { accepted, findManifest, headerFlag, mdJson } from "./http.ts";
import { succeeded } from "./jobs.ts";
import { VIEW_NAME } from "./manifest.ts";
import type { ParsedModel } from "./model.ts";
import { queryProperties } from "./query.ts";
import type { DerivativeJob, Translation } from "./store.ts";
import { objectTree, propertyCollection, subtree } from "./tree.ts";

/** Above this size an answer needs `forceget=true`, as on the platform. */
export const FORCEGET_LIMIT = 20 * 1024 * 1024;

/** The successful SVF/SVF2 derivatives, the preferred one first (SVF2, or SVF with `x-ads-derivative-format: fallback`). */
function viewDerivatives(req: Request, tr: Translation, now: number): DerivativeJob[] {
  const fallback = req.headers.get("x-ads-derivative-format")?.toLowerCase() === "fallback";
  const order = fallback ? ["svf", "svf2"] : ["svf2", "svf"];
  return tr.derivatives
    .filter((d) => (d.outputType === "svf" || d.outputType === "svf2") && succeeded(d, now))
    .sort((a, b) => order.indexOf(a.outputType) - order.indexOf(b.outputType));
}

/** `GET .../{urn}/metadata`: the 3D view once an SVF/SVF2 derivative is done, else an empty list. */
export function listModelViews(req: Request, ctx: RequestContext): Response {
  const tr = findManifest(req, ctx);
  const [view] = viewDerivatives(req, tr, nowMs(ctx.sandbox.clock));
  const metadata = view ? [{ name: VIEW_NAME, role: "3d", guid: view.guid, isMasterView: true }] : [];
  return mdJson(200, { data: { type: "metadata", metadata } });
}

/** The model of the view `:guid`, or "extracting" on the first read of `what` (answered 202); throws 404. */
function extractedModel(req: Request, ctx: RequestContext, what: string): ParsedModel | "extracting" {
  const tr = findManifest(req, ctx);
  const guid = ctx.params.guid;
  const view = viewDerivatives(req, tr, nowMs(ctx.sandbox.clock)).find((d) => d.guid === guid);
  if (!view || tr.parse.state !== "done") {
    throw derivativeError(404, `No model view '${guid}' in this design`);
  }
  const key = `${what}:${guid}`;
  if (headerFlag(req, "x-ads-force")) tr.extracted.delete(key);
  if (!tr.extracted.has(key)) {
    tr.extracted.add(key);
    return "extracting";
  }
  return tr.parse.model;
}

function objectIdParam(ctx: RequestContext): number | undefined {
  const text = ctx.url.searchParams.get("objectid");
  if (text === null) return undefined;
  const id = Number(text);
  if (!Number.isInteger(id) || id <= 0) throw derivativeError(400, "'objectid' must be a positive integer");
  return id;
}

/** A large answer needs `forceget=true`; `x-ads-size` tells the size either way. */
function sized(ctx: RequestContext, body: unknown): Response {
  const text = JSON.stringify(body);
  const size = new TextEncoder().encode(text).length;
  if (size > FORCEGET_LIMIT && ctx.url.searchParams.get("forceget") !== "true") {
    throw derivativeError(413, "Please use the 'forceget' parameter to force querying the data.");
  }
  return new Response(text, {
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8", "x-ads-size": String(size) },
  });
}

/** `GET .../{urn}/metadata/{guid}`: the object tree, or the subtree of `objectid` (`level=1`: its children). */
export function getObjectTree(req: Request, ctx: RequestContext): Response {
  const objectid = objectIdParam(ctx);
  const model = extractedModel(req, ctx, "tree");
  if (model === "extracting") return accepted();
  const tree = objectTree(model);
  const level = ctx.url.searchParams.get("level");
  const node = objectid === undefined
    ? tree
    : subtree(tree, objectid, level === null ? undefined : Number(level));
  if (!node) throw derivativeError(404, `No object ${objectid} in this model view`);
  return sized(ctx, { data: { type: "objects", objects: [node] } });
}

/** `GET .../{urn}/metadata/{guid}/properties`: every object's properties, or those of `objectid`. */
export function getProperties(req: Request, ctx: RequestContext): Response {
  const objectid = objectIdParam(ctx);
  const model = extractedModel(req, ctx, "properties");
  if (model === "extracting") return accepted();
  const all = propertyCollection(model);
  const collection = objectid === undefined ? all : all.filter((p) => p.objectid === objectid);
  if (collection.length === 0) throw derivativeError(404, `No object ${objectid} in this model view`);
  return sized(ctx, { data: { type: "properties", collection } });
}

/** `POST .../{urn}/metadata/{guid}/properties:query`. */
export async function queryPropertiesRoute(req: Request, ctx: RequestContext): Promise<Response> {
  const text = await req.text();
  let body: unknown;
  try {
    body = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    throw derivativeError(400, "The request body is not JSON");
  }
  const model = extractedModel(req, ctx, "properties");
  if (model === "extracting") return accepted();
  const page = queryProperties(propertyCollection(model), body);
  if (typeof page === "string") throw derivativeError(400, page);
  return mdJson(200, {
    pagination: page.pagination,
    data: { type: "properties", collection: page.collection },
  });
}
