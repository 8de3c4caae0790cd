/**
 * The scope verbs of `auth`: the platform's scopes, decoding a token, proving the app may hold a
 * scope or call an endpoint with exactly some scopes, and growing or shrinking the profile's scopes.
 */
import { endpointScope } from "../../aps/endpoint_scopes.ts";
import { DiazoError, isDiazoError, usageError } from "../../core/errors.ts";
import { registerSecret } from "../../core/redact.ts";
import { decodeJwt, jwtScopes } from "../../aps/jwt.ts";
import {
  AUTH_MODES,
  type AuthMode,
  discouragedScopes,
  parseScopeList,
  SCOPES,
  ungrantedScopes,
  unknownScopes,
} from "../../aps/scopes.ts";
import { profileScopes } from "../../auth/two_legged.ts";
import { createHttp } from "../../http/http.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { appToken, type ProfileDeps } from "./verbs.ts";

/**
 * Parses and checks a scope list for a mode: unknown names and scopes the platform does not grant
 * in the mode are usage errors; scopes it grants but diazo advises against there are a warning.
 */
export function checkedScopes(
  text: string,
  mode: AuthMode,
  warn?: (message: string) => void,
): string[] {
  const scopes = parseScopeList(text);
  const unknown = unknownScopes(scopes);
  if (unknown.length) {
    throw usageError(
      `unknown scope ${unknown.join(", ")}`,
      "See the platform's scopes with `diazo auth scopes`.",
    );
  }
  const excluded = ungrantedScopes(scopes, mode);
  if (excluded.length) {
    throw usageError(
      `${excluded.join(", ")} cannot be granted to a ${mode} token`,
      mode === "2-legged"
        ? "User scopes need a user: use `diazo auth login --3legged`."
        : "Remove them from --scopes.",
    );
  }
  const discouraged = discouragedScopes(scopes, mode);
  if (discouraged.length) {
    warn?.(
      `${discouraged.join(", ")}: granted to a ${mode} token, but diazo recommends a 3-legged login for ` +
        "account data (see `diazo auth scopes`)",
    );
  }
  return scopes;
}

/** Stores `scopes` as the profile's 2-legged scopes (and makes it the active profile if none is). */
export async function saveProfileScopes(deps: ProfileDeps, scopes: string[]): Promise<void> {
  const resolved = await deps.settings();
  const cfg = structuredClone(await deps.config());
  (cfg.profiles[resolved.profileName] ??= {}).scopes = scopes;
  cfg.active_profile ??= resolved.profileName;
  await deps.saveConfig(cfg);
}

/** One row of `auth scopes`: the platform's grant and diazo's advice side by side (aps/scopes.ts). */
export interface ScopeRow {
  scope: string;
  /** Modes the platform grants it in, e.g. `2-legged, 3-legged`. */
  granted_by_platform: string;
  /** diazo's advice per mode, e.g. `2-legged: limited, 3-legged: full`. */
  recommended_by_diazo: string;
  purpose: string;
  note: string;
}

/** `auth scopes`: the platform's scopes, what each is for, where it is granted and what diazo recommends. */
export function runScopes(): ScopeRow[] {
  return SCOPES.map((s) => ({
    scope: s.name,
    granted_by_platform: s.granted.join(", "),
    recommended_by_diazo: AUTH_MODES.map((m) => `${m}: ${s.recommended[m]}`).join(", "),
    purpose: s.purpose,
    note: s.note ?? "",
  }));
}

/** What `auth inspect-token` returns. */
export interface InspectedToken {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  scopes: string[];
  client_id: unknown;
  userid: unknown;
  mode: "2-legged" | "3-legged";
  expires_at: string | null;
  expires_in_seconds: number | null;
  expired: boolean | null;
}

/** The profile's cached token to inspect: the user's first, else the one that lives longest. */
async function cachedToken(deps: OpsDeps): Promise<string> {
  const resolved = await deps.settings();
  const stored = Object.values(await (await deps.tokenStore()).list(resolved.profileName))
    .sort((a, b) => (a.mode === b.mode ? b.expires_at - a.expires_at : a.mode === "3-legged" ? -1 : 1))[0];
  if (!stored) {
    throw usageError(
      "no cached token to inspect",
      "Pass --token <jwt>, or run `diazo auth test` or `diazo auth login` first.",
    );
  }
  return stored.access_token;
}

