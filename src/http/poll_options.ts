/** How a run polls (poll.ts): the options every session carries, and their defaults. */

/** Default first delay between two polls. */
export const DEFAULT_POLL_BASE_MS = 1000;
/** Default longest delay between two polls. */
export const DEFAULT_POLL_MAX_MS = 10_000;

/** How to poll; every field has a default, the last three are seams for tests. */
export interface PollOptions {
  /** First delay (default 1 s); the delay grows by half each time up to `pollMaxMs`. */
  pollBaseMs?: number;
  /** Longest delay (default 10 s, never below `pollBaseMs`). */
  pollMaxMs?: number;
  /** Give up after this long: the catalog's `timeout` error (exit 5). */
  timeoutMs?: number;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

/**
 * Poll delays from a first delay (`DIAZO_POLL_BASE_MS`, as `DIAZO_RETRY_BASE_MS` for retries, so that
 * tests run fast): the longest delay is ten times it, at most 10 s; none given, the defaults.
 */
export function pollOptionsFrom(baseMs: number | undefined): PollOptions {
  if (baseMs === undefined) return {};
  return { pollBaseMs: baseMs, pollMaxMs: Math.max(baseMs, Math.min(DEFAULT_POLL_MAX_MS, baseMs * 10)) };
}
