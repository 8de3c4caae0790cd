/**
 * Design Automation v3 work items and health: start one, read its status,
 * fetch its report (a signed URL: no bearer token), and the service's health per engine.
 */
import { MAX_REPORT_BYTES, sizeText } from "../../http/body_limit.ts";
import type { Http } from "../../http/http.ts";
import { segment } from "../../http/path.ts";
import { DA_BASE } from "./api.ts";
import { CODE_ALL } from "../../aps/scope_constants.ts";

/** One argument of a work item: a URL (with verb and headers) or a value. */
export interface WorkItemArgument {
  url?: string;
  verb?: string;
  headers?: Record<string, string>;
  value?: unknown;
}

/** A work item's status object. */
export interface WorkItemStatus {
  id: string;
  status: string;
  progress?: string;
  reportUrl?: string;
  debugInfoUrl?: string;
  stats?: Record<string, unknown>;
}

/** Statuses after which a work item does not change (all but pending and inprogress). */
export function isFinished(status: string): boolean {
  return status !== "pending" && status !== "inprogress";
}

/** Starts a work item of `activityId` (qualified) with `args`. */
export async function createWorkItem(
  http: Http,
  activityId: string,
  args: Record<string, WorkItemArgument>,
): Promise<WorkItemStatus> {
  const res = await http.request<WorkItemStatus>({
    method: "POST",
    path: `${DA_BASE}/workitems`,
    json: { activityId, arguments: args },
    key: activityId,
    scope: CODE_ALL,
  });
  return res.data;
}

/** A work item's status. */
export async function getWorkItem(http: Http, id: string, signal?: AbortSignal): Promise<WorkItemStatus> {
  const res = await http.request<WorkItemStatus>({
    path: `${DA_BASE}/workitems/${segment(id)}`,
    key: `work item ${id}`,
    scope: CODE_ALL,
    signal,
  });
  return res.data;
}

/**
 * The text of a work item's report (its `reportUrl` is signed: no bearer token is sent): its first
 * MAX_REPORT_BYTES, with a note where it was cut (a report can be any size; it is never held whole).
 */
export async function getReport(http: Http, reportUrl: string): Promise<string> {
  const res = await http.request<string>({
    path: reportUrl,
    auth: "none",
    responseType: "text",
    maxBytes: MAX_REPORT_BYTES,
    overflow: "cut",
  });
  if (!res.cut) return res.data;
  return `${res.data}\n[report cut at ${sizeText(MAX_REPORT_BYTES)}; the whole report is at its reportUrl]`;
}

/** The service's health: every engine's status for `api`, else the one engine's. */
export async function getHealth(
  http: Http,
  engine: string,
): Promise<{ engines?: Record<string, { Status: string }>; Status?: string }> {
  const res = await http.request<{ engines?: Record<string, { Status: string }>; Status?: string }>({
    path: `${DA_BASE}/health/${segment(engine)}`,
    key: `health of ${engine}`,
    scope: CODE_ALL,
  });
  return res.data;
}
