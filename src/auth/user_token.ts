/**
 * The profile's stored user token (3-legged) as a command reads it: its key, and the token itself
 * while it is fresh. Refreshing it (three_legged.ts: the token endpoint under a cross-process lock)
 * loads only when it is not: most runs find a fresh token and load neither.
 */
import type { Resolved } from "../config/config.ts";
import { registerSecret } from "../core/redact.ts";
import { EXPIRY_MARGIN_MS } from "./two_legged.ts";
import type { StoredToken, TokenStore } from "./token_store.ts";

/** The key of a profile's 3-legged login (one per profile, app and platform). */
export function threeLeggedKey(profile: string, clientId: string, baseUrl: string): string {
  return [profile, "3-legged", clientId, baseUrl].join("|");
}

/** Whether `t` serves as it is: not the token the platform has just refused, nor within a minute of expiry. */
export function isFreshUserToken(
  t: StoredToken | undefined,
  now: number,
  rejected?: string,
): boolean {
  return t !== undefined && t.access_token !== rejected && t.expires_at - EXPIRY_MARGIN_MS > now;
}

/**
 * The profile's stored user token while it is fresh, its secret registered for redaction; undefined
 * when it needs a refresh or a login (three_legged.ts `threeLeggedToken` does either, or says which).
 */
export async function freshUserToken(
  deps: { resolved: Resolved; store: TokenStore; now?: () => number },
  opts: { rejected?: string } = {},
): Promise<StoredToken | undefined> {
  const clientId = deps.resolved.clientId.value;
  if (!clientId) return undefined;
  const current = await deps.store.get(
    threeLeggedKey(deps.resolved.profileName, clientId, deps.resolved.baseUrl.value),
  );
  if (!isFreshUserToken(current ?? undefined, (deps.now ?? Date.now)(), opts.rejected)) return undefined;
  registerSecret(current!.access_token);
  return current!;
}
