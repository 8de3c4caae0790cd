/**
 * The request middleware of a sandbox, each named for what it does: `serveControlApi` (the
 * `/_sandbox/` routes behind their guard, control_guard.ts; never faulted nor recorded), `injectFaults`, `answerInternalErrors`,
 * `logRequests` (request log and access log), `followSandboxClock` (the Date header),
 * `closeWhileDropArmed` and `trackConnections`; `createRequestHandler` composes them around the
 * routes of the emulated services.
 */

import { abortableSleep } from "../core/sleep.ts";
import { nowMs } from "./clock.ts";
import type { RequestContext, SandboxContext } from "./context.ts";
import { controlRoutes, isControlPath } from "./control.ts";
import { type ControlAccess, controlRefusal } from "./control_guard.ts";
import { gatewayError, JSON_API_TYPE, renderError } from "./errors.ts";
import type { Fault } from "./faults.ts";
import type { Front } from "./front.ts";
import { redactedQuery, type RequestLogEntry } from "./request_log.ts";
import { empty, json } from "./respond.ts";
import { createRouter, dispatch, type Route, type Router } from "./router.ts";

/** What the middleware needs from the server around it. */
export interface MiddlewareOptions {
  /** Route tables of the emulated services. */
  routes: readonly (readonly Route[])[];
  /** The connections, addressed by the inner port a request arrives from. */
  connections: Pick<Front, "drop" | "closeIdle">;
  /** Receives one access-log line per request. */
  log?: (line: string) => void;
  /** Receives each request-log entry and the URL as sent (repeated query parameters included). */
  onRequest?: (entry: RequestLogEntry, url: URL) => void;
  /** Aborted when the sandbox closes, to cut injected delays short. */
  signal?: AbortSignal;
  /** Who may use the control API; default: its own loopback address, no token. */
  access?: ControlAccess;
}

/** The control API's guard when none is given: a sandbox on loopback. */
const LOOPBACK_ACCESS: ControlAccess = { hostname: "127.0.0.1" };

/** Handles one request; `info` is what `Deno.serve` passes. */
export type RequestHandler = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Promise<Response>;

/** What one request came to: its answer (none when its connection was dropped) and why it failed. */
interface Outcome {
  res?: Response;
  error?: string;
  fault?: Fault;
}

/** Routes a request, turning a handler's crash into the gateway's 500 answer. */
async function answerInternalErrors(router: Router, req: Request, ctx: RequestContext): Promise<Outcome> {
  try {
    return { res: await dispatch(router, req, ctx) };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    return { res: renderError(gatewayError(500, `Internal sandbox error: ${error}`, "SANDBOX-500")), error };
  }
}

/** Applies the fault that fires for this request, if any: a delay, then a drop or a status, or neither. */
async function injectFaults(
  sb: SandboxContext,
  req: Request,
  ctx: RequestContext,
  info: Deno.ServeHandlerInfo<Deno.NetAddr>,
  opts: MiddlewareOptions,
  next: () => Promise<Outcome>,
): Promise<Outcome> {
  const fault = sb.faults.take(req.method, ctx.url.pathname);
  if (fault?.delay_ms) await abortableSleep(fault.delay_ms, opts.signal);
  if (fault?.drop) {
    opts.connections.drop(info.remoteAddr.port);
    return { fault };
  }
  if (fault?.status !== undefined) {
    const headers: Record<string, string> = {};
    if (fault.retry_after !== undefined) headers["retry-after"] = String(fault.retry_after);
    return { fault, res: json(fault.status, { developerMessage: "Injected fault" }, headers) };
  }
  return { ...await next(), ...(fault ? { fault } : {}) };
}

/** Records a request in the request log and the access log. */
function logRequests(
  sb: SandboxContext,
  req: Request,
  ctx: RequestContext,
  outcome: Outcome,
  timing: { time: string; started: number; body?: unknown },
  log?: (line: string) => void,
  onRequest?: (entry: RequestLogEntry, url: URL) => void,
): void {
  const { res, error, fault } = outcome;
  const path = ctx.url.pathname;
  const ms = performance.now() - timing.started;
  const entry = sb.requests.add({
    time: timing.time,
    method: req.method,
    path,
    ...(ctx.sentPath !== undefined ? { sent_path: ctx.sentPath } : {}),
    query: redactedQuery(ctx.url),
    status: res?.status ?? 0,
    duration_ms: Math.round(ms * 10) / 10,
    ...(ctx.clientId !== undefined ? { client_id: ctx.clientId } : {}),
    ...(ctx.token ? { scope: ctx.token.scope.join(" ") } : {}),
    ...(ctx.grantType !== undefined ? { grant_type: ctx.grantType } : {}),
    ...(fault ? { fault_id: fault.id } : {}),
    ...(timing.body !== undefined ? { body: timing.body } : {}),
  });
  onRequest?.(entry, ctx.url);
  const note = (fault ? ` fault=${fault.id}` : "") + (error ? ` error: ${error}` : "");
  log?.(`${req.method} ${path} ${res ? res.status : "dropped"} ${Math.round(ms)}ms${note}`);
}

/**
 * A construction-cloud path (account administration, issues, RFIs and the like): its JSON write
 * bodies (projects, users, issues; no secrets) are logged too.
 */
function isAdminPath(path: string): boolean {
  return path.startsWith("/construction/") || path.startsWith("/hq/");
}

/**
 * A JSON:API request (a data management write; such bodies carry no secrets) read once: its parsed
 * body for the request log, and the request again for the handler. Other requests pass untouched
 * (`Request.clone` would wake Deno's legacy-abort warning).
 */
