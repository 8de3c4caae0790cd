/**
 * The sandbox's in-memory world: registered apps, issued tokens, buckets, the clock and settings.
 */

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
}

/** Everything the sandbox knows. */
export interface SandboxState {
  apps: Map<string, App>;
  tokens: Map<string, IssuedToken>;
  buckets: Map<string, Bucket>;
  /** Added to the wall clock: how far the sandbox clock was advanced. */
  clockOffsetMs: number;
  config: SandboxConfig;
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

/** Settings as they are after start or reset. */
export function defaultConfig(): SandboxConfig {
  return { tokenTtlSeconds: DEFAULT_TOKEN_TTL_SECONDS };
}

/** A fresh state holding only the well-known app. */
export function createState(): SandboxState {
  return {
    apps: new Map([[WELL_KNOWN_APP.clientId, { ...WELL_KNOWN_APP }]]),
    tokens: new Map(),
    buckets: new Map(),
    clockOffsetMs: 0,
    config: defaultConfig(),
  };
}

/** Returns `state` to how `createState` made it, in place. */
export function resetState(state: SandboxState): void {
  const fresh = createState();
  state.apps = fresh.apps;
  state.tokens = fresh.tokens;
  state.buckets = fresh.buckets;
  state.clockOffsetMs = fresh.clockOffsetMs;
  state.config = fresh.config;
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
