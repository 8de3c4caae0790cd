/**
 * The cross-process lock around fetching or refreshing one login's token: parallel diazo processes
 * that all find the cache empty or expired wait for the first one's answer instead of each asking
 * the platform (a rotating refresh token may be spent only once).
 */
import { osPath } from "../platform/path.ts";
import { DiazoError } from "../core/errors.ts";
import { LOCK_TIMEOUT, withFileLock } from "../platform/lock.ts";
import { hexOf } from "../core/bytes.ts";

/** node:path's functions for this OS, without node:path (platform/path.ts). */
const path = osPath();

/** How long a process waits for another's token request when DIAZO_LOCK_WAIT_MS does not say. */
export const DEFAULT_LOCK_WAIT_MS = 60_000;

/** The lock file of `kind` ("refresh", "token") for the login `key`, under the state dir. */
export async function tokenLockFile(stateDir: string, kind: string, key: string): Promise<string> {
  const hex = hexOf(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))).slice(0, 16);
  return path.join(stateDir, "locks", `${kind}-${hex}.lock`);
}

/** Runs `fn` holding the lock `file`; a wait past `waitMs` is a catalog error naming the lock. */
export async function withTokenLock<T>(
  file: string,
  waitMs: number | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await withFileLock(file, fn, { timeoutMs: waitMs ?? DEFAULT_LOCK_WAIT_MS });
  } catch (e) {
    if (!(e instanceof Error) || e.name !== LOCK_TIMEOUT) throw e;
    throw new DiazoError("failure", {
      cause: e,
      params: {
        detail: `waited for another diazo process to get a token: ${e.message}`,
        hint: "Wait for the other diazo command to finish; if none is running, remove the lock file.",
      },
    });
  }
}
