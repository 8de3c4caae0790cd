/**
 * Settings changed through the control API (`/_sandbox/config`): token lifetimes, consent, refresh
 * reuse detection, job speed, device authorization and Design Automation's health; back to their defaults on a reset.
 */

import type { ServiceStore } from "./store.ts";
import {
  defaultWebhookConfig,
  type WebhookConfig,
  webhookConfigPatch,
  webhookConfigView,
} from "./webhooks/settings.ts";

/** Settings changed through the control API. */
export interface SandboxConfig extends WebhookConfig {
  tokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** How the sandbox user answers the consent screen of `/authorize`. */
  consent: "approve" | "deny";
  /** Spending an already-used refresh token also revokes the rest of its family. */
  refreshReuseRevokesFamily: boolean;
  /** How long a translation job takes on the sandbox clock; 0: done as soon as its input is read. */
  jobSeconds: number;
  /** Whether device authorization (RFC 8628) is offered; the platform itself has none. */
  deviceFlow: boolean;
  /** The polling interval a device authorization asks for, in seconds. */
  deviceIntervalSeconds: number;
  /**
   * The sandbox user approves each device authorization as soon as it is made, as if the code had
   * been entered at once on another device: a user login with no browser (`diazo sandbox --auto-approve`).
   */
  autoApprove: boolean;
  /** Design Automation health statuses other than "Fully Operational", by engine (e.g. Revit). */
  daHealth: Record<string, string>;
}

/** The settings of a running sandbox. */
export type Settings = SandboxConfig & ServiceStore;

/** Lifetime of an access token, as the platform answers (`expires_in`). */
export const DEFAULT_TOKEN_TTL_SECONDS = 3599;

/** Lifetime of a refresh token: 15 days. */
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 15 * 24 * 3600;

/** Duration of a translation job on the sandbox clock. */
export const DEFAULT_JOB_SECONDS = 4;

/** Settings as they are after start or reset. */
export function defaultConfig(): SandboxConfig {
  return {
    tokenTtlSeconds: DEFAULT_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
    consent: "approve",
    refreshReuseRevokesFamily: false,
    jobSeconds: DEFAULT_JOB_SECONDS,
    deviceFlow: false,
    deviceIntervalSeconds: 5,
    autoApprove: false,
    daHealth: {},
    ...defaultWebhookConfig(),
  };
}

/** The settings as the control API shows them. */
export function configView(c: SandboxConfig) {
  return {
    token_ttl_seconds: c.tokenTtlSeconds,
    refresh_token_ttl_seconds: c.refreshTokenTtlSeconds,
    consent: c.consent,
    refresh_reuse_revokes_family: c.refreshReuseRevokesFamily,
    job_seconds: c.jobSeconds,
    device_flow: c.deviceFlow,
    device_interval_seconds: c.deviceIntervalSeconds,
    auto_approve: c.autoApprove,
    da_health: c.daHealth,
    ...webhookConfigView(c),
  };
}

/** Default settings. */
export function createSettings(): Settings {
  const settings: Settings = {
    ...defaultConfig(),
    kept: Object.keys(defaultConfig()),
    reset: () => void Object.assign(settings, defaultConfig()),
    snapshot: () => ({ config: configView(settings) }),
  };
  return settings;
}

function isTtl(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 1;
}

/** Reads the settings of a config body into a patch, or says what is wrong. */
export function configPatch(b: Record<string, unknown>): Partial<SandboxConfig> | string {
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
  if (b.auto_approve !== undefined) {
    if (typeof b.auto_approve !== "boolean") return "'auto_approve' must be a boolean";
    patch.autoApprove = b.auto_approve;
  }
  const daHealth = b.da_health;
  if (daHealth !== undefined) {
    const entries = typeof daHealth === "object" && daHealth !== null && !Array.isArray(daHealth)
      ? Object.entries(daHealth)
      : undefined;
    if (!entries || entries.some(([, v]) => typeof v !== "string")) {
      return "'da_health' must be an object of engine: status strings";
    }
    patch.daHealth = Object.fromEntries(entries) as Record<string, string>;
  }
  const webhooks = webhookConfigPatch(b);
  if (typeof webhooks === "string") return webhooks;
  return { ...patch, ...webhooks };
}
