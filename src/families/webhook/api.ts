/**
 * Webhooks v1 (openapi/webhooks/webhooks.yaml): list, create, read, change and delete hooks, in a
 * region (`x-ads-region`, US by default); plus posting a sample callback to a receiver, for
 * `webhook test`. Plain functions over an injected Http; reads need `data:read`, writes `data:write`.
 */
import { DATA_CENTRES } from "../../aps/regions.ts";
import { DiazoError } from "../../core/errors.ts";
import type { Http, RequestSpec } from "../../http/http.ts";
import { fetchPage, type PageResult, paginate } from "../../http/pagination.ts";
import { segment } from "../../http/path.ts";
import { DATA_READ, DATA_WRITE } from "../../aps/scope_constants.ts";

/** Base path of the webhooks service. */
export const WEBHOOKS_BASE = "/webhooks/v1";

/** A hook as the service answers it (`HookDetails`). */
export interface HookDetails {
  hookId: string;
  system: string;
  event: string;
  callbackUrl: string;
  status: string;
  scope?: Record<string, string>;
  tenant?: string;
  createdBy?: string;
  creatorType?: string;
  createdDate?: string;
  lastUpdatedDate?: string;
  autoReactivateHook?: boolean;
  hookExpiry?: string;
  hookAttribute?: Record<string, unknown>;
  filter?: string;
  urn?: string;
  __self__?: string;
  [k: string]: unknown;
}

/** Which hooks a list shows: all of the caller's, a system's, or one event's; in a region; by status. */
export interface HookFilter {
  system?: string;
  event?: string;
  region?: string;
  status?: "active" | "inactive";
}

/** Names one hook. */
export interface HookRef {
  system: string;
  event: string;
  hookId: string;
  region?: string;
}

function regionHeader(region?: string): Record<string, string> {
  return region && region !== DATA_CENTRES[0] ? { "x-ads-region": region } : {};
}

function hookPath(ref: HookRef): string {
  return `${WEBHOOKS_BASE}/systems/${segment(ref.system)}/events/${segment(ref.event)}/hooks/${
    segment(ref.hookId)
  }`;
}

/** The first page request of a hook list (pagination scheme "webhooks"; 204 = none). */
export function hooksRequest(filter: HookFilter): RequestSpec {
  const path = filter.system === undefined
    ? `${WEBHOOKS_BASE}/hooks`
    : filter.event === undefined
    ? `${WEBHOOKS_BASE}/systems/${segment(filter.system)}/hooks`
    : `${WEBHOOKS_BASE}/systems/${segment(filter.system)}/events/${segment(filter.event)}/hooks`;
  return {
    path,
    query: { status: filter.status },
    headers: regionHeader(filter.region),
    scope: DATA_READ,
  };
}

/** Every hook that passes `filter`, following every page. */
export function listHooks(
  http: Http,
  filter: HookFilter,
  opts: { limit?: number } = {},
): AsyncGenerator<HookDetails> {
  return paginate<HookDetails>(http, hooksRequest(filter), "webhooks", opts);
}

/** One page of the hooks that pass `filter`, from the platform's own cursor (its `pageState` link). */
export function hooksPage(
  http: Http,
  filter: HookFilter,
  opts: { limit: number; cursor?: string },
): Promise<PageResult<HookDetails>> {
  return fetchPage<HookDetails>(http, hooksRequest(filter), "webhooks", opts);
}

/** What a new hook is: its event, callback, scope and options. */
export interface NewHook {
  system: string;
  event: string;
  callbackUrl: string;
  scope: Record<string, string>;
  region?: string;
  autoReactivateHook?: boolean;
  hookAttribute?: Record<string, unknown>;
}

/** Creates a hook for one event; returns its id (the last segment of the answer's `Location`). */
export async function createHook(http: Http, hook: NewHook): Promise<string> {
  const res = await http.request({
    method: "POST",
    path: `${WEBHOOKS_BASE}/systems/${segment(hook.system)}/events/${segment(hook.event)}/hooks`,
    headers: regionHeader(hook.region),
    json: {
      callbackUrl: hook.callbackUrl,
      scope: hook.scope,
      ...(hook.autoReactivateHook !== undefined ? { autoReactivateHook: hook.autoReactivateHook } : {}),
      ...(hook.hookAttribute !== undefined ? { hookAttribute: hook.hookAttribute } : {}),
    },
    scope: DATA_WRITE,
    responseType: "none",
  });
  const id = res.headers.get("location")?.replace(/\/+$/, "").split("/").pop();
  if (!id) {
    throw new DiazoError("failure", {
      params: { detail: "the platform created the hook but answered no Location", hint: "List the hooks." },
    });
  }
  return decodeURIComponent(id);
}

/** A hook's details. */
export async function getHook(http: Http, ref: HookRef): Promise<HookDetails> {
  const res = await http.request<HookDetails>({
    path: hookPath(ref),
    headers: regionHeader(ref.region),
    key: `hook ${ref.hookId}`,
    scope: DATA_READ,
  });
  return res.data;
}

/** Changes a hook: e.g. its own secret (`token`) or its status. */
export async function patchHook(http: Http, ref: HookRef, change: Record<string, unknown>): Promise<void> {
  await http.request({
    method: "PATCH",
    path: hookPath(ref),
    headers: regionHeader(ref.region),
    json: change,
    key: `hook ${ref.hookId}`,
    scope: DATA_WRITE,
    responseType: "none",
  });
}

/** Deletes a hook; 404 names it. */
export async function deleteHook(http: Http, ref: HookRef): Promise<void> {
  await http.request({
    method: "DELETE",
    path: hookPath(ref),
    headers: regionHeader(ref.region),
    key: `hook ${ref.hookId} (${ref.system} ${ref.event})`,
    scope: DATA_WRITE,
    responseType: "none",
  });
}

/** How a receiver answered a sample callback. */
export interface CallbackAnswer {
  /** HTTP status, or 0 when there was no answer. */
  status: number;
  latencyMs: number;
  /** Why there was no answer, or the non-2xx answer's detail. */
  error?: string;
}

/**
 * POSTs `body` to a callback URL once (no retry, no bearer), within `timeoutMs`, and says how it
 * answered: its status and how long it took, or why there was no answer.
 */
export async function postCallback(
  http: Http,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<CallbackAnswer> {
  const start = performance.now();
  const took = () => Math.round(performance.now() - start);
  try {
    const res = await http.request({
      method: "POST",
      path: url,
      body,
      headers: { "content-type": "application/json", ...headers },
      auth: "none",
      retry: "never",
      timeoutMs,
      responseType: "none",
      // The platform's delivery does not follow a redirect: neither does its rehearsal.
      redirect: "never",
    });
    return { status: res.status, latencyMs: took() };
  } catch (e) {
    if (!(e instanceof DiazoError)) throw e;
    if (e.code === "timeout") {
      return { status: 0, latencyMs: took(), error: `no answer within ${timeoutMs} ms` };
    }
    if (e.status === undefined && e.code !== "network") throw e;
    return { status: e.status ?? 0, latencyMs: took(), error: e.message };
  }
}
