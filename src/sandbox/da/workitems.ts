/**
 * Work items: `POST /workitems` starts the built-in engine (engine.ts) on the
 * activity's parameters and answers `pending`; `GET /workitems/{id}` reads `pending` for the first
 * tenth of the sandbox's job time, then `inprogress`, then — once the time is up and the engine is
 * done — `success` or a `failed*` status with a `reportUrl` (served by `/__da/workItem/...`,
 * signed by a token in the URL). `DELETE` cancels one that has not ended. When one ends,
 * `workitem.completed` is published on the event bus (system `autodesk.da`).
 */

import { nowMs } from "../clock.ts";
import type { RequestContext, SandboxContext } from "../context.ts";
import { daError, s3Error } from "../errors.ts";
import { empty, json, readJson } from "../respond.ts";
import type { Handler, Route } from "../router.ts";
import { startEngine } from "./engine.ts";
import { appOfOwner, DA_PUBLIC_ACTIVITIES, type DaParameter, type DaWorkItem } from "./store.ts";
import { callerApp } from "./versioned.ts";

/** What every shared (Autodesk) activity does in the sandbox: one input drawing, one result. */
const PUBLIC_ACTIVITY = {
  engine: "Autodesk.AutoCAD+24",
  commandLine: ['$(engine.path)\\accoreconsole.exe /i "$(args[HostDwg].path)" /s $(settings[script].path)'],
  parameters: {
    HostDwg: { verb: "get", localName: "$(HostDwg)" },
    Result: { verb: "put", localName: "result.pdf" },
  } as Record<string, DaParameter>,
};

const QUALIFIED = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)\+([$A-Za-z0-9_]+)$/;
const PENDING_SHARE = 0.1;
const FINAL = "timeFinished";

/** The activity version a work item's `activityId` names, if the caller may run it. */
function findActivity(ctx: RequestContext, activityId: unknown) {
  if (typeof activityId !== "string") throw daError(400, "'activityId' must be a qualified activity id");
  if (DA_PUBLIC_ACTIVITIES.includes(activityId)) return PUBLIC_ACTIVITY;
  const m = QUALIFIED.exec(activityId);
  if (!m) throw daError(400, `'${activityId}' is not a qualified activity id (<owner>.<name>+<alias>)`);
  const found = appOfOwner(ctx.sandbox.da, m[1]);
  const activity = found?.clientId === ctx.clientId ? found?.app.activities.get(m[2]) : undefined;
  const version = m[3] === "$LATEST" ? activity?.latest : activity?.aliases.get(m[3]);
  const v = version === undefined ? undefined : activity?.versions.get(version);
  if (!v) throw daError(404, `Activity '${activityId}' not found`);
  return v;
}

function checkArguments(raw: unknown, parameters: Record<string, DaParameter>) {
  if (raw === undefined) return {};
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw daError(400, "'arguments' must be an object");
  }
  const args = raw as Record<string, unknown>;
  for (const [name, arg] of Object.entries(args)) {
    if (name === "onComplete" || name === "onProgress" || name === "adskDebug") continue;
    if (!(name in parameters)) throw daError(400, `Argument '${name}' is not a parameter of the activity`);
    const a = arg as Record<string, unknown> | null;
    if (!a || typeof a !== "object" || (typeof a.url !== "string" && a.value === undefined)) {
      throw daError(400, `Argument '${name}' needs a 'url' or a 'value'`);
    }
  }
  return args as Record<string, Record<string, unknown>>;
}

/** The status a work item shows at `now`. */
function statusAt(wi: DaWorkItem, now: number): string {
  if (wi.outcome === "cancelled") return "cancelled";
  const elapsed = now - wi.createdMs;
  if (wi.durationMs > 0 && elapsed < wi.durationMs * PENDING_SHARE) return "pending";
  if (elapsed < wi.durationMs || !wi.outcome) return "inprogress";
  return wi.outcome;
}

function reportUrl(ctx: RequestContext, wi: DaWorkItem): string {
  return `${ctx.baseUrl}/__da/workItem/${wi.owner}/${wi.id}/report.txt?X-Amz-Expires=3600&X-Amz-Signature=${wi.reportToken}`;
}

/** The status object of `GET /workitems/{id}`. */
function view(ctx: RequestContext, wi: DaWorkItem): Record<string, unknown> {
  const status = statusAt(wi, nowMs(ctx.sandbox.clock));
  if (status === "pending") return { status, stats: { timeQueued: wi.stats.timeQueued }, id: wi.id };
  if (status === "inprogress") {
    const done = Math.min(
      99,
      Math.floor(((nowMs(ctx.sandbox.clock) - wi.createdMs) / Math.max(1, wi.durationMs)) * 100),
    );
    return {
      status,
      progress: `${Math.max(1, done)}%`,
      stats: { timeQueued: wi.stats.timeQueued },
      id: wi.id,
    };
  }
  return { status, reportUrl: reportUrl(ctx, wi), stats: { ...wi.stats }, id: wi.id };
}

