/**
 * The webhook verbs (`diazo webhook ...`): the local catalog of systems and events, and listing,
 * creating and deleting the app's hooks (2-legged: hooks belong to the app). Systems and events are checked
 * against the catalog (aps/webhook_events.ts) before any request; an `inactive` hook is explained
 * with the platform's remedy: delete and recreate it.
 */
import {
  checkWebhookEvent,
  checkWebhookSystem,
  type WebhookEventRow,
  webhookEventRows,
  type WebhookSystem,
} from "../../aps/webhook_events.ts";
import { dmFolderId } from "../../aps/dm_ids.ts";
import { DiazoError, isDiazoError, usageError } from "../../core/errors.ts";
import { fieldError } from "../../core/field_error.ts";
import { isLoopbackHost } from "../../http/origin.ts";
import {
  createHook,
  deleteHook,
  getHook,
  type HookDetails,
  type HookFilter,
  hooksPage,
  listHooks,
  patchHook,
} from "./api.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { type ListPage, mapPage } from "../../http/list.ts";

export type { HookDetails };

/** `webhook events`: the catalog, of one system when named (local: no request, no login). */
export function runWebhookEvents(opts: { system?: string }): WebhookEventRow[] {
  if (opts.system !== undefined) checkWebhookSystem(opts.system);
  return webhookEventRows(opts.system);
}

/** A hook as the verbs answer it: the platform's fields and its scope as `key=value` beside them. */
export type HookRow = HookDetails & { scopeText: string };

function withScopeText(h: HookDetails): HookRow {
  const scopeText = Object.entries(h.scope ?? {}).map(([k, v]) => `${k}=${v}`).join(", ");
  return { ...h, scopeText };
}

/** The system and event a command names: the event's system unless `--system` names one. */
function systemAndEvent(system?: string, event?: string): { system?: WebhookSystem; event?: string } {
  if (event !== undefined) return checkWebhookEvent(event, system);
  return { system: system !== undefined ? checkWebhookSystem(system) : undefined };
}

/** `webhook list`: the caller's hooks (every page unless `limit`), of a system or one event, in a region. */
export async function runWebhookList(
  opts: { system?: string; event?: string; region?: string; status?: HookFilter["status"]; limit?: number },
  deps: OpsDeps,
): Promise<HookRow[]> {
  const { system, event } = systemAndEvent(opts.system, opts.event);
  const filter: HookFilter = { system: system?.system, event, region: opts.region, status: opts.status };
  const rows: HookRow[] = [];
  for await (const h of listHooks(await deps.http(), filter, { limit: opts.limit })) {
    rows.push(withScopeText(h));
  }
  return rows;
}

/** One page of `runWebhookList`'s hooks from the platform's cursor (the tool server's paging). */
export async function runWebhookListPage(
  opts: { system?: string; event?: string; region?: string; status?: HookFilter["status"] } & {
    limit: number;
    cursor?: string;
  },
  deps: OpsDeps,
): Promise<ListPage<HookRow>> {
  const { system, event } = systemAndEvent(opts.system, opts.event);
  const filter: HookFilter = { system: system?.system, event, region: opts.region, status: opts.status };
  const page = await hooksPage(await deps.http(), filter, { limit: opts.limit, cursor: opts.cursor });
  return mapPage(page, withScopeText);
}

/** The explanation of an inactive hook and its remedy, as commands. */
export function inactiveRemedy(h: Pick<HookDetails, "hookId" | "system" | "event" | "callbackUrl">): string {
  return `hook ${h.hookId} (${h.event}) is inactive: its callback ${h.callbackUrl} did not answer with a 2xx ` +
    `within the platform's 7 seconds, so the platform stopped delivering to it. Delete and recreate it: ` +
    `diazo webhook delete ${h.hookId} --system ${h.system} --event ${h.event}, then diazo webhook create ` +
    `--url ${h.callbackUrl} --event ${h.event} ... (check it first with diazo webhook test ${h.callbackUrl})`;
}

/** Parses `--scope key=value` pairs for `sys`: its scope key is required, other keys are refused. */
export function parseHookScope(sys: WebhookSystem, pairs: readonly string[]): Record<string, string> {
  const example = `${sys.scopeKey}=<${sys.scopeKey === "folder" ? "folder urn" : sys.scopeKey}>`;
  const bad = (problem: string) =>
    fieldError({
      field: "scope",
      problem,
      help: `Hooks of system '${sys.system}' are scoped by ${sys.scopeKey}: give {scope} ${example}.`,
    });
  const scope: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const key = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (at <= 0 || value === "") throw bad(`invalid {scope} '${pair}': expected key=value`);
    if (key !== sys.scopeKey) throw bad(`invalid {scope} key '${key}' for system '${sys.system}'`);
    scope[key] = key === "folder" ? dmFolderId(value, "scope") : value;
  }
  if (scope[sys.scopeKey] === undefined) throw bad(`{scope} ${sys.scopeKey}=... is required`);
  return scope;
}

