/**
 * How the webhooks service shows a hook (`HookDetails` of webhooks.yaml): its dates in the service's
 * own format `yyyy-MM-dd'T'HH:mm:ss.SSS+0000`, its URN and its `__self__` path.
 */

import type { StoredHook } from "./store.ts";

/** A time in the webhooks service's date format. */
export function webhookDate(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, "+0000");
}

/** The path of a hook below `/webhooks/v1`. */
export function hookSelf(hook: Pick<StoredHook, "system" | "event" | "hookId">): string {
  return `/systems/${hook.system}/events/${hook.event}/hooks/${hook.hookId}`;
}

/** A hook as the service answers it. */
export function hookDetails(hook: StoredHook): Record<string, unknown> {
  return {
    hookId: hook.hookId,
    tenant: hook.tenant,
    callbackUrl: hook.callbackUrl,
    createdBy: hook.createdBy,
    event: hook.event,
    createdDate: webhookDate(hook.createdMs),
    lastUpdatedDate: webhookDate(hook.updatedMs),
    system: hook.system,
    creatorType: hook.creatorType,
    status: hook.status,
    autoReactivateHook: hook.autoReactivateHook,
    ...(hook.hookExpiry !== undefined ? { hookExpiry: hook.hookExpiry } : {}),
    scope: { ...hook.scope },
    hookAttribute: hook.hookAttribute ?? {},
    ...(hook.filter !== undefined ? { filter: hook.filter } : {}),
    urn: `urn:adsk.webhooks:events.hook:${hook.hookId}`,
    callbackWithEventPayloadOnly: String(hook.callbackWithEventPayloadOnly),
    __self__: hookSelf(hook),
  };
}
