/**
 * What handlers are given: the sandbox's parts (one store per emulated service, the clock, the
 * settings, faults and the request log) and the request's own facts (base URL, path parameters,
 * verified token).
 */

import { type AccBuildStore, createAccBuildStore } from "./acc_build/store.ts";
import { type AdminStore, createAdminStore } from "./admin/store.ts";
import type { SigningKey } from "./auth/jwt.ts";
import { type AuthStore, createAuthStore } from "./auth/store.ts";
import type { AccessClaims } from "./auth/tokens.ts";
import { type Clock, createClock } from "./clock.ts";
import { createDaStore, type DaStore } from "./da/store.ts";
import { createDerivativeStore, type DerivativeStore } from "./derivative/store.ts";
import { createDmStore, type DmStore } from "./dm/store.ts";
import { createEventBus, type EventBus } from "./events.ts";
import { createIssuesStore, type IssuesStore } from "./issues/store.ts";
import { createFaultStore, type FaultStore } from "./faults.ts";
import { createOssStore, type OssStore } from "./oss/store.ts";
import { createRealityStore, type RealityStore } from "./reality/store.ts";
import { createRequestLog, type RequestLog } from "./request_log.ts";
import { createSettings, type Settings } from "./settings.ts";
import { createSnapshots, type Snapshots } from "./snapshots.ts";
import type { Durable, ServiceStore } from "./store.ts";
import { createWebhooks } from "./webhooks/service.ts";
import type { WebhookStore } from "./webhooks/store.ts";

/** The parts of one running sandbox. */
export interface SandboxContext {
  auth: AuthStore;
  oss: OssStore;
  derivative: DerivativeStore;
  dm: DmStore;
  da: DaStore;
  admin: AdminStore;
  issues: IssuesStore;
  webhooks: WebhookStore;
  reality: RealityStore;
  /** Construction-cloud RFIs, assets, submittals and checklists. */
  accBuild: AccBuildStore;
  clock: Clock;
  settings: Settings;
  faults: FaultStore;
  requests: RequestLog;
  /** Events the services publish (webhooks deliver them). */
  events: EventBus;
  /** Where object and derivative data live on disk. */
  dataDir: string;
  /** Every store above, in the order the control API resets them and lists them in the state dump. */
  stores: readonly ServiceStore[];
  /** The stores whose state snapshots and the data dir keep, by name. */
  kept: Record<string, ServiceStore>;
  /** Named snapshots (`/_sandbox/snapshot`). */
  snapshots: Snapshots;
  /** When the sandbox started, milliseconds since the epoch (wall clock). */
  startedMs: number;
  /** The snapshot a reset returns to after emptying the stores (the seeded world); none: the built-in world. */
  resetTo?: string;
  /** Keeps the state in the data dir across restarts; none: the state lives in memory only. */
  durable?: Durable;
}

/** A fresh sandbox: every service empty (or seeded), the clock at wall time, default settings. */
export function createSandboxContext(keys: SigningKey[], dataDir: string): SandboxContext {
  const clock = createClock();
  const settings = createSettings();
  const events = createEventBus();
  const webhooks = createWebhooks(events, clock, settings);
  const parts = {
    auth: createAuthStore(keys, clock, settings),
    oss: createOssStore(dataDir, clock),
    derivative: createDerivativeStore(dataDir),
    dm: createDmStore(),
    da: createDaStore(),
    admin: createAdminStore(),
    issues: createIssuesStore(),
    reality: createRealityStore(dataDir),
    accBuild: createAccBuildStore(),
    faults: createFaultStore(),
    requests: createRequestLog(),
  };
  const { auth, oss, derivative, dm, da, admin, faults, requests } = parts;
  const { reality } = parts;
  const { accBuild } = parts;
  const kept = {
    auth,
    oss,
    derivative,
    dm,
    da,
    admin,
    issues: parts.issues,
    webhooks,
    reality,
    accBuild,
    clock,
    settings,
  };
  return {
    ...parts,
    clock,
    settings,
    events,
    dataDir,
    webhooks,
    kept,
    snapshots: createSnapshots(() => kept, dataDir),
    startedMs: Date.now(),
    stores: [
      auth,
      oss,
      derivative,
      dm,
      da,
      admin,
      faults,
      clock,
      settings,
      requests,
      webhooks,
      reality,
      accBuild,
      parts.issues,
    ],
  };
}

/** One request as a handler sees it. */
export interface RequestContext {
  sandbox: SandboxContext;
  url: URL;
  /** Origin the client used to reach the sandbox, e.g. `http://127.0.0.1:8787`; for absolute links. */
  baseUrl: string;
  /** The path as the client sent it, when the gateway collapsed repeated slashes in it. */
  sentPath?: string;
  /** Decoded path parameters of the matched route. */
  params: Record<string, string>;
  /** The verified bearer token, on routes that require one. */
  token?: AccessClaims;
  /** The calling app, when known, for the request log. */
  clientId?: string;
  /** The grant type of a token-endpoint call, for the request log. */
  grantType?: string;
}
