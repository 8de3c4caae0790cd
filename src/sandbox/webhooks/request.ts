/**
 * What every webhooks handler reads from a request: the region (header `x-ads-region` wins over the
 * query `region`, `US` by default), the caller (the app for a 2-legged token, the user for a
 * 3-legged one), the system and event of the path, and the caller's hook of the path.
 */

import { DATA_CENTRES } from "../../aps/regions.ts";
import { eventMatches, type WebhookSystem, webhookSystem } from "../../aps/webhook_events.ts";
import type { RequestContext } from "../context.ts";
import { webhooksError } from "../errors.ts";
import { regionHooks, type StoredHook } from "./store.ts";

/** A 400 of the webhooks service. */
export function badInput(detail: string) {
  return webhooksError(400, "BAD_INPUT", detail);
}

/** The region a request addresses. */
export function hookRegion(req: Request, ctx: RequestContext): string {
  const given = req.headers.get("x-ads-region") ?? ctx.url.searchParams.get("region");
  if (given === null) return DATA_CENTRES[0];
  const region = given.trim().toUpperCase();
  if (!(DATA_CENTRES as readonly string[]).includes(region)) {
    throw badInput(`Invalid region '${given}': must be one of ${DATA_CENTRES.join(", ")}`);
  }
  return region;
}

/** Who calls: hooks are owned by and listed for this identity. */
export interface Caller {
  createdBy: string;
  creatorType: "Application" | "O2User";
  clientId: string;
}

/** The caller of a request with a verified token. */
export function caller(ctx: RequestContext): Caller {
  const clientId = ctx.token?.client_id ?? ctx.clientId ?? "";
  const user = ctx.token?.userid;
  return user !== undefined
    ? { createdBy: user, creatorType: "O2User", clientId }
    : { createdBy: clientId, creatorType: "Application", clientId };
}

/** The `:system` path parameter: a system of the service, else 400. */
export function pathSystem(ctx: RequestContext): WebhookSystem {
  const sys = webhookSystem(ctx.params.system);
  if (!sys) throw badInput(`Invalid system '${ctx.params.system}'`);
  return sys;
}

/** The `:event` path parameter: an event (or `*` pattern matching one) of the path's system, else 400. */
export function pathEvent(ctx: RequestContext, sys: WebhookSystem): string {
  const event = ctx.params.event;
  if (!sys.events.some((e) => eventMatches(event, e))) {
    throw badInput(`Invalid event '${event}' for system '${sys.system}'`);
  }
  return event;
}

/** The caller's hook named by the path (system, event, hook id) in the request's region, else 404. */
export function pathHook(req: Request, ctx: RequestContext): StoredHook {
  const sys = pathSystem(ctx);
  const event = pathEvent(ctx, sys);
  const hook = regionHooks(ctx.sandbox.webhooks, hookRegion(req, ctx)).get(ctx.params.hook_id);
  if (
    !hook || hook.system !== sys.system || hook.event !== event || hook.createdBy !== caller(ctx).createdBy
  ) {
    throw webhooksError(404, "NOT_FOUND", `Hook '${ctx.params.hook_id}' not found`);
  }
  return hook;
}
