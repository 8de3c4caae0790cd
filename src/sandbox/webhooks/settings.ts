/**
 * The webhooks emulator's settings, part of the sandbox settings (`/_sandbox/config`): how long a
 * callback may take, how often and how far apart a failed delivery is retried, how many failed
 * events make a hook `inactive`, and the page size of hook lists. Tests shrink them so that a slow
 * receiver is seen in milliseconds.
 */

import { PLATFORM_DELIVERY_WINDOW_MS } from "../../aps/webhook_events.ts";

/** Settings of callback delivery and hook lists. */
export interface WebhookConfig {
  /** A callback slower than this fails the attempt (the platform's window: a 2xx within 7 s). */
  webhookTimeoutMs: number;
  /** Retries of an event after its first failed attempt (the platform: 8 over 48 h). */
  webhookRetries: number;
  /** Delay before the first retry; each next one doubles it (real time, not the sandbox clock). */
  webhookRetryDelayMs: number;
  /** Events that exhausted their retries before the hook becomes `inactive` (the platform: 5). */
  webhookFailureLimit: number;
  /** Hooks per page of a list (the platform: 200). */
  webhookPageSize: number;
}

/** The settings after start or reset: the platform's rules, with 48 h of retries spread over 85 minutes. */
export function defaultWebhookConfig(): WebhookConfig {
  return {
    webhookTimeoutMs: PLATFORM_DELIVERY_WINDOW_MS,
    webhookRetries: 8,
    webhookRetryDelayMs: 20_000,
    webhookFailureLimit: 5,
    webhookPageSize: 200,
  };
}

/** The settings as the control API shows them. */
export function webhookConfigView(c: WebhookConfig): Record<string, number> {
  return {
    webhook_timeout_ms: c.webhookTimeoutMs,
    webhook_retries: c.webhookRetries,
    webhook_retry_delay_ms: c.webhookRetryDelayMs,
    webhook_failure_limit: c.webhookFailureLimit,
    webhook_page_size: c.webhookPageSize,
  };
}

const FIELDS: readonly [name: string, key: keyof WebhookConfig, min: number][] = [
  ["webhook_timeout_ms", "webhookTimeoutMs", 1],
  ["webhook_retries", "webhookRetries", 0],
  ["webhook_retry_delay_ms", "webhookRetryDelayMs", 0],
  ["webhook_failure_limit", "webhookFailureLimit", 1],
  ["webhook_page_size", "webhookPageSize", 1],
];

/** Reads the webhook settings of a config body into a patch, or says what is wrong. */
export function webhookConfigPatch(b: Record<string, unknown>): Partial<WebhookConfig> | string {
  const patch: Partial<WebhookConfig> = {};
  for (const [name, key, min] of FIELDS) {
    const v = b[name];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < min) {
      return `'${name}' must be an integer >= ${min}`;
    }
    patch[key] = v;
  }
  return patch;
}
