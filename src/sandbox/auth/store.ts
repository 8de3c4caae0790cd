/**
 * What the authentication service keeps: registered apps, issued tokens, authorization codes,
 * device authorizations, refresh tokens and service accounts, and the keys that sign tokens.
 */

import type { Clock } from "../clock.ts";
import type { Settings } from "../settings.ts";
import type { ServiceStore } from "../store.ts";
import type { SigningKey } from "./jwt.ts";

/** A registered application (client). */
export interface App {
  clientId: string;
  clientSecret: string;
  callbackUrl: string;
  /** The well-known app survives a reset. */
  builtin: boolean;
  /** The only scopes this app may be granted (a world file's `scopes`); none: any the platform grants. */
  scopes?: string[];
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

/** The app every sandbox knows. */
export const WELL_KNOWN_APP: Readonly<App> = Object.freeze({
  clientId: "diazo-sandbox",
  clientSecret: "diazo-sandbox-secret",
  callbackUrl: "http://localhost:8080/callback",
  builtin: true,
});

/** Everything the authentication service knows. */
export interface AuthStore extends ServiceStore {
  apps: Map<string, App>;
  tokens: Map<string, IssuedToken>;
  /** By code. */
  codes: Map<string, AuthCode>;
  /** Device authorizations by device code. */
  deviceGrants: Map<string, DeviceGrant>;
  /** By refresh token. */
  refreshTokens: Map<string, RefreshGrant>;
  /** By service account id. */
  serviceAccounts: Map<string, ServiceAccount>;
  /** Signing keys; the first signs new tokens, all verify. They survive a reset. */
  keys: SigningKey[];
  clock: Clock;
  settings: Settings;
}

const byKey = <T>(key: (t: T) => string) => (a: T, b: T) => key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** A store holding only the well-known app. */
export function createAuthStore(keys: SigningKey[], clock: Clock, settings: Settings): AuthStore {
  const store: AuthStore = {
    apps: new Map([[WELL_KNOWN_APP.clientId, { ...WELL_KNOWN_APP }]]),
    tokens: new Map(),
    codes: new Map(),
    deviceGrants: new Map(),
    refreshTokens: new Map(),
    serviceAccounts: new Map(),
    keys,
    clock,
    settings,
    kept: ["apps", "tokens", "codes", "deviceGrants", "refreshTokens", "serviceAccounts"],
    reset() {
      store.apps.clear();
      store.tokens.clear();
      store.codes.clear();
      store.deviceGrants.clear();
      store.refreshTokens.clear();
      store.serviceAccounts.clear();
      store.apps.set(WELL_KNOWN_APP.clientId, { ...WELL_KNOWN_APP });
    },
    snapshot: () => ({
      apps: [...store.apps.values()]
        .sort(byKey((a) => a.clientId))
        .map((a) => ({ client_id: a.clientId, callback_url: a.callbackUrl, builtin: a.builtin })),
      service_accounts: [...store.serviceAccounts.values()]
        .sort(byKey((a) => a.serviceAccountId))
        .map((a) => ({
          serviceAccountId: a.serviceAccountId,
          name: a.name,
          email: a.email,
          client_id: a.clientId,
          status: a.status,
          keys: a.keys.map((k) => k.kid),
        })),
    }),
  };
  return store;
}

/** Registers an app; false when its client id is taken. */
export function registerApp(store: AuthStore, app: Omit<App, "builtin">): boolean {
  if (store.apps.has(app.clientId)) return false;
  store.apps.set(app.clientId, { ...app, builtin: false });
  return true;
}

/** The app with these credentials, or undefined when they do not match one. */
export function authenticateApp(
  store: AuthStore,
  clientId: string,
  clientSecret: string,
): App | undefined {
  const app = store.apps.get(clientId);
  return app && app.clientSecret === clientSecret ? app : undefined;
}
