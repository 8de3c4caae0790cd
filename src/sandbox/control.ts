/**
 * The control API under `/_sandbox/`: reset and state dump (over every registered store), apps,
 * service accounts, request log, faults, an object's reported size, clock and settings. It needs no
 * platform token (its own guard is control_guard.ts), is never faulted and is not recorded in the
 * request log.
 */

import { createServiceAccount, SERVICE_ACCOUNT_NAME } from "./auth/service_accounts.ts";
import { registerApp, WELL_KNOWN_APP } from "./auth/store.ts";
import { clockView } from "./clock.ts";
import type { RequestContext } from "./context.ts";
import { controlError, type SandboxError } from "./errors.ts";
import { parseFaultSpec } from "./faults.ts";
import { empty, json, readJson } from "./respond.ts";
import type { Route } from "./router.ts";
import { configPatch, configView } from "./settings.ts";
import { dashboardPage } from "./dashboard/page.ts";
import { overview } from "./dashboard/overview.ts";
import { SNAPSHOT_NAME } from "./snapshots.ts";
import { resetStores, snapshotStores } from "./store.ts";

/** Path prefix of the control API. */
export const CONTROL_PREFIX = "/_sandbox/";

/** True when `path` belongs to the control API. */
export function isControlPath(path: string): boolean {
  return path === "/_sandbox" || path.startsWith(CONTROL_PREFIX);
}

function badRequest(message: string): SandboxError {
  return controlError(400, message);
}

async function readObject(req: Request): Promise<Record<string, unknown> | undefined> {
  const body = await readJson(req);
  return body && typeof body === "object" && !Array.isArray(body)
    ? body as Record<string, unknown>
    : undefined;
}

function stateDump(_req: Request, { sandbox: sb }: RequestContext): Response {
  return json(200, snapshotStores(sb.stores));
}

async function reset(_req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  await resetStores(sb.stores);
  if (sb.resetTo) await sb.snapshots.restore(sb.resetTo);
  sb.durable?.objectsReplaced();
  return json(200, { reset: true });
}

async function addApp(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const b = await readObject(req);
  if (
    !b || typeof b.client_id !== "string" || !b.client_id || typeof b.client_secret !== "string" ||
    !b.client_secret
  ) {
    throw badRequest("'client_id' and 'client_secret' are required strings");
  }
  if (b.callback_url !== undefined && (typeof b.callback_url !== "string" || !URL.canParse(b.callback_url))) {
    throw badRequest("'callback_url' must be an absolute URL");
  }
  const callbackUrl = (b.callback_url as string | undefined) ?? WELL_KNOWN_APP.callbackUrl;
  if (!registerApp(sb.auth, { clientId: b.client_id, clientSecret: b.client_secret, callbackUrl })) {
    throw controlError(409, `an app with client id ${b.client_id} exists`);
  }
  return json(201, { client_id: b.client_id, callback_url: callbackUrl });
}

function listRequests(_req: Request, { sandbox: sb, url }: RequestContext): Response {
  return json(200, sb.requests.list(url.searchParams.get("path") ?? undefined));
}

/** Makes an object report another size in its details and listings (its bytes stay as they are). */
async function setReportedSize(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const b = await readObject(req);
  const size = b?.size;
  if (
    !b || typeof b.bucket_key !== "string" || typeof b.object_key !== "string" || !Number.isSafeInteger(size)
  ) {
    throw badRequest("'bucket_key' and 'object_key' (strings) and 'size' (an integer) are required");
  }
  const obj = sb.oss.objects.get(b.bucket_key)?.byKey.get(b.object_key);
  if (!obj) throw controlError(404, `no object ${b.bucket_key}/${b.object_key}`);
  obj.reportedSize = size as number;
  sb.oss.changed?.(obj.bucketKey, obj.objectKey);
  return json(200, { bucket_key: obj.bucketKey, object_key: obj.objectKey, size: obj.reportedSize });
}

async function addFault(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const parsed = parseFaultSpec(await readJson(req));
  if ("error" in parsed) throw badRequest(parsed.error);
  return json(201, { id: sb.faults.add(parsed.spec).id });
}

function removeFault(_req: Request, { sandbox: sb, params }: RequestContext): Response {
  if (!sb.faults.remove(params.id)) throw controlError(404, `no fault ${params.id}`);
  return empty(204);
}

async function advanceClock(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const b = await readObject(req);
  const seconds = b?.advance_seconds;
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) {
    throw badRequest("'advance_seconds' must be a number");
  }
  sb.clock.offsetMs += seconds * 1000;
  return json(200, clockView(sb.clock));
}

async function setConfig(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const b = await readObject(req);
  if (!b) throw badRequest("body must be a JSON object");
  const patch = configPatch(b);
  if (typeof patch === "string") throw badRequest(patch);
  Object.assign(sb.settings, patch);
  return json(200, configView(sb.settings));
}

