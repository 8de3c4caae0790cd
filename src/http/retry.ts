/** Retry policy of the HTTP client (ARCHITECTURE.md): what is retried and how long to wait. */

/** Statuses that mean "try again later". */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/** Methods that can be repeated without changing the outcome. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

/** True when sending a request of this method twice has the effect of sending it once. */
export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/** Retry mode of one request: `auto` retries idempotent methods only, `always` a POST known to be safe. */
export type RetryMode = "auto" | "always" | "never";

/** True when a request with this method and mode may be sent again after a failure. */
export function isRetryable(method: string, mode: RetryMode = "auto"): boolean {
  if (mode === "always") return true;
  if (mode === "never") return false;
  return isIdempotent(method);
}

/** Exponential backoff with full jitter for the retry after failed attempt `n` (0-based). */
export function backoffMs(n: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** n);
  return Math.floor(random() * ceiling);
}

/**
 * Milliseconds a `Retry-After` header asks to wait (delay-seconds or an HTTP date), or undefined
 * when it is absent or unreadable.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (text === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Default longest wait a `Retry-After` may impose, milliseconds (DIAZO_MAX_RETRY_AFTER, seconds). */
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

/**
 * The wait a `Retry-After` of `askedMs` gets: at most `capMs`, and never past the attempt timeout
 * (the `--timeout` the user gave), so that a platform asking for a day cannot stall a run silently.
 */
export function boundedRetryAfter(askedMs: number, capMs: number, timeoutMs: number): number {
  return Math.max(0, Math.min(askedMs, capMs, timeoutMs));
}
