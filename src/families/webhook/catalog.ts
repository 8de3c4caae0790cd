/**
 * The webhook catalog's verbs: `webhook events` (the systems and events hooks can watch, local) and
 * the check of a system and event a command names (aps/webhook_events.ts), before any request.
 */
import {
  checkWebhookEvent,
  checkWebhookSystem,
  type WebhookEventRow,
  webhookEventRows,
  type WebhookSystem,
} from "../../aps/webhook_events.ts";

/** `webhook events`: the catalog, of one system when named (local: no request, no login). */
export function runWebhookEvents(opts: { system?: string }): WebhookEventRow[] {
  if (opts.system !== undefined) checkWebhookSystem(opts.system);
  return webhookEventRows(opts.system);
}

/** The system and event a command names: the event's system unless `--system` names one. */
export function systemAndEvent(system?: string, event?: string): { system?: WebhookSystem; event?: string } {
  if (event !== undefined) return checkWebhookEvent(event, system);
  return { system: system !== undefined ? checkWebhookSystem(system) : undefined };
}