async function addServiceAccount(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const b = (await readObject(req)) ?? {};
  const clientId = b.client_id ?? WELL_KNOWN_APP.clientId;
  if (typeof clientId !== "string" || !sb.auth.apps.has(clientId)) {
    throw controlError(404, `no app with client id ${String(clientId)}`);
  }
  const name = b.name ?? `sandbox-sa-${sb.auth.serviceAccounts.size + 1}`;
  if (typeof name !== "string" || !SERVICE_ACCOUNT_NAME.test(name)) {
    throw badRequest("'name' must be 5 to 100 letters, digits and dashes");
  }
  const created = await createServiceAccount(sb.auth, clientId, name);
  return json(201, {
    serviceAccountId: created.account.serviceAccountId,
    email: created.account.email,
    keyId: created.keyId,
    privateKey: created.privateKey,
  });
}

async function snapshotName(req: Request): Promise<string> {
  const name = (await readObject(req))?.name;
  if (typeof name !== "string" || !SNAPSHOT_NAME.test(name)) {
    throw badRequest(
      "'name' must be a plain name: 1 to 64 letters, digits, dots, dashes and underscores, not starting with a dot",
    );
  }
  return name;
}

async function saveSnapshot(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const name = await snapshotName(req);
  const started = performance.now();
  await sb.snapshots.save(name);
  return json(201, { name, duration_ms: Math.round((performance.now() - started) * 10) / 10 });
}

async function restoreSnapshot(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const name = await snapshotName(req);
  const started = performance.now();
  if (!await sb.snapshots.restore(name)) throw controlError(404, `no snapshot ${name}`);
  sb.durable?.objectsReplaced();
  return json(200, { name, duration_ms: Math.round((performance.now() - started) * 10) / 10 });
}

function health(_req: Request, { sandbox: sb }: RequestContext): Response {
  return json(200, { status: "ok", uptime_seconds: Math.floor((Date.now() - sb.startedMs) / 1000) });
}

/** Routes of the control API. */
export const controlRoutes: readonly Route[] = [
  { method: "POST", pattern: "/_sandbox/reset", scopes: [], handler: reset },
  { method: "GET", pattern: "/_sandbox/state", scopes: [], handler: stateDump },
  { method: "GET", pattern: "/_sandbox/health", scopes: [], handler: health },
  {
    method: "GET",
    pattern: "/_sandbox/ui",
    scopes: [],
    handler: () =>
      new Response(dashboardPage(), {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
      }),
  },
  {
    method: "GET",
    pattern: "/_sandbox/overview",
    scopes: [],
    handler: (_req, { sandbox }) => json(200, overview(sandbox)),
  },
  { method: "POST", pattern: "/_sandbox/snapshot", scopes: [], handler: saveSnapshot },
  { method: "POST", pattern: "/_sandbox/restore", scopes: [], handler: restoreSnapshot },
  {
    method: "GET",
    pattern: "/_sandbox/snapshots",
    scopes: [],
    handler: (_req, { sandbox }) => json(200, sandbox.snapshots.list()),
  },
  { method: "POST", pattern: "/_sandbox/apps", scopes: [], handler: addApp },
  { method: "POST", pattern: "/_sandbox/service-accounts", scopes: [], handler: addServiceAccount },
  { method: "GET", pattern: "/_sandbox/requests", scopes: [], handler: listRequests },
  {
    method: "DELETE",
    pattern: "/_sandbox/requests",
    scopes: [],
    handler: (_req, { sandbox }) => (sandbox.requests.clear(), empty(204)),
  },
  { method: "POST", pattern: "/_sandbox/faults", scopes: [], handler: addFault },
  { method: "POST", pattern: "/_sandbox/objects/reported-size", scopes: [], handler: setReportedSize },
  {
    method: "GET",
    pattern: "/_sandbox/faults",
    scopes: [],
    handler: (_req, { sandbox }) => json(200, sandbox.faults.list()),
  },
  {
    method: "DELETE",
    pattern: "/_sandbox/faults",
    scopes: [],
    handler: (_req, { sandbox }) => (sandbox.faults.clear(), empty(204)),
  },
  { method: "DELETE", pattern: "/_sandbox/faults/:id", scopes: [], handler: removeFault },
  {
    method: "GET",
    pattern: "/_sandbox/clock",
    scopes: [],
    handler: (_req, { sandbox }) => json(200, clockView(sandbox.clock)),
  },
  { method: "POST", pattern: "/_sandbox/clock", scopes: [], handler: advanceClock },
  {
    method: "GET",
    pattern: "/_sandbox/config",
    scopes: [],
    handler: (_req, { sandbox }) => json(200, configView(sandbox.settings)),
  },
  { method: "POST", pattern: "/_sandbox/config", scopes: [], handler: setConfig },
];
