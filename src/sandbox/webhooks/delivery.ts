/**
 * Delivering an event to the hooks that want it: a POST of the platform's
 * envelope (`version`, `resourceUrn`, `hook`, `payload`; only the payload with
 * `callbackWithEventPayloadOnly`) with `x-adsk-delivery-id` and, when a secret is set,
 * `x-adsk-signature`. An attempt fails on a status other than 2xx, a network error or no answer
 * within the timeout; a failed event is retried with doubling delays, and an event that exhausts
 * its retries counts against the hook, which becomes `inactive` at the failure limit. A hook's
 * `filter` (JsonPath over the payload, filter.ts) keeps events it does not match from it.
 */

import { DELIVERY_ID_HEADER, SIGNATURE_HEADER, signWebhookBody } from "../../aps/webhook_signature.ts";
import { eventMatches } from "../../aps/webhook_events.ts";
import { abortableSleep } from "../../core/sleep.ts";
import { type Clock, nowMs } from "../clock.ts";
import type { SandboxEvent } from "../events.ts";
import type { Settings } from "../settings.ts";
import { passesFilter } from "./filter.ts";
import { hookDetails } from "./views.ts";
import { recordDelivery, secretKey, type StoredHook, type WebhookStore } from "./store.ts";

/** What delivery reads: the sandbox clock (expiry, dates) and the delivery settings. */
export interface DeliveryDeps {
  clock: Clock;
  settings: Settings;
}

function folderAncestors(payload: Record<string, unknown>): string[] {
  const list = Array.isArray(payload.ancestors) ? payload.ancestors : [];
  return list.flatMap((a) => (a && typeof a === "object" && typeof a.urn === "string" ? [a.urn] : []));
}

/** Whether `hook` wants `event`: same system, its event (pattern), its app, its filter, its scope (folders recursively). */
export function wants(hook: StoredHook, event: SandboxEvent, now: number): boolean {
  if (hook.system !== event.system || !eventMatches(hook.event, event.event)) return false;
  if (hook.status === "inactive") return false;
  if (event.clientId !== undefined && hook.clientId !== event.clientId) return false;
  if (hook.hookExpiry !== undefined && Date.parse(hook.hookExpiry) <= now) return false;
  if (!passesFilter(hook.filter, event.payload)) return false;
  return Object.entries(hook.scope).every(([key, value]) =>
    event.scope[key] === value || (key === "folder" && folderAncestors(event.payload).includes(value))
  );
}

/** The resource an event is about: a version or folder URN, or a translation's source URN. */
function resourceUrn(event: SandboxEvent): string {
  const p = event.payload;
  for (const v of [p.resourceUrn, p.source, p.URN, p.id]) if (typeof v === "string" && v) return v;
  return Object.values(event.scope)[0] ?? "";
}

/** The body the platform posts for `event` to `hook`. */
export function envelope(hook: StoredHook, event: SandboxEvent): Record<string, unknown> {
  if (hook.callbackWithEventPayloadOnly) return event.payload;
  const { lastUpdatedDate: _, ...details } = hookDetails(hook);
  return {
    version: "1.0",
    resourceUrn: resourceUrn(event),
    hook: { ...details, event: event.event },
    payload: event.payload,
  };
}

/** One POST to the callback: its status (0 without an answer) and why it failed. */
async function attempt(
  hook: StoredHook,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  stop: AbortSignal,
): Promise<{ status: number; error?: string }> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  try {
    const res = await fetch(hook.callbackUrl, {
      method: "POST",
      body,
      headers,
      signal: AbortSignal.any([stop, timeout.signal]),
      redirect: "manual",
    });
    await res.body?.cancel();
    const ok = res.status >= 200 && res.status < 300;
    return ok ? { status: res.status } : { status: res.status, error: `answered HTTP ${res.status}` };
  } catch (e) {
    if (timeout.signal.aborted) return { status: 0, error: `no answer within ${timeoutMs} ms` };
    return { status: 0, error: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

/** Delivers `event` to one hook with its retries, then updates the hook's failure count and status. */
async function deliverToHook(
  store: WebhookStore,
  hook: StoredHook,
  event: SandboxEvent,
  deps: DeliveryDeps,
): Promise<void> {
  const stop = store.signal;
  const body = JSON.stringify(envelope(hook, event));
  const deliveryId = crypto.randomUUID();
  const secret = hook.token ?? store.secrets.get(secretKey(hook.region, hook.createdBy));
  const headers: Record<string, string> = {
    "content-type": "application/json",
    [DELIVERY_ID_HEADER]: deliveryId,
    ...(secret !== undefined ? { [SIGNATURE_HEADER]: await signWebhookBody(secret, body) } : {}),
  };
  const s = deps.settings;
  // A reactivated hook gets one attempt: success makes it active again, failure inactive.
  const retries = hook.status === "reactivated" ? 0 : s.webhookRetries;
  let last: { status: number; error?: string } = { status: 0 };
  let attempts = 0;
  for (; attempts <= retries; attempts++) {
    if (attempts > 0) await abortableSleep(s.webhookRetryDelayMs * 2 ** (attempts - 1), stop);
    if (stop.aborted || store.hooks.get(hook.region)?.get(hook.hookId) !== hook) return;
    last = await attempt(hook, body, headers, s.webhookTimeoutMs, stop);
    if (stop.aborted) return;
    if (last.error === undefined) break;
  }
  const ok = last.error === undefined;
  recordDelivery(store, {
    deliveryId,
    hookId: hook.hookId,
    event: event.event,
    callbackUrl: hook.callbackUrl,
    attempts: Math.min(attempts + 1, retries + 1),
    status: last.status,
    ok,
    ...(ok ? {} : { error: last.error }),
    signed: secret !== undefined,
  });
  if (ok) {
    hook.failedEvents = 0;
    if (hook.status === "reactivated") hook.status = "active";
    return;
  }
  hook.failedEvents++;
  if (hook.status === "reactivated" || hook.failedEvents >= s.webhookFailureLimit) {
    hook.status = "inactive";
    hook.updatedMs = nowMs(deps.clock);
  }
}

/** Delivers `event` to every hook (of any region) that wants it; settles when all deliveries end. */
export async function deliverEvent(
  store: WebhookStore,
  event: SandboxEvent,
  deps: DeliveryDeps,
): Promise<void> {
  const now = nowMs(deps.clock);
  const targets = [...store.hooks.values()].flatMap((hooks) => [...hooks.values()]).filter((h) =>
    wants(h, event, now)
  );
  await Promise.all(targets.map((hook) => deliverToHook(store, hook, event, deps)));
}