/** Publishes `workitem.completed` once, when the work item has ended on the sandbox clock. */
function announceIfEnded(sb: SandboxContext, wi: DaWorkItem, baseUrl: string): void {
  if (wi.announced || sb.da.workItems.get(wi.id) !== wi) return;
  const status = statusAt(wi, nowMs(sb.clock));
  if (status === "pending" || status === "inprogress") return;
  wi.announced = true;
  wi.stats[FINAL] ??= new Date(nowMs(sb.clock)).toISOString();
  const url =
    `${baseUrl}/__da/workItem/${wi.owner}/${wi.id}/report.txt?X-Amz-Expires=3600&X-Amz-Signature=${wi.reportToken}`;
  sb.events.publish({
    system: "autodesk.da",
    event: "workitem.completed",
    clientId: wi.clientId,
    scope: { activity: wi.activityId, workitem: wi.id },
    payload: { id: wi.id, status, activityId: wi.activityId, reportUrl: url, stats: { ...wi.stats } },
  });
}

const createWorkItem: Handler = async (req, ctx) => {
  const body = await readJson(req) as Record<string, unknown> | undefined;
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw daError(400, "The request body must be a JSON object with 'activityId' and 'arguments'");
  }
  const activity = findActivity(ctx, body.activityId);
  const args = checkArguments(body.arguments, activity.parameters);
  const sb = ctx.sandbox;
  const { clientId, owner } = callerApp(ctx);
  const now = nowMs(sb.clock);
  const wi: DaWorkItem = {
    id: crypto.randomUUID().replaceAll("-", ""),
    clientId,
    owner,
    activityId: String(body.activityId),
    arguments: args,
    createdMs: now,
    durationMs: Math.round(sb.settings.jobSeconds * 1000),
    stats: { timeQueued: new Date(now).toISOString() },
    report: [],
    reportToken: crypto.randomUUID().replaceAll("-", ""),
    announced: false,
  };
  sb.da.workItems.set(wi.id, wi);
  const baseUrl = ctx.baseUrl;
  startEngine(sb, wi, activity, () => {
    const left = wi.createdMs + wi.durationMs - nowMs(sb.clock);
    if (left <= 0) return announceIfEnded(sb, wi, baseUrl);
    Deno.unrefTimer(setTimeout(() => announceIfEnded(sb, wi, baseUrl), left));
  });
  return json(200, { status: "pending", stats: { timeQueued: wi.stats.timeQueued }, id: wi.id });
};

function ownWorkItem(ctx: RequestContext): DaWorkItem {
  const wi = ctx.sandbox.da.workItems.get(ctx.params.id);
  if (!wi || wi.clientId !== ctx.clientId) throw daError(404, `WorkItem '${ctx.params.id}' not found`);
  return wi;
}

const getWorkItem: Handler = (_req, ctx) => {
  const wi = ownWorkItem(ctx);
  announceIfEnded(ctx.sandbox, wi, ctx.baseUrl);
  return json(200, view(ctx, wi));
};

const cancelWorkItem: Handler = (_req, ctx) => {
  const wi = ownWorkItem(ctx);
  const status = statusAt(wi, nowMs(ctx.sandbox.clock));
  if (status !== "pending" && status !== "inprogress") {
    throw daError(409, `WorkItem '${wi.id}' has already ended (${status})`);
  }
  wi.outcome = "cancelled";
  wi.report.push(`[${new Date(nowMs(ctx.sandbox.clock)).toISOString()}] Cancelled`);
  announceIfEnded(ctx.sandbox, wi, ctx.baseUrl);
  return empty(204);
};

const getReport: Handler = (_req, ctx) => {
  const wi = ctx.sandbox.da.workItems.get(ctx.params.id);
  const status = wi ? statusAt(wi, nowMs(ctx.sandbox.clock)) : undefined;
  if (
    !wi || wi.owner !== ctx.params.owner || ctx.url.searchParams.get("X-Amz-Signature") !== wi.reportToken
  ) {
    throw s3Error(403, "AccessDenied", "Access Denied");
  }
  if (status === "pending" || status === "inprogress") {
    throw s3Error(404, "NoSuchKey", "The specified key does not exist.");
  }
  return new Response(wi.report.join("\n") + "\n", {
    status: 200,
    headers: { "content-type": "text/plain" },
  });
};

/** Routes of work items under `base`, each wrapped by `wrap`, and the report store. */
export function workItemRoutes(
  base: string,
  scopes: readonly string[],
  wrap: (h: Handler) => Handler,
): Route[] {
  return [
    { method: "POST", pattern: `${base}/workitems`, scopes, handler: wrap(createWorkItem) },
    { method: "GET", pattern: `${base}/workitems/:id`, scopes, handler: wrap(getWorkItem) },
    { method: "DELETE", pattern: `${base}/workitems/:id`, scopes, handler: wrap(cancelWorkItem) },
    { method: "GET", pattern: "/__da/workItem/:owner/:id/report.txt", scopes: [], handler: getReport },
  ];
}
