/**
 * The sandbox's in-memory world: registered apps, issued tokens, authorization codes, refresh
 * tokens, service accounts, buckets, the clock and settings.
 */

import { createDerivativeStore, type DerivativeStore } from "./derivative/store.ts";
import type { BucketObjects } from "./objects.ts";
import type { SignedResource } from "./signing.ts";
import type { UploadSession } from "./uploads.ts";

/** A registered application (client). */
export interface App {
  clientId: string;
  clientSecret: string;
  callbackUrl: string;
  /** The well-known app survives a reset. */
  builtin: boolean;
}

/** A token the sandbox issued, kept by `jti` so it can be recognised (and later revoked). */
export interface IssuedToken {
  jti: string;
  clientId: string;
  scopes: string[];
  /** Expiry, seconds since the epoch on the sandbox clock. */
  exp: number;
  revoked: boolean;
  /** The user (or service account) the token acts for; absent on 2-legged tokens. */
  userid?: string;
}

/** An authorization code awaiting its exchange at the token endpoint. */
export interface AuthCode {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  userid: string;
  /** The S256 PKCE challenge, when the authorize request carried one. */
  codeChallenge?: string;
  nonce?: string;
  /** Expiry, milliseconds since the epoch on the sandbox clock. */
  expMs: number;
}

/** A pending device authorization (RFC 8628), by device code. */
export interface DeviceGrant {
  clientId: string;
  userCode: string;
  scopes: string[];
  /** Expiry, milliseconds since the epoch on the sandbox clock. */
  expMs: number;
  /** The polling interval the client must keep, in seconds (raised by slow_down). */
  intervalSeconds: number;
  /** When the client last polled (sandbox clock), to answer slow_down. */
  lastPollMs?: number;
  status: "pending" | "approved" | "denied";
  userid?: string;
}

/** A refresh token the sandbox issued; each is spent by one refresh (rotation). */
export interface RefreshGrant {
  clientId: string;
  userid: string;
  /** Scopes of the original authorization; a refresh may narrow the access token, never this. */
  scopes: string[];
  /** Expiry, seconds since the epoch on the sandbox clock. */
  exp: number;
  /** Tokens rotated from one authorization share a family. */
  family: string;
  /** Issued to a client that authenticated with its secret; refreshing then needs it too. */
  confidential: boolean;
  used: boolean;
  revoked: boolean;
}

/** A key registered for a service account (only the public half is kept). */
export interface ServiceAccountKey {
  kid: string;
  publicKey: CryptoKey;
}

/** A service account of an app (Secure Service Accounts). */
export interface ServiceAccount {
  serviceAccountId: string;
  name: string;
  email: string;
  clientId: string;
  /** Milliseconds since the epoch on the sandbox clock. */
  createdAt: number;
  status: "ENABLED" | "DISABLED";
  keys: ServiceAccountKey[];
}

/** One access grant on a bucket. */
export interface BucketPermission {
  authId: string;
  access: "full" | "read";
}

/** An OSS bucket. */
export interface Bucket {
  bucketKey: string;
  bucketOwner: string;
  /** Milliseconds since the epoch on the sandbox clock. */
  createdDate: number;
  policyKey: string;
  region: string;
  permissions: BucketPermission[];
}

/** Settings changed through the control API. */
export interface SandboxConfig {
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
}

/** Everything the sandbox knows. */
export interface SandboxState {
  apps: Map<string, App>;
  tokens: Map<string, IssuedToken>;
  /** By code. */
  codes: Map<string, AuthCode>;
  /** Device authorizations by device code. */
  deviceGrants: Map<string, DeviceGrant>;
  /** State of services kept in their own modules (see service_state.ts), by service key. */
  services: Map<symbol, unknown>;
  /** By refresh token. */
  refreshTokens: Map<string, RefreshGrant>;
  /** By service account id. */
  serviceAccounts: Map<string, ServiceAccount>;
  buckets: Map<string, Bucket>;
  /** OSS objects by bucket key (their data is on disk under the data dir). */
  objects: Map<string, BucketObjects>;
  /** Direct-to-S3 upload sessions by upload key. */
  uploads: Map<string, UploadSession>;
  /** OSS signed resources by id. */
  signedResources: Map<string, SignedResource>;
  /** Signs the emulated storage URLs; a reset makes a new one, voiding every URL handed out. */
  storageUrlSecret: Uint8Array;
  /** Added to the wall clock: how far the sandbox clock was advanced. */
  clockOffsetMs: number;
  config: SandboxConfig;
  /** Model Derivative manifests, jobs and output files. */
  derivatives: DerivativeStore;
}

/** The app every sandbox knows. */
export const WELL_KNOWN_APP: Readonly<App> = Object.freeze({
  clientId: "diazo-sandbox",
  clientSecret: "diazo-sandbox-secret",
  callbackUrl: "http://localhost:8080/callback",
  builtin: true,
});

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
  };
}

/** A fresh state holding only the well-known app. */
export function createState(): SandboxState {
  return {
    apps: new Map([[WELL_KNOWN_APP.clientId, { ...WELL_KNOWN_APP }]]),
    tokens: new Map(),
    codes: new Map(),
    deviceGrants: new Map(),
    services: new Map(),
    refreshTokens: new Map(),
    serviceAccounts: new Map(),
    buckets: new Map(),
    objects: new Map(),
    uploads: new Map(),
    signedResources: new Map(),
    storageUrlSecret: crypto.getRandomValues(new Uint8Array(32)),
    clockOffsetMs: 0,
    config: defaultConfig(),
    derivatives: createDerivativeStore(),
  };
}

/** Returns `state` to how `createState` made it, in place. */
export function resetState(state: SandboxState): void {
  const fresh = createState();
  state.apps = fresh.apps;
  state.tokens = fresh.tokens;
  state.codes = fresh.codes;
  state.deviceGrants = fresh.deviceGrants;
  state.services = fresh.services;
  state.refreshTokens = fresh.refreshTokens;
  state.serviceAccounts = fresh.serviceAccounts;
  state.buckets = fresh.buckets;
  state.objects = fresh.objects;
  state.uploads = fresh.uploads;
  state.signedResources = fresh.signedResources;
  state.storageUrlSecret = fresh.storageUrlSecret;
  state.clockOffsetMs = fresh.clockOffsetMs;
  state.config = fresh.config;
  state.derivatives = fresh.derivatives;
}

/** The sandbox clock in milliseconds since the epoch. */
export function nowMs(state: SandboxState): number {
  return Date.now() + state.clockOffsetMs;
}

/** The sandbox clock in whole seconds since the epoch (JWT `exp` units). */
export function nowSeconds(state: SandboxState): number {
  return Math.floor(nowMs(state) / 1000);
}

/** Registers an app; false when its client id is taken. */
export function registerApp(state: SandboxState, app: Omit<App, "builtin">): boolean {
  if (state.apps.has(app.clientId)) return false;
  state.apps.set(app.clientId, { ...app, builtin: false });
  return true;
}

/** The app with these credentials, or undefined when they do not match one. */
export function authenticateApp(
  state: SandboxState,
  clientId: string,
  clientSecret: string,
): App | undefined {
  const app = state.apps.get(clientId);
  return app && app.clientSecret === clientSecret ? app : undefined;
}
