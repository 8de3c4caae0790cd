/**
 * A tiny router over route tables declared as data. A route names the scopes it accepts; the
 * router enforces them before the handler runs, so a service only declares its routes. Handlers
 * throw `SandboxError` to refuse; dispatching renders it in the refusing service's shape.
 */

import { scopesOfTemplate } from "../aps/operation_scopes.ts";
import { requireBearer } from "./auth/bearer.ts";
import type { RequestContext } from "./context.ts";
import { notFound, renderError, SandboxError } from "./errors.ts";

/** Answers one request; refuses by throwing `SandboxError`. */
export type Handler = (req: Request, ctx: RequestContext) => Response | Promise<Response>;

/** One operation of the emulated API. */
export interface Route {
  method: string;
  /** Path with `:name` parameters, e.g. `/oss/v2/buckets/:bucketKey/details`; a last `*` takes the rest. */
  pattern: string;
  /** The token needs any one of these; empty for a public route. */
  scopes: readonly string[];
  /** The service also takes `Authorization: <token>` without the `Bearer` scheme. */
  bareToken?: boolean;
  handler: Handler;
}

/** A route that matched, with its decoded parameters. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** Finds the route for a request. */
export interface Router {
  match(method: string, path: string): RouteMatch | undefined;
}

interface CompiledRoute {
  route: Route;
  segments: string[];
  rest: boolean;
}

/**
 * A route as the router enforces it: a protected route of a platform operation takes the scopes of
 * the one table (aps/operation_scopes.ts), whatever its own list says; a public route stays public.
 */
function compile(route: Route): CompiledRoute {
  const segments = route.pattern.split("/");
  const rest = segments.at(-1) === "*";
  const table = route.scopes.length > 0 ? scopesOfTemplate(route.method, route.pattern) : undefined;
  const enforced = table ? { ...route, scopes: table } : route;
  return { route: enforced, segments: rest ? segments.slice(0, -1) : segments, rest };
}

function matchSegments(c: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  if (c.rest ? parts.length < c.segments.length : parts.length !== c.segments.length) return undefined;
  const params: Record<string, string> = {};
  try {
    for (let i = 0; i < c.segments.length; i++) {
      const seg = c.segments[i];
      if (seg.startsWith(":")) {
        if (parts[i] === "") return undefined;
        params[seg.slice(1)] = decodeURIComponent(parts[i]);
      } else if (seg !== parts[i]) {
        return undefined;
      }
    }
    if (c.rest) params["*"] = decodeURIComponent(parts.slice(c.segments.length).join("/"));
  } catch {
    return undefined; // malformed percent-encoding: no route serves it
  }
  return params;
}

/** Builds a router over route tables; earlier routes win. */
export function createRouter(...tables: readonly (readonly Route[])[]): Router {
  const compiled = tables.flat().map(compile);
  return {
    match(method, path) {
      const parts = path.split("/");
      for (const c of compiled) {
        if (c.route.method !== method) continue;
        const params = matchSegments(c, parts);
        if (params) return { route: c.route, params };
      }
      return undefined;
    },
  };
}

/**
 * Routes a request: 404 when no route serves it, the bearer and scope check, then the handler; a
 * `SandboxError` thrown on the way becomes the platform's error answer (anything else propagates).
 */
export async function dispatch(router: Router, req: Request, ctx: RequestContext): Promise<Response> {
  try {
    const found = router.match(req.method, ctx.url.pathname);
    if (!found) throw notFound();
    ctx.params = found.params;
    if (found.route.scopes.length > 0) {
      await requireBearer(req, ctx, found.route.scopes, found.route.bareToken);
    }
    return await found.route.handler(req, ctx);
  } catch (e) {
    if (e instanceof SandboxError) return renderError(e);
    throw e;
  }
}
