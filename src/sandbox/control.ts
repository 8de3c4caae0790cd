/**
 * The control API under `/_sandbox/`: reset, state dump, apps, service accounts, request log,
 * faults, clock and settings. It needs no token, is never faulted and is not recorded in the
 * request log.
 */

import type { RequestContext, SandboxContext } from "./context.ts";
import { parseFaultSpec } from "./faults.ts";
import { derivativesDir } from "./derivative/translate.ts";
import { clearObjectData } from "./objects.ts";
import { empty, json, readJson } from "./respond.ts";
import type { Route } from "./router.ts";
import { createServiceAccount, SERVICE_ACCOUNT_NAME } from "./service_accounts.ts";
import { nowMs, registerApp, resetState, type SandboxConfig, WELL_KNOWN_APP } from "./state.ts";

/** Path prefix of the control API. */
export const CONTROL_PREFIX = "/_sandbox/";

/** True when `path` belongs to the control API. */
export function isControlPath(path: string): boolean {
  return path === "/_sandbox" || path.startsWith(CONTROL_PREFIX);
}

function badRequest(message: string): Response {
  return json(400, { error: message });
}

async function readObject(req: Request): Promise<Record<string, unknown> | undefined> {
  const body = await readJson(req);
  return body && typeof body === "object" && !Array.isArray(body)
    ? body as Record<string, unknown>
    : undefined;
}

function clock(sb: SandboxContext) {
  return { now: nowMs(sb.state), offset_seconds: sb.state.clockOffsetMs / 1000 };
}

function config(sb: SandboxContext) {
  const c = sb.state.config;
  return {
    token_ttl_seconds: c.tokenTtlSeconds,
    refresh_token_ttl_seconds: c.refreshTokenTtlSeconds,
    consent: c.consent,
    refresh_reuse_revokes_family: c.refreshReuseRevokesFamily,
    job_seconds: c.jobSeconds,
    device_flow: c.deviceFlow,
    device_interval_seconds: c.deviceIntervalSeconds,
  };
}

function objectCounts(sb: SandboxContext) {
  const byBucket: Record<string, number> = {};
  let count = 0, bytes = 0;
  for (const [bucketKey, objects] of [...sb.state.objects].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    byBucket[bucketKey] = objects.byKey.size;
    count += objects.byKey.size;
    for (const o of objects.byKey.values()) bytes += o.size;
  }
  const openUploads = [...sb.state.uploads.values()].filter((u) => u.state === "open").length;
  return {
    count,
    bytes,
    by_bucket: byBucket,
    open_uploads: openUploads,
    signed_resources: sb.state.signedResources.size,
  };
}

function stateDump(_req: Request, { sandbox: sb }: RequestContext): Response {
  const byKey = <T>(key: (t: T) => string) => (a: T, b: T) => key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
  return json(200, {
    apps: [...sb.state.apps.values()]
      .sort(byKey((a) => a.clientId))
      .map((a) => ({ client_id: a.clientId, callback_url: a.callbackUrl, builtin: a.builtin })),
    service_accounts: [...sb.state.serviceAccounts.values()]
      .sort(byKey((a) => a.serviceAccountId))
      .map((a) => ({
        serviceAccountId: a.serviceAccountId,
        name: a.name,
        email: a.email,
        client_id: a.clientId,
        status: a.status,
        keys: a.keys.map((k) => k.kid),
      })),
    buckets: [...sb.state.buckets.values()].sort(byKey((b) => b.bucketKey)),
    objects: objectCounts(sb),
    derivative_manifests: sb.state.derivatives.manifests.size,
    faults: sb.faults.list(),
    clock: clock(sb),
    config: config(sb),
  });
}

async function reset(_req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  resetState(sb.state);
  sb.faults.clear();
  sb.requests.clear();
  await clearObjectData(sb);
  await Deno.remove(derivativesDir(sb), { recursive: true }).catch(() => {});
  return json(200, { reset: true });
}

async function addApp(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const b = await readObject(req);
  if (
    !b || typeof b.client_id !== "string" || !b.client_id || typeof b.client_secret !== "string" ||
    !b.client_secret
  ) {
    return badRequest("'client_id' and 'client_secret' are required strings");
  }
  if (b.callback_url !== undefined && (typeof b.callback_url !== "string" || !URL.canParse(b.callback_url))) {
    return badRequest("'callback_url' must be an absolute URL");
  }
  const callbackUrl = (b.callback_url as string | undefined) ?? WELL_KNOWN_APP.callbackUrl;
  if (!registerApp(sb.state, { clientId: b.client_id, clientSecret: b.client_secret, callbackUrl })) {
    return json(409, { error: `an app with client id ${b.client_id} exists` });
  }
  return json(201, { client_id: b.client_id, callback_url: callbackUrl });
}

