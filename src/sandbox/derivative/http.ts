/**
 * Request and response helpers of the Model Derivative routes: `{"diagnostic"}` errors, the
 * service's `x-ads-*` headers, regions, the second scope of two-scope operations, and finding the
 * manifest a path names.
 */

import { DATA_CENTRES } from "../../aps/regions.ts";
import { insufficientScopeResponse } from "../bearer.ts";
import type { RequestContext } from "../context.ts";
import { json } from "../respond.ts";
import type { Translation } from "./store.ts";
import { manifestKey } from "./urn.ts";

/** Path prefix of the legacy EMEA routes. */
export const EMEA_PREFIX = "/modelderivative/v2/regions/eu/designdata";

const STARTED = new Date();

/** The service's common response headers. */
export function mdHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    "x-ads-app-identifier": "platform-viewing-sandbox",
    "x-ads-startup-time": STARTED.toUTCString(),
    "x-ads-duration": "1",
    ...extra,
  };
}

/** A JSON answer with the service's headers. */
export function mdJson(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return json(status, body, mdHeaders(extra));
}

/** A Model Derivative error: `{"diagnostic": message}`. */
export function diagnostic(status: number, message: string): Response {
  return mdJson(status, { diagnostic: message });
}

/** The 202 answer of data still being extracted. */
export function accepted(): Response {
  return mdJson(202, { result: "success" });
}

/** The region a request names (header, else the legacy EMEA path), undefined when none; a Response when invalid. */
export function requestRegion(req: Request, ctx: RequestContext): string | undefined | Response {
  const header = req.headers.get("region");
  if (header !== null) {
    const upper = header.trim().toUpperCase();
    return (DATA_CENTRES as readonly string[]).includes(upper)
      ? upper
      : diagnostic(400, `Invalid region '${header}': must be one of ${DATA_CENTRES.join(", ")}`);
  }
  return ctx.url.pathname.startsWith(EMEA_PREFIX) ? "EMEA" : undefined;
}

/** The insufficient-scope answer when the token lacks `scope`, else undefined. */
export function needsScope(ctx: RequestContext, ...anyOf: string[]): Response | undefined {
  return anyOf.some((s) => ctx.token?.scope.includes(s)) ? undefined : insufficientScopeResponse();
}

/** True when a boolean header is `true` (any case). */
export function headerFlag(req: Request, name: string): boolean {
  return req.headers.get(name)?.trim().toLowerCase() === "true";
}

/** The manifest of the `:urn` path parameter (in the request's region), or the 404 answer. */
export function findManifest(req: Request, ctx: RequestContext): Translation | Response {
  const region = requestRegion(req, ctx);
  if (region instanceof Response) return region;
  const tr = ctx.sandbox.state.derivatives.manifests.get(manifestKey(ctx.params.urn));
  if (!tr || (region !== undefined && region !== tr.region)) {
    return diagnostic(404, `No manifest for urn '${ctx.params.urn}': no translation job was started for it`);
  }
  return tr;
}