/** `auth inspect-token`: decodes `token` (the profile's cached one when absent). */
export async function runInspectToken(opts: { token?: string }, deps: OpsDeps): Promise<InspectedToken> {
  const token = opts.token || await cachedToken(deps);
  registerSecret(token);
  const { header, payload } = decodeJwt(token);
  const exp = typeof payload.exp === "number" ? payload.exp : undefined;
  const now = Math.floor(Date.now() / 1000);
  return {
    header,
    payload,
    scopes: jwtScopes(payload),
    client_id: payload.client_id ?? null,
    userid: payload.userid ?? null,
    mode: payload.userid ? "3-legged" : "2-legged",
    expires_at: exp ? new Date(exp * 1000).toISOString() : null,
    expires_in_seconds: exp ? exp - now : null,
    expired: exp ? exp <= now : null,
  };
}

/** `auth test-scope`: whether the app obtains a 2-legged token with `scope`. */
export async function runTestScope(
  opts: { scope: string },
  deps: OpsDeps,
): Promise<{ scope: string; granted: boolean; mode: string }> {
  const [s] = checkedScopes(opts.scope, "2-legged", (m) => deps.warn(m));
  try {
    const token = await appToken(deps, { force: true, scopes: [s] });
    return { scope: s, granted: token.scopes.includes(s), mode: token.mode };
  } catch (e) {
    // The token endpoint refuses a scope the app may not hold with a plain 400.
    if (isDiazoError(e) && e.code === "bad_request") {
      throw new DiazoError("insufficient_scope", { params: { scope: s }, status: e.status, body: e.body });
    }
    throw e;
  }
}

/** `auth test-scopes`: GETs `endpoint` with a token that has exactly `scopes`. */
export async function runTestScopes(
  opts: { scopes: string; endpoint: string },
  deps: OpsDeps,
): Promise<{ scopes: string[]; endpoint: string; status: number; ok: true }> {
  const list = checkedScopes(opts.scopes, "2-legged", (m) => deps.warn(m));
  if (!opts.endpoint.startsWith("/")) {
    throw usageError(
      `--endpoint must be a path starting with /, got '${opts.endpoint}'`,
      "Example: --endpoint /oss/v2/buckets",
    );
  }
  const token = await appToken(deps, { force: true, scopes: list });
  const resolved = await deps.settings();
  // Its own client: the profile's client would use (and renew) the profile's scopes instead.
  const http = createHttp({
    baseUrl: resolved.baseUrl.value,
    timeoutMs: resolved.timeoutSec * 1000,
    maxAttempts: resolved.maxAttempts,
    retryBaseMs: resolved.retryBaseMs,
    token: () => Promise.resolve(token.access_token),
    debug: (l) => deps.debug(l),
  });
  // A refusal names the scope the endpoint needs (aps/endpoint_scopes.ts), not the scopes being tried.
  const needed = endpointScope("GET", opts.endpoint);
  const res = await http.request({
    path: opts.endpoint,
    scope: needed ?? "<the endpoint's scope>",
    responseType: "none",
  });
  return { scopes: list, endpoint: opts.endpoint, status: res.status, ok: true };
}

/** What `auth extend-scopes` and `auth reduce-scopes` return. */
export interface ScopeChange {
  profile: string;
  before: string[];
  after: string[];
}

/** Changes the profile's scopes after proving the app may hold the new set. */
async function changeScopes(
  deps: ProfileDeps,
  change: (current: string[]) => string[],
): Promise<ScopeChange> {
  const resolved = await deps.settings();
  const before = profileScopes(resolved);
  const after = [...new Set(change(before))].sort();
  if (after.length === 0) {
    throw usageError("a profile needs at least one scope", "Keep at least one, e.g. bucket:read.");
  }
  await appToken(deps, { force: true, scopes: after });
  await saveProfileScopes(deps, after);
  return { profile: resolved.profileName, before, after };
}

/** `auth extend-scopes`: adds scopes to the profile's 2-legged tokens. */
export async function runExtendScopes(opts: { add: string }, deps: ProfileDeps): Promise<ScopeChange> {
  const add = checkedScopes(opts.add, "2-legged", (m) => deps.warn(m));
  return await changeScopes(deps, (cur) => [...cur, ...add]);
}

/** `auth reduce-scopes`: removes scopes from the profile's 2-legged tokens. */
export async function runReduceScopes(opts: { remove: string }, deps: ProfileDeps): Promise<ScopeChange> {
  const remove = new Set(checkedScopes(opts.remove, "2-legged"));
  return await changeScopes(deps, (cur) => cur.filter((s) => !remove.has(s)));
}
