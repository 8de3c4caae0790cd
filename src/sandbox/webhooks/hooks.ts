/**
 * Creating, reading, changing and deleting hooks (webhooks.yaml `HookPayload`, `ModifyHookPayload`):
 * a create answers 201 with the hook's URL in `Location` (one event) or `{hooks: [...]}` (every
 * event of a system); the same callback for the same event and scope is a 409.
 */

import type { WebhookSystem } from "../../aps/webhook_events.ts";
import { nowMs } from "../clock.ts";
import type { RequestContext } from "../context.ts";
import { webhooksError } from "../errors.ts";
import { empty, json, readJson } from "../respond.ts";
import { badInput, type Caller, caller, hookRegion, pathEvent, pathHook, pathSystem } from "./request.ts";
import { regionHooks, type StoredHook } from "./store.ts";
import { hookDetails, hookSelf } from "./views.ts";

/** `hookAttribute` must stay below this many bytes of JSON. */
const ATTRIBUTE_LIMIT = 1024;

type Body = Record<string, unknown>;

async function objectBody(req: Request): Promise<Body> {
  const body = await readJson(req);
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw badInput("The body must be a JSON object");
  }
  return body as Body;
}

function optional<T>(b: Body, name: string, type: "string" | "boolean" | "object"): T | undefined {
  const v = b[name];
  if (v === undefined) return undefined;
  const actual = Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
  const ok = actual === type;
  if (!ok) throw badInput(`'${name}' must be ${type === "object" ? "an object" : `a ${type}`}`);
  return v as T;
}

function checkAttribute(attr: Body | undefined): void {
  if (attr !== undefined && new TextEncoder().encode(JSON.stringify(attr)).length >= ATTRIBUTE_LIMIT) {
    throw badInput("'hookAttribute' must be less than 1KB");
  }
}

function checkExpiry(expiry: string | undefined): void {
  if (expiry !== undefined && Number.isNaN(Date.parse(expiry))) {
    throw badInput("'hookExpiry' must be an ISO 8601 date and time");
  }
}

/** The validated fields of a create body, for `sys`. */
function hookFields(b: Body, sys: WebhookSystem) {
  const url = b.callbackUrl;
  if (typeof url !== "string" || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw badInput("'callbackUrl' is required: an absolute http(s) URL");
  }
  const scope = optional<Body>(b, "scope", "object");
  const value = scope?.[sys.scopeKey];
  if (typeof value !== "string" || value === "") {
    throw badInput(`'scope.${sys.scopeKey}' is required for system '${sys.system}'`);
  }
  for (const v of Object.values(scope!)) {
    if (typeof v !== "string") throw badInput("'scope' values must be strings");
  }
  const hookAttribute = optional<Body>(b, "hookAttribute", "object");
  checkAttribute(hookAttribute);
  const hookExpiry = optional<string>(b, "hookExpiry", "string");
  checkExpiry(hookExpiry);
  const tenant = optional<string>(b, "tenant", "string");
  for (const name of ["hubId", "projectId"]) optional<string>(b, name, "string");
  return {
    callbackUrl: url,
    scope: scope as Record<string, string>,
    tenant: tenant ?? value,
    autoReactivateHook: optional<boolean>(b, "autoReactivateHook", "boolean") ?? false,
    callbackWithEventPayloadOnly: optional<boolean>(b, "callbackWithEventPayloadOnly", "boolean") ?? false,
    ...(hookAttribute !== undefined ? { hookAttribute } : {}),
    ...(hookExpiry !== undefined ? { hookExpiry } : {}),
    ...filterField(b),
  };
}

function filterField(b: Body): { filter?: string } {
  const filter = b.filter;
  if (filter === undefined) return {};
  if (typeof filter === "string") return { filter };
  if (Array.isArray(filter) && filter.every((f) => typeof f === "string")) {
    return { filter: JSON.stringify(filter) };
  }
  throw badInput("'filter' must be a JsonPath string or a list of them");
}