/** A callback URL from input: absolute http(s), else a usage error; plain http off this machine warns. */
export function checkCallbackUrl(url: string, warn: (line: string) => void): string {
  const help = "Pass the receiver's absolute URL, e.g. https://example.com/aps/callback.";
  if (!URL.canParse(url)) throw fieldError({ field: "url", problem: `invalid callback URL '${url}'`, help });
  const { protocol, hostname } = new URL(url);
  if (protocol !== "https:" && protocol !== "http:") {
    throw fieldError({
      field: "url",
      problem: `invalid callback URL '${url}': only http and https are supported`,
      help,
    });
  }
  if (protocol === "http:" && !isLoopbackHost(hostname)) {
    warn(`${url} is not HTTPS: the platform requires HTTPS callbacks in production`);
  }
  return url;
}

/** What `webhook create` takes. */
export interface WebhookCreateOptions {
  url: string;
  event: string;
  system?: string;
  scope: readonly string[];
  region?: string;
  /** The hook's own secret: callbacks then carry `x-adsk-signature`. */
  secret?: string;
  autoReactivate?: boolean;
}

/**
 * `webhook create`: a hook for one event; with a secret it is set on the hook at once, and the hook
 * is deleted again when that fails (nothing half-made). Answers the hook as the platform shows it.
 */
export async function runWebhookCreate(opts: WebhookCreateOptions, deps: OpsDeps): Promise<HookRow> {
  const callbackUrl = checkCallbackUrl(opts.url, deps.warn);
  const { system, event } = checkWebhookEvent(opts.event, opts.system);
  const scope = parseHookScope(system, opts.scope);
  if (system.sandboxOnly) {
    deps.warn(
      `${event} is an event of diazo's sandbox only: the platform has no '${system.system}' webhooks ` +
        `(a work item calls the onComplete URL it was given instead)`,
    );
  }
  if (opts.secret !== undefined && opts.secret.trim() === "") {
    throw usageError("the secret is empty", "Pipe a secret of 32-64 letters and digits on stdin.");
  }
  const http = await deps.http();
  const hookId = await createHook(http, {
    system: system.system,
    event,
    callbackUrl,
    scope,
    region: opts.region,
    ...(opts.autoReactivate !== undefined ? { autoReactivateHook: opts.autoReactivate } : {}),
  });
  const ref = { system: system.system, event, hookId, region: opts.region };
  if (opts.secret !== undefined) {
    try {
      await patchHook(http, ref, { token: opts.secret.trim() });
    } catch (e) {
      await deleteHook(http, ref).catch(() => {});
      throw e;
    }
  }
  return withScopeText(await getHook(http, ref));
}

const HOOKS_LISTED = { command: "diazo webhook list", tool: "webhook_list" };

/** The system and event of a hook named for deletion, its id checked: a field error before any request. */
export function checkHookRef(
  opts: { hookId: string; event: string; system?: string },
): { system: WebhookSystem; event: string } {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(opts.hookId)) {
    throw fieldError({
      field: "hook_id",
      problem: `invalid hook id '${opts.hookId}'`,
      help: "Use the hookId {step} shows, e.g. 05f10350-991a-11e7-8cd7-91969336b9c2.",
      next: HOOKS_LISTED,
    });
  }
  return checkWebhookEvent(opts.event, opts.system);
}

/** `webhook delete`: deletes one hook, named by its system, event and id. */
export async function runWebhookDelete(
  opts: { hookId: string; event: string; system?: string; region?: string },
  deps: OpsDeps,
): Promise<{ hookId: string; system: string; event: string; deleted: true }> {
  const { system, event } = checkHookRef(opts);
  const ref = { system: system.system, event, hookId: opts.hookId, region: opts.region };
  try {
    await deleteHook(await deps.http(), ref);
  } catch (e) {
    if (!isDiazoError(e) || e.code !== "not_found") throw e;
    const what = `hook ${opts.hookId} (${system.system} ${event}${opts.region ? `, ${opts.region}` : ""})`;
    const hint = "A hook is named by its system, event and id, in its region: see {step} with that region.";
    const step = { command: "diazo webhook list --region <region>", tool: "webhook_list" };
    throw new DiazoError("dm_not_found", {
      status: e.status,
      body: e.body,
      params: { what, hint: hint.replace("{step}", `\`${step.command}\``) },
      field: { field: "hook_id", problem: `Not found: ${what}`, help: hint, next: step },
    });
  }
  return { hookId: opts.hookId, system: system.system, event, deleted: true };
}
