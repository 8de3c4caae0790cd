/**
 * The path of every request: the control API aside, then fault injection, then the routes of the
 * emulated services; each request recorded in the request log and the access log.
 */

import type { RequestContext, SandboxContext } from "./context.ts";
import { controlRoutes, isControlPath } from "./control.ts";
import type { Fault } from "./faults.ts";
import type { Front } from "./front.ts";
import { redactedQuery } from "./request_log.ts";
import { empty, gatewayError, json } from "./respond.ts";
import { createRouter, dispatch, type Route, type Router } from "./router.ts";
import { nowMs } from "./state.ts";

/** What the pipeline needs from the server around it. */
export interface PipelineOptions {
  /** Route tables of the emulated services. */
  routes: readonly (readonly Route[])[];
  /** The connections, addressed by the inner port a request arrives from. */
  connections: Pick<Front, "drop" | "closeIdle">;
  /** Receives one access-log line per request. */
  log?: (line: string) => void;
  /** Aborted when the sandbox closes, to cut injected delays short. */
  signal?: AbortSignal;
}

/** Handles one request; `info` is what `Deno.serve` passes. */
export type RequestHandler = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Promise<Response>;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

function faultResponse(fault: Fault): Response {
  const headers: Record<string, string> = {};
  if (fault.retry_after !== undefined) headers["retry-after"] = String(fault.retry_after);
  return json(fault.status ?? 500, { developerMessage: "Injected fault" }, headers);
}

async function safeDispatch(
  router: Router,
  req: Request,
  ctx: RequestContext,
): Promise<{ res: Response; error?: string }> {
  try {
    return { res: await dispatch(router, req, ctx) };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    return { res: gatewayError(500, `Internal sandbox error: ${error}`, "SANDBOX-500"), error };
  }
}

/** Builds the request handler of a sandbox. */
export function createPipeline(sandbox: SandboxContext, opts: PipelineOptions): RequestHandler {
  const api = createRouter(...opts.routes);
  const control = createRouter(controlRoutes);
  const busy = new Map<number, number>(); // inner port -> requests in flight on it
  const accessLog = (req: Request, path: string, status: number | string, started: number, note = "") => {
    opts.log?.(`${req.method} ${path} ${status} ${Math.round(performance.now() - started)}ms${note}`);
  };
  // A client resends a request transparently when a reused keep-alive connection fails before
  // the answer (Deno's fetch does), which would hide a drop. So while a drop fault is armed,
  // idle connections are closed and answers close theirs: every request then has a fresh one.
  const closingWhileDropArmed = (res: Response) => {
    if (sandbox.faults.dropArmed()) res.headers.set("connection", "close");
    return res;
  };

  async function handle(req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>): Promise<Response> {
    const started = performance.now();
    const time = new Date(nowMs(sandbox.state)).toISOString();
    const url = new URL(req.url);
    const ctx: RequestContext = { sandbox, url, baseUrl: url.origin, params: {} };
    if (isControlPath(url.pathname)) {
      const wasArmed = sandbox.faults.dropArmed();
      const { res, error } = await safeDispatch(control, req, ctx);
      if (!wasArmed && sandbox.faults.dropArmed()) opts.connections.closeIdle((port) => busy.has(port));
      accessLog(req, url.pathname, res.status, started, error ? ` error: ${error}` : "");
      return closingWhileDropArmed(res);
    }

    const fault = sandbox.faults.take(req.method, url.pathname);
    if (fault?.delay_ms) await sleep(fault.delay_ms, opts.signal);
    let res: Response | undefined;
    let error: string | undefined;
    if (fault?.drop) {
      opts.connections.drop(info.remoteAddr.port);
    } else if (fault?.status !== undefined) {
      res = faultResponse(fault);
    } else {
      ({ res, error } = await safeDispatch(api, req, ctx));
    }
    const status = res?.status ?? 0;
    sandbox.requests.add({
      time,
      method: req.method,
      path: url.pathname,
      query: redactedQuery(url),
      status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      ...(ctx.clientId !== undefined ? { client_id: ctx.clientId } : {}),
      ...(ctx.grantType !== undefined ? { grant_type: ctx.grantType } : {}),
      ...(fault ? { fault_id: fault.id } : {}),
    });
    const note = (fault ? ` fault=${fault.id}` : "") + (error ? ` error: ${error}` : "");
    accessLog(req, url.pathname, res ? status : "dropped", started, note);
    // The Date header follows the sandbox clock, so that clients measuring time by the server see
    // an advanced clock too.
    if (res && sandbox.state.clockOffsetMs !== 0) {
      res.headers.set("date", new Date(nowMs(sandbox.state)).toUTCString());
    }
    // After a drop the connection is gone and this answer goes nowhere (unless the client had
    // already left, in which case nobody reads it either).
    return res ? closingWhileDropArmed(res) : empty(500);
  }

  return (req, info) => {
    const port = info.remoteAddr.port;
    busy.set(port, (busy.get(port) ?? 0) + 1);
    info.completed.catch(() => {}).finally(() => {
      const n = (busy.get(port) ?? 1) - 1;
      if (n > 0) busy.set(port, n);
      else busy.delete(port);
    });
    return handle(req, info);
  };
}