async function withJsonApiBody(req: Request): Promise<{ req: Request; body?: unknown }> {
  const type = req.headers.get("content-type") ?? "";
  const admin = type.startsWith("application/json") && isAdminPath(new URL(req.url).pathname);
  if (!(type.startsWith(JSON_API_TYPE) || admin) || req.method === "GET" || req.method === "HEAD") {
    return { req };
  }
  const text = await req.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { req: new Request(req.url, { method: req.method, headers: req.headers, body: text }), body };
}

/** Sets the Date header from the sandbox clock, so that clients timing by the server see it advanced. */
function followSandboxClock(sb: SandboxContext, res: Response): Response {
  if (sb.clock.offsetMs !== 0) res.headers.set("date", new Date(nowMs(sb.clock)).toUTCString());
  return res;
}

/**
 * A client resends a request transparently when a reused keep-alive connection fails before the
 * answer (Deno's fetch does), which would hide a drop. So while a drop fault is armed, idle
 * connections are closed and answers close theirs: every request then has a fresh one.
 */
function closeWhileDropArmed(sb: SandboxContext, res: Response): Response {
  if (sb.faults.dropArmed()) res.headers.set("connection", "close");
  return res;
}

/** Serves the control API; arming a drop fault closes the idle connections at once. */
async function serveControlApi(
  sb: SandboxContext,
  control: Router,
  req: Request,
  ctx: RequestContext,
  opts: MiddlewareOptions,
  busy: (port: number) => boolean,
): Promise<Response> {
  const started = performance.now();
  const refused = controlRefusal(req, ctx.url, opts.access ?? LOOPBACK_ACCESS);
  if (refused) {
    opts.log?.(`${req.method} ${ctx.url.pathname} ${refused.status} refused: ${refused.message}`);
    return renderError(refused);
  }
  const wasArmed = sb.faults.dropArmed();
  const { res, error } = await answerInternalErrors(control, req, ctx);
  if (!wasArmed && sb.faults.dropArmed()) opts.connections.closeIdle(busy);
  if (changes(req)) await commit(sb, opts);
  const note = error ? ` error: ${error}` : "";
  opts.log?.(
    `${req.method} ${ctx.url.pathname} ${res!.status} ${Math.round(performance.now() - started)}ms${note}`,
  );
  return closeWhileDropArmed(sb, res!);
}

/** True for a control request that may change state. */
function changes(req: Request): boolean {
  return req.method !== "GET" && req.method !== "HEAD";
}

/**
 * Puts what a request changed on disk before it is answered, when the sandbox keeps its state: any
 * request, reads included (a signed upload URL opens a session; a read may create on first use).
 * `path` says which stores it may have changed; none: any.
 */
async function commit(sb: SandboxContext, opts: MiddlewareOptions, path?: string): Promise<void> {
  try {
    await sb.durable?.commit(path);
  } catch (e) {
    opts.log?.(`cannot write the state to the data dir: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Counts the requests in flight per inner port, so that closing idle connections spares busy ones. */
function trackConnections(
  handle: RequestHandler,
): { handler: RequestHandler; busy: (port: number) => boolean } {
  const inFlight = new Map<number, number>();
  const handler: RequestHandler = (req, info) => {
    const port = info.remoteAddr.port;
    inFlight.set(port, (inFlight.get(port) ?? 0) + 1);
    info.completed.catch(() => {}).finally(() => {
      const n = (inFlight.get(port) ?? 1) - 1;
      if (n > 0) inFlight.set(port, n);
      else inFlight.delete(port);
    });
    return handle(req, info);
  };
  return { handler, busy: (port) => inFlight.has(port) };
}

/**
 * Collapses repeated slashes in `url`'s path as the platform's gateway does (the official SDK sends
 * `//authentication/v2/token`); returns the path as sent when it changed. Object keys travel
 * percent-encoded, so no key's own slashes are touched.
 */
export function collapseSlashes(url: URL): string | undefined {
  const sent = url.pathname;
  const served = sent.replace(/\/{2,}/g, "/");
  if (served === sent) return undefined;
  url.pathname = served;
  return sent;
}

/** Builds the request handler of a sandbox. */
export function createRequestHandler(sb: SandboxContext, opts: MiddlewareOptions): RequestHandler {
  const api = createRouter(...opts.routes);
  const control = createRouter(controlRoutes);
  const tracked = trackConnections(async (req, info) => {
    const timing = { started: performance.now(), time: new Date(nowMs(sb.clock)).toISOString() };
    const url = new URL(req.url);
    const sentPath = collapseSlashes(url);
    const ctx: RequestContext = { sandbox: sb, url, baseUrl: url.origin, params: {}, sentPath };
    if (isControlPath(url.pathname)) return serveControlApi(sb, control, req, ctx, opts, tracked.busy);
    const read = await withJsonApiBody(req);
    const outcome = await injectFaults(
      sb,
      req,
      ctx,
      info,
      opts,
      () => answerInternalErrors(api, read.req, ctx),
    );
    logRequests(sb, req, ctx, outcome, { ...timing, body: read.body }, opts.log, opts.onRequest);
    await commit(sb, opts, url.pathname);
    // After a drop the connection is gone and this answer goes nowhere (unless the client had
    // already left, in which case nobody reads it either).
    return outcome.res ? closeWhileDropArmed(sb, followSandboxClock(sb, outcome.res)) : empty(500);
  });
  return tracked.handler;
}
