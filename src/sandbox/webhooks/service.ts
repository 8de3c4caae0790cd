/**
 * The webhooks emulator as the sandbox holds it: its store, subscribed to the sandbox's event bus so
 * that every published event is delivered to the hooks that want it (delivery.ts).
 */

import type { Clock } from "../clock.ts";
import type { EventBus } from "../events.ts";
import type { Settings } from "../settings.ts";
import { deliverEvent } from "./delivery.ts";
import { createWebhookStore, type WebhookStore } from "./store.ts";

/** An empty webhooks service delivering the events published on `events`. */
export function createWebhooks(events: EventBus, clock: Clock, settings: Settings): WebhookStore {
  const store = createWebhookStore();
  // Publishing never waits for delivery; a delivery's failures are recorded, never thrown.
  events.subscribe((event) => void deliverEvent(store, event, { clock, settings }).catch(() => {}));
  return store;
}
