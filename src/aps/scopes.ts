/**
 * OAuth scopes of the platform as data: what each is for, in which mode the platform grants it (the
 * sandbox enforces that), and what diazo recommends per mode (diazo's messages follow it).
 * The two differ on purpose: refusing what the platform grants breaks real clients.
 */

/** Authentication mode: client credentials (no user) or a user's authorization. */
export type AuthMode = "2-legged" | "3-legged";

/** Both modes, in the order they are shown. */
export const AUTH_MODES: readonly AuthMode[] = ["2-legged", "3-legged"];

/** diazo's advice for a scope in a mode: use it fully, within limits, or not at all. */
export type Recommendation = "full" | "limited" | "none";

/** One scope: what the platform grants it to, and separately what diazo recommends. */
export interface ScopeInfo {
  name: string;
  purpose: string;
  /** Modes in which the platform grants it: the sandbox's token endpoint enforces exactly this. */
  granted: readonly AuthMode[];
  /** diazo's guidance per mode, used by its messages and `auth scopes`. */
  recommended: Readonly<Record<AuthMode, Recommendation>>;
  /** A note on limits in a mode (e.g. 2-legged data:* only reaches the app's own data). */
  note?: string;
}

const BOTH = AUTH_MODES;
const USER_ONLY: readonly AuthMode[] = ["3-legged"];
const FULL = { "2-legged": "full", "3-legged": "full" } as const;
// 2-legged data access reaches only what the app itself owns, never a user's projects.
const LIMITED = { "2-legged": "limited", "3-legged": "full" } as const;
const USER = { "2-legged": "none", "3-legged": "full" } as const;

/**
 * The scope table: the ten scopes diazo advises on plus the platform's other documented ones. `account:*` is
 * granted to 2-legged tokens (accountadmin.yaml declares 2-legged security, with a `User-Id`
 * header for writes) although diazo recommends a user's login for it.
 */
export const SCOPES: readonly ScopeInfo[] = [
  {
    name: "data:read",
    purpose: "Read data: objects, hubs, projects, folders, items, derivatives",
    granted: BOTH,
    recommended: LIMITED,
    note: "2-legged: only data the app itself owns (no hubs/projects without provisioning)",
  },
  {
    name: "data:write",
    purpose: "Change data: upload, update and delete objects and items",
    granted: BOTH,
    recommended: LIMITED,
    note: "2-legged: limited to the app's own buckets",
  },
  {
    name: "data:create",
    purpose: "Create data: new items, folders, versions",
    granted: BOTH,
    recommended: LIMITED,
    note: "2-legged: limited to the app's own buckets",
  },
  { name: "data:search", purpose: "Search data", granted: BOTH, recommended: LIMITED },
  { name: "bucket:read", purpose: "List buckets and read their details", granted: BOTH, recommended: FULL },
  { name: "bucket:create", purpose: "Create buckets", granted: BOTH, recommended: FULL },
  {
    name: "bucket:update",
    purpose: "Update buckets and their permissions",
    granted: BOTH,
    recommended: FULL,
  },
  { name: "bucket:delete", purpose: "Delete buckets", granted: BOTH, recommended: FULL },
  {
    name: "viewables:read",
    purpose: "Load viewables in the viewer (read-only)",
    granted: BOTH,
    recommended: FULL,
  },
  {
    name: "code:all",
    purpose: "Design Automation: engines, app bundles, activities, work items",
    granted: BOTH,
    recommended: FULL,
  },
  {
    name: "account:read",
    purpose: "Read account administration data",
    granted: BOTH,
    recommended: USER,
    note: "2-legged: granted, but account data is a user's: diazo uses a 3-legged login",
  },
  {
    name: "account:write",
    purpose: "Change account administration data",
    granted: BOTH,
    recommended: USER,
    note: "2-legged: granted (writes then name a user in User-Id), but diazo uses a 3-legged login",
  },
  { name: "user-profile:read", purpose: "Read the user's profile", granted: USER_ONLY, recommended: USER },
  { name: "user:read", purpose: "Read the user's information", granted: USER_ONLY, recommended: USER },
  { name: "user:write", purpose: "Change the user's information", granted: USER_ONLY, recommended: USER },
  { name: "openid", purpose: "Issue an OpenID Connect ID token", granted: USER_ONLY, recommended: USER },
] as const;

/** Every scope name the platform knows. */
export const SCOPE_NAMES: readonly string[] = SCOPES.map((s) => s.name);

/** Scopes requested by default for a 2-legged token: everything a 2-legged app can use. */
export const DEFAULT_2L_SCOPES: readonly string[] = [
  "data:read",
  "data:write",
  "data:create",
  "bucket:read",
  "bucket:create",
  "bucket:delete",
  "viewables:read",
  "code:all",
];

/** The table entry of a scope, or undefined for an unknown name (`data:read:<urn>` is data:read's). */
export function scopeInfo(name: string): ScopeInfo | undefined {
  const base = name.startsWith("data:read:") ? "data:read" : name;
  return SCOPES.find((s) => s.name === base);
}

/** Scopes in `names` the platform does not grant in `mode` (unknown names are not among them). */
export function ungrantedScopes(names: readonly string[], mode: AuthMode): string[] {
  return names.filter((n) => {
    const info = scopeInfo(n);
    return info !== undefined && !info.granted.includes(mode);
  });
}

/** Scopes in `names` the platform grants in `mode` but diazo advises against using there. */
export function discouragedScopes(names: readonly string[], mode: AuthMode): string[] {
  return names.filter((n) => {
    const info = scopeInfo(n);
    return info !== undefined && info.granted.includes(mode) && info.recommended[mode] === "none";
  });
}

/** Names in `names` that are not scopes of the platform (`data:read:<urn>` counts as known). */
export function unknownScopes(names: readonly string[]): string[] {
  return names.filter((n) => !SCOPE_NAMES.includes(n) && !n.startsWith("data:read:"));
}

/** Splits a user's scope list (comma and/or space separated) into sorted unique names. */
export function parseScopeList(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))].sort();
}
