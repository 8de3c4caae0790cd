/**
 * Polling of every wait (translations, work items, photoscenes, provisioning): growing delays, an overall
 * time limit, and 202 "not ready yet". Loaded by the commands that wait; the options every run's
 * session carries are poll_options.ts.
 */
import { DiazoError } from "../core/errors.ts";
import type { Http, RequestSpec } from "./http.ts";
import { abortableSleep } from "../core/sleep.ts";
import { DEFAULT_POLL_BASE_MS, DEFAULT_POLL_MAX_MS, type PollOptions } from "./poll_options.ts";

/** Default limit of a wait for extraction (object tree, properties). */
export const DEFAULT_EXTRACT_TIMEOUT_MS = 5 * 60_000;

/** The delay before poll number `n` (0-based): base × 1.5ⁿ, capped. */
export function pollDelay(n: number, baseMs: number, maxMs: number): number {
  return Math.round(Math.min(Math.max(baseMs, maxMs), baseMs * 1.5 ** n));
}

/** A clock for one wait: sleeps that never pass the deadline, and the timeout error once it has passed. */
export interface PollClock {
  /** Sleeps before the next poll; throws `timeout` once the limit has passed, `interrupted` when aborted. */
  pause(): Promise<void>;
}

/** Starts the clock of one wait. */
export function startPollClock(opts: PollOptions, defaultTimeoutMs?: number): PollClock {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? abortableSleep;
  const base = Math.max(0, opts.pollBaseMs ?? DEFAULT_POLL_BASE_MS);
  const max = opts.pollMaxMs ?? Math.max(base, DEFAULT_POLL_MAX_MS);
  const timeoutMs = opts.timeoutMs ?? defaultTimeoutMs;
  const deadline = timeoutMs === undefined ? Infinity : now() + timeoutMs;
  let n = 0;
  const timedOut = () =>
    new DiazoError("timeout", { params: { seconds: Math.round((timeoutMs ?? 0) / 100) / 10 } });
  return {
    async pause() {
      if (opts.signal?.aborted) throw new DiazoError("interrupted", { cause: opts.signal.reason });
      const left = deadline - now();
      if (left <= 0) throw timedOut();
      await sleep(Math.min(left, pollDelay(n++, base, max)), opts.signal);
      // One last poll happens at the deadline; the next pause reports the timeout.
      if (opts.signal?.aborted) throw new DiazoError("interrupted", { cause: opts.signal.reason });
    },
  };
}

/**
 * Sends a GET until the platform stops answering 202 `{"result":"success"}` (still working) and
 * returns the final answer's body.
 */
export async function pollWhileAccepted<T = unknown>(
  http: Http,
  spec: RequestSpec,
  opts: PollOptions = {},
): Promise<T> {
  const clock = startPollClock(opts, DEFAULT_EXTRACT_TIMEOUT_MS);
  for (;;) {
    const res = await http.request<T>({ ...spec, signal: opts.signal });
    if (res.status !== 202) return res.data;
    await clock.pause();
  }
}
