/** Polling for a device authorization's token (RFC 8628 §3.4–3.5). */
import { DiazoError, isDiazoError } from "../core/errors.ts";
import type { DeviceAuthorization, TokenResponse } from "./authentication.ts";

/** What the poll loop needs: one token request, a clock and a way to wait. */
export interface DevicePollDeps {
  poll(): Promise<TokenResponse>;
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The OAuth error code in a token endpoint refusal, if any. */
function oauthErrorCode(e: unknown): string | undefined {
  if (!isDiazoError(e)) return undefined;
  const body = e.body as { error?: unknown } | undefined;
  return typeof body?.error === "string" ? body.error : undefined;
}

/**
 * Polls until the user approves: waits `interval` (default 5 s) between polls, adds 5 s on
 * `slow_down`, and ends with the token or with a login error on denial or expiry.
 */
export async function pollDeviceToken(
  deps: DevicePollDeps,
  grant: DeviceAuthorization,
): Promise<TokenResponse> {
  let intervalMs = Math.max(1, grant.interval ?? 5) * 1000;
  const deadline = deps.now() + grant.expires_in * 1000;
  for (;;) {
    await deps.sleep(intervalMs);
    try {
      return await deps.poll();
    } catch (e) {
      const code = oauthErrorCode(e);
      if (code === "authorization_pending") {
        // keep polling
      } else if (code === "slow_down") {
        intervalMs += 5000;
      } else if (code === "access_denied") {
        throw new DiazoError("login_denied", { params: { reason: "access_denied" }, cause: e });
      } else if (code === "expired_token") {
        throw new DiazoError("device_code_expired", { params: { seconds: grant.expires_in }, cause: e });
      } else {
        throw e;
      }
    }
    if (deps.now() + intervalMs > deadline) {
      throw new DiazoError("device_code_expired", { params: { seconds: grant.expires_in } });
    }
  }
}
