/**
 * The path of every request: the control API aside, then fault injection, then the routes of the
 * emulated services; each request recorded in the request log and the access log.
 */

import type { RequestContext, SandboxContext } from "./context.ts";
import { controlRoutes, isControlPath } from "./control.ts";
import { redactedQuery } from "./request_log.ts";
import { empty, gatewayError, json } from "./respond.ts";
import { createRouter, dispatch, type Route, type Router } from "./router.ts";
import { nowMs } from "./state.ts";
import type { Fault } from "./faults.ts";

/** What the pipeline needs from the server around it. */
export interface PipelineOptions {
  /** Route tables of the emulated services. */
  routes: readonly (readonly Route[])[];
  /** Breaks off the client connection carried by the inner connection from this port. */
  drop: (innerPort: number) => Promise<unknown>;
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
  const accessLog = (req: Request, path: string, status: number | string, started: number, note = "") => {
    opts.log?.(`${req.method} ${path} ${status} ${Math.round(performance.now() - started)}ms${note}`);
  };

  return async (req, info) => {
    const started = performance.now();
    const time = new Date(nowMs(sandbox.state)).toISOString();
    const url = new URL(req.url);
    const ctx: RequestContext = { sandbox, url, baseUrl: url.origin, params: {} };
    if (isControlPath(url.pathname)) {
      const { res, error } = await safeDispatch(control, req, ctx);
      accessLog(req, url.pathname, res.status, started, error ? ` error: ${error}` : "");
      return res;
    }

    const fault = sandbox.faults.take(req.method, url.pathname);
    if (fault?.delay_ms) await sleep(fault.delay_ms, opts.signal);
    let res: Response | undefined;
    let error: string | undefined;
    if (fault?.drop) {
      await opts.drop(info.remoteAddr.port);
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
      ...(fault ? { fault_id: fault.id } : {}),
    });
    const note = (fault ? ` fault=${fault.id}` : "") + (error ? ` error: ${error}` : "");
    accessLog(req, url.pathname, res ? status : "dropped", started, note);
    // After a drop the connection is gone; this answer is written nowhere.
    return res ?? empty(500);
  };
}
