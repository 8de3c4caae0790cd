/**
 * The webhook reads (`diazo webhook list`): the app's hooks (2-legged: hooks belong to the app), an
 * `inactive` hook explained with the platform's remedy: delete and recreate it. A named system or event
 * is checked against the catalog (./catalog.ts, loaded only then) before any request; the writes are
 * in ./write_verbs.ts, so that a listing loads none of them.
 */
import { type HookDetails, type HookFilter, hooksPage, listHooks } from "./api.ts";
import type { WebhookSystem } from "../../aps/webhook_events.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { type ListPage, mapPage } from "../../http/list.ts";

export type { HookDetails };

/** A hook as the verbs answer it: the platform's fields and its scope as `key=value` beside them. */
export type HookRow = HookDetails & { scopeText: string };

/** A hook with its scope as `key=value` text beside the platform's fields. */
export function withScopeText(h: HookDetails): HookRow {
  const scopeText = Object.entries(h.scope ?? {}).map(([k, v]) => `${k}=${v}`).join(", ");
  return { ...h, scopeText };
}

/** The system and event a list names, checked; the catalog loads only when one is named. */
async function checkedFilter(
  system?: string,
  event?: string,
): Promise<{ system?: WebhookSystem; event?: string }> {
  if (system === undefined && event === undefined) return {};
  return (await import("./catalog.ts")).systemAndEvent(system, event);
}

/** `webhook list`: the caller's hooks (every page unless `limit`), of a system or one event, in a region. */
export async function runWebhookList(
  opts: { system?: string; event?: string; region?: string; status?: HookFilter["status"]; limit?: number },
  deps: OpsDeps,
): Promise<HookRow[]> {
  const { system, event } = await checkedFilter(opts.system, opts.event);
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
  const { system, event } = await checkedFilter(opts.system, opts.event);
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
