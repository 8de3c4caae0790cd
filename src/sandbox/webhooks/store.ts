/**
 * What the webhooks emulator keeps: hooks per region (each owned by the app or user
 * that created it), the secret tokens set with `/tokens` per region and owner, and a log of recent
 * deliveries for the state dump. service.ts connects it to the event bus; a reset forgets
 * everything and cancels deliveries under way.
 */

import type { ServiceStore } from "../store.ts";

/** A hook's state: `reactivated` is an inactive hook given another chance (`autoReactivateHook`). */
export type HookStatus = "active" | "inactive" | "reactivated";

/** One hook as the sandbox keeps it. */
export interface StoredHook {
  hookId: string;
  system: string;
  /** The event kind, possibly a `*` pattern. */
  event: string;
  callbackUrl: string;
  scope: Record<string, string>;
  region: string;
  /** Client id (2-legged) or user id (3-legged) of its creator: who lists and changes it. */
  createdBy: string;
  creatorType: "Application" | "O2User";
  /** The app whose token created it: which events reach it. */
  clientId: string;
  tenant: string;
  createdMs: number;
  updatedMs: number;
  status: HookStatus;
  autoReactivateHook: boolean;
  hookAttribute?: Record<string, unknown>;
  filter?: string;
  hookExpiry?: string;
  callbackWithEventPayloadOnly: boolean;
  /** The hook's own secret (PATCH `token`), which wins over its owner's. */
  token?: string;
  /** Events that exhausted their retries since the last successful delivery. */
  failedEvents: number;
}

/** One delivery of one event to one hook, for the state dump. */
export interface DeliveryRecord {
  deliveryId: string;
  hookId: string;
  event: string;
  callbackUrl: string;
  attempts: number;
  /** The last attempt's HTTP status, or 0 when it failed before an answer (timeout, refused). */
  status: number;
  ok: boolean;
  /** Why the last attempt failed. */
  error?: string;
  /** Whether the header `x-adsk-signature` was sent. */
  signed: boolean;
}

/** The webhooks emulator's state. */
export interface WebhookStore extends ServiceStore {
  /** Hooks by region, then id. */
  hooks: Map<string, Map<string, StoredHook>>;
  /** Secret tokens by `region\ncreatedBy`. */
  secrets: Map<string, string>;
  /** The most recent deliveries, oldest first. */
  deliveries: DeliveryRecord[];
  /** Aborts deliveries under way: on reset, and when the sandbox stops. */
  stop(): void;
  /** Aborted when deliveries must stop. */
  readonly signal: AbortSignal;
}

/** How many deliveries the state dump keeps. */
const DELIVERY_LOG_SIZE = 100;

/** The hooks of `region`, created empty on first use. */
export function regionHooks(store: WebhookStore, region: string): Map<string, StoredHook> {
  let hooks = store.hooks.get(region);
  if (!hooks) store.hooks.set(region, hooks = new Map());
  return hooks;
}

/** The key of an owner's secret token in `store.secrets`. */
export function secretKey(region: string, createdBy: string): string {
  return `${region}\n${createdBy}`;
}

/** Adds a delivery to the log, dropping the oldest beyond its size. */
export function recordDelivery(store: WebhookStore, record: DeliveryRecord): void {
  store.deliveries.push(record);
  if (store.deliveries.length > DELIVERY_LOG_SIZE) store.deliveries.shift();
}

/** An empty webhooks service. */
export function createWebhookStore(): WebhookStore {
  let controller = new AbortController();
  const store: WebhookStore = {
    hooks: new Map(),
    secrets: new Map(),
    deliveries: [],
    kept: ["hooks", "secrets", "deliveries"],
    get signal() {
      return controller.signal;
    },
    stop: () => controller.abort(),
    reset() {
      controller.abort();
      controller = new AbortController();
      store.hooks.clear();
      store.secrets.clear();
      store.deliveries.length = 0;
    },
    snapshot: () => ({
      webhooks: [...store.hooks.values()].reduce((n, m) => n + m.size, 0),
      webhook_deliveries: store.deliveries.map((d) => ({ ...d })),
    }),
  };
  return store;
}