function listRequests(_req: Request, { sandbox: sb, url }: RequestContext): Response {
  return json(200, sb.requests.list(url.searchParams.get("path") ?? undefined));
}

async function addFault(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const parsed = parseFaultSpec(await readJson(req));
  if ("error" in parsed) return badRequest(parsed.error);
  return json(201, { id: sb.faults.add(parsed.spec).id });
}

function removeFault(_req: Request, { sandbox: sb, params }: RequestContext): Response {
  return sb.faults.remove(params.id) ? empty(204) : json(404, { error: `no fault ${params.id}` });
}

async function advanceClock(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const b = await readObject(req);
  const seconds = b?.advance_seconds;
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) {
    return badRequest("'advance_seconds' must be a number");
  }
  sb.state.clockOffsetMs += seconds * 1000;
  return json(200, clock(sb));
}

function isTtl(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 1;
}

/** Reads the settings of a config body into a patch, or says what is wrong. */
function configPatch(b: Record<string, unknown>): Partial<SandboxConfig> | string {
  const patch: Partial<SandboxConfig> = {};
  const { token_ttl_seconds: ttl, refresh_token_ttl_seconds: refreshTtl, consent } = b;
  if (ttl !== undefined) {
    if (!isTtl(ttl)) return "'token_ttl_seconds' must be a positive integer";
    patch.tokenTtlSeconds = ttl;
  }
  if (refreshTtl !== undefined) {
    if (!isTtl(refreshTtl)) return "'refresh_token_ttl_seconds' must be a positive integer";
    patch.refreshTokenTtlSeconds = refreshTtl;
  }
  if (consent !== undefined) {
    if (consent !== "approve" && consent !== "deny") return '\'consent\' must be "approve" or "deny"';
    patch.consent = consent;
  }
  const reuse = b.refresh_reuse_revokes_family;
  if (reuse !== undefined) {
    if (typeof reuse !== "boolean") return "'refresh_reuse_revokes_family' must be a boolean";
    patch.refreshReuseRevokesFamily = reuse;
  }
  const jobSeconds = b.job_seconds;
  if (jobSeconds !== undefined) {
    if (typeof jobSeconds !== "number" || !Number.isFinite(jobSeconds) || jobSeconds < 0) {
      return "'job_seconds' must be a number >= 0";
    }
    patch.jobSeconds = jobSeconds;
  }
  if (b.device_flow !== undefined) {
    if (typeof b.device_flow !== "boolean") return "'device_flow' must be a boolean";
    patch.deviceFlow = b.device_flow;
  }
  if (b.device_interval_seconds !== undefined) {
    if (!isTtl(b.device_interval_seconds)) return "'device_interval_seconds' must be a positive integer";
    patch.deviceIntervalSeconds = b.device_interval_seconds;
  }
  return patch;
}

async function setConfig(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const b = await readObject(req);
  if (!b) return badRequest("body must be a JSON object");
  const patch = configPatch(b);
  if (typeof patch === "string") return badRequest(patch);
  Object.assign(sb.state.config, patch);
  return json(200, config(sb));
}

async function addServiceAccount(req: Request, { sandbox: sb }: RequestContext): Promise<Response> {
  const b = (await readObject(req)) ?? {};
  const clientId = b.client_id ?? WELL_KNOWN_APP.clientId;
  if (typeof clientId !== "string" || !sb.state.apps.has(clientId)) {
    return json(404, { error: `no app with client id ${String(clientId)}` });
  }
  const name = b.name ?? `sandbox-sa-${sb.state.serviceAccounts.size + 1}`;
  if (typeof name !== "string" || !SERVICE_ACCOUNT_NAME.test(name)) {
    return badRequest("'name' must be 5 to 100 letters, digits and dashes");
  }
  const created = await createServiceAccount(sb.state, clientId, name);
  return json(201, {
    serviceAccountId: created.account.serviceAccountId,
    email: created.account.email,
    keyId: created.keyId,
    privateKey: created.privateKey,
  });
}

/** Routes of the control API. */
export const controlRoutes: readonly Route[] = [
  { method: "POST", pattern: "/_sandbox/reset", scopes: [], handler: reset },
  { method: "GET", pattern: "/_sandbox/state", scopes: [], handler: stateDump },
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
    handler: (_req, { sandbox }) => json(200, clock(sandbox)),
  },
  { method: "POST", pattern: "/_sandbox/clock", scopes: [], handler: advanceClock },
  {
    method: "GET",
    pattern: "/_sandbox/config",
    scopes: [],
    handler: (_req, { sandbox }) => json(200, config(sandbox)),
  },
  { method: "POST", pattern: "/_sandbox/config", scopes: [], handler: setConfig },
];
