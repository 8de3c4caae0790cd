/**
 * OAuth scopes of the platform as data: what each is for and in which mode it can be granted.
 * Drives the commands (what to request, what to tell the user) and the sandbox (what to enforce).
 */

/** Authentication mode: client credentials (no user) or a user's authorization. */
export type AuthMode = "2-legged" | "3-legged";

/** One scope and where it applies. */
export interface ScopeInfo {
  name: string;
  purpose: string;
  /** Modes in which the platform grants it. */
  modes: readonly AuthMode[];
  /** A note on limits in a mode (e.g. 2-legged data:* only reaches the app's own data). */
  note?: string;
}

/** The scope table (the seed's table plus the platform's other documented scopes). */
export const SCOPES: readonly ScopeInfo[] = [
  {
    name: "data:read",
    purpose: "Read data: objects, hubs, projects, folders, items, derivatives",
    modes: ["2-legged", "3-legged"],
    note: "2-legged: only data the app itself owns (no hubs/projects without provisioning)",
  },
  {
    name: "data:write",
    purpose: "Change data: upload, update and delete objects and items",
    modes: ["2-legged", "3-legged"],
    note: "2-legged: limited to the app's own buckets",
  },
  {
    name: "data:create",
    purpose: "Create data: new items, folders, versions",
    modes: ["2-legged", "3-legged"],
    note: "2-legged: limited to the app's own buckets",
  },
  { name: "data:search", purpose: "Search data", modes: ["2-legged", "3-legged"] },
  { name: "bucket:read", purpose: "List buckets and read their details", modes: ["2-legged", "3-legged"] },
  { name: "bucket:create", purpose: "Create buckets", modes: ["2-legged", "3-legged"] },
  { name: "bucket:update", purpose: "Update buckets and their permissions", modes: ["2-legged", "3-legged"] },
  { name: "bucket:delete", purpose: "Delete buckets", modes: ["2-legged", "3-legged"] },
  {
    name: "viewables:read",
    purpose: "Load viewables in the viewer (read-only)",
    modes: ["2-legged", "3-legged"],
  },
  {
    name: "code:all",
    purpose: "Design Automation: engines, app bundles, activities, work items",
    modes: ["2-legged"],
  },
  { name: "account:read", purpose: "Read account administration data", modes: ["3-legged"] },
  { name: "account:write", purpose: "Change account administration data", modes: ["3-legged"] },
  { name: "user-profile:read", purpose: "Read the user's profile", modes: ["3-legged"] },
  { name: "user:read", purpose: "Read the user's information", modes: ["3-legged"] },
  { name: "user:write", purpose: "Change the user's information", modes: ["3-legged"] },
  { name: "openid", purpose: "Issue an OpenID Connect ID token", modes: ["3-legged"] },
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

/** The table entry of a scope, or undefined for an unknown name. */
export function scopeInfo(name: string): ScopeInfo | undefined {
  return SCOPES.find((s) => s.name === name);
}

/** Names in `names` that are not scopes of the platform (`data:read:<urn>` counts as known). */
export function unknownScopes(names: readonly string[]): string[] {
  return names.filter((n) => !SCOPE_NAMES.includes(n) && !n.startsWith("data:read:"));
}

/** Splits a user's scope list (comma and/or space separated) into sorted unique names. */
export function parseScopeList(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))].sort();
}
