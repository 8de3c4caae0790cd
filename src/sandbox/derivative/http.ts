/**
 * Request and response helpers of the Model Derivative routes: the service's `x-ads-*` headers,
 * regions, the second scope of two-scope operations, and finding the
 * manifest a path names.
 */

import { DATA_CENTRES } from "../../aps/regions.ts";
import { insufficientScope } from "../auth/bearer.ts";
import type { RequestContext } from "../context.ts";
import { derivativeError } from "../errors.ts";
import { json } from "../respond.ts";
import { mdHeaders } from "./headers.ts";
import type { Translation } from "./store.ts";
import { manifestKey } from "./urn.ts";

export { mdHeaders } from "./headers.ts";

/** Path prefix of the legacy EMEA routes. */
export const EMEA_PREFIX = "/modelderivative/v2/regions/eu/designdata";

/** A JSON answer with the service's headers. */
export function mdJson(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return json(status, body, mdHeaders(extra));
}

/** The 202 answer of data still being extracted. */
export function accepted(): Response {
  return mdJson(202, { result: "success" });
}

/** The region a request names (header, else the legacy EMEA path), undefined when none; throws 400 when invalid. */
export function requestRegion(req: Request, ctx: RequestContext): string | undefined {
  const header = req.headers.get("region");
  if (header !== null) {
    const upper = header.trim().toUpperCase();
    if ((DATA_CENTRES as readonly string[]).includes(upper)) return upper;
    throw derivativeError(400, `Invalid region '${header}': must be one of ${DATA_CENTRES.join(", ")}`);
  }
  return ctx.url.pathname.startsWith(EMEA_PREFIX) ? "EMEA" : undefined;
}

/** Throws the gateway's insufficient-scope refusal when the token holds none of `anyOf`. */
export function requireScope(ctx: RequestContext, ...anyOf: string[]): void {
  if (!anyOf.some((s) => ctx.token?.scope.includes(s))) throw insufficientScope();
}

/** True when a boolean header is `true` (any case). */
export function headerFlag(req: Request, name: string): boolean {
  return req.headers.get(name)?.trim().toLowerCase() === "true";
}

/** The manifest of the `:urn` path parameter (in the request's region); throws 404 when there is none. */
export function findManifest(req: Request, ctx: RequestContext): Translation {
  const region = requestRegion(req, ctx);
  const tr = ctx.sandbox.derivative.manifests.get(manifestKey(ctx.params.urn));
  if (!tr || (region !== undefined && region !== tr.region)) {
    throw derivativeError(
      404,
      `No manifest for urn '${ctx.params.urn}': no translation job was started for it`,
    );
  }
  return tr;
}