function sameScope(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** Adds a hook for one event; a 409 when the caller has one with the same callback, event and scope. */
function addHook(
  hooks: Map<string, StoredHook>,
  fields: ReturnType<typeof hookFields>,
  where: { system: string; event: string; region: string; who: Caller; now: number },
): StoredHook {
  for (const h of hooks.values()) {
    if (
      h.createdBy === where.who.createdBy && h.system === where.system && h.event === where.event &&
      h.callbackUrl === fields.callbackUrl && sameScope(h.scope, fields.scope)
    ) {
      throw webhooksError(409, "CONFLICT_ERROR", `Failed to create hook: hook already exists (${h.hookId})`);
    }
  }
  const hook: StoredHook = {
    ...fields,
    hookId: crypto.randomUUID(),
    system: where.system,
    event: where.event,
    region: where.region,
    ...where.who,
    createdMs: where.now,
    updatedMs: where.now,
    status: "active",
    failedEvents: 0,
  };
  hooks.set(hook.hookId, hook);
  return hook;
}

/** `POST /systems/{system}/events/{event}/hooks`: 201, empty body, `Location` = the hook's URL. */
export async function createEventHook(req: Request, ctx: RequestContext): Promise<Response> {
  const sys = pathSystem(ctx);
  const event = pathEvent(ctx, sys);
  const region = hookRegion(req, ctx);
  const fields = hookFields(await objectBody(req), sys);
  const where = { system: sys.system, event, region, who: caller(ctx), now: nowMs(ctx.sandbox.clock) };
  const hook = addHook(regionHooks(ctx.sandbox.webhooks, region), fields, where);
  return empty(201, { location: `${ctx.baseUrl}/webhooks/v1${hookSelf(hook)}` });
}

/** `POST /systems/{system}/hooks`: one hook per event of the system, 201 `{hooks: [...]}`. */
export async function createSystemHooks(req: Request, ctx: RequestContext): Promise<Response> {
  const sys = pathSystem(ctx);
  const region = hookRegion(req, ctx);
  const fields = hookFields(await objectBody(req), sys);
  const hooks = regionHooks(ctx.sandbox.webhooks, region);
  const who = caller(ctx);
  const now = nowMs(ctx.sandbox.clock);
  const created = sys.events.map((event) =>
    addHook(hooks, fields, { system: sys.system, event, region, who, now })
  );
  return json(201, { hooks: created.map(hookDetails) });
}

/** `GET .../hooks/{hook_id}`. */
export function getHook(req: Request, ctx: RequestContext): Response {
  return json(200, hookDetails(pathHook(req, ctx)));
}

/** `PATCH .../hooks/{hook_id}`: status, reactivation, filter, attribute, the hook's own secret, expiry. */
export async function patchHook(req: Request, ctx: RequestContext): Promise<Response> {
  const hook = pathHook(req, ctx);
  const b = await objectBody(req);
  const status = b.status;
  if (status !== undefined && status !== "active" && status !== "inactive") {
    throw badInput("'status' must be 'active' or 'inactive'");
  }
  const autoReactivate = optional<boolean>(b, "autoReactivateHook", "boolean");
  const hookAttribute = optional<Body>(b, "hookAttribute", "object");
  checkAttribute(hookAttribute);
  const token = optional<string>(b, "token", "string");
  if (token === "") throw badInput("'token' must not be empty");
  const expiry = b.hookExpiry === null ? null : optional<string>(b, "hookExpiry", "string");
  checkExpiry(expiry ?? undefined);
  const { filter } = filterField(b);
  if (status !== undefined) {
    hook.status = status;
    if (status === "active") hook.failedEvents = 0;
  }
  if (autoReactivate !== undefined) hook.autoReactivateHook = autoReactivate;
  if (hookAttribute !== undefined) hook.hookAttribute = hookAttribute;
  if (token !== undefined) hook.token = token;
  if (filter !== undefined) hook.filter = filter;
  if (expiry === null) delete hook.hookExpiry;
  else if (expiry !== undefined) hook.hookExpiry = expiry;
  hook.updatedMs = nowMs(ctx.sandbox.clock);
  return empty(200);
}

/** `DELETE .../hooks/{hook_id}`: 204. */
export function deleteHook(req: Request, ctx: RequestContext): Response {
  const hook = pathHook(req, ctx);
  regionHooks(ctx.sandbox.webhooks, hook.region).delete(hook.hookId);
  return empty(204);
}
