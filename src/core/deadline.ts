/**
 * A deadline with the members of an AbortSignal that the raw transport reads (http/raw_transport.ts),
 * timed by `Atomics.waitAsync` on a cell of its own. Deno's global `setTimeout` loads its
 * Node-compatible timers, and `AbortSignal.timeout` its events and Web IDL layer: 4.3 million
 * instructions of `bucket list` (ARCHITECTURE.md, "Start-up"). This one loads nothing, and, like
 * `AbortSignal.timeout`, its timer does not keep the process alive: the request it times does.
 */

/** What stops a request: an AbortSignal has these members, and so does a Deadline. */
export interface StopSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** A deadline: aborted (with a TimeoutError) once its time is up, unless cleared first. */
export interface Deadline extends StopSignal {
  /**
   * When the time is up, on `performance.now()`'s clock: a reader that never yields long enough for
   * the timer to fire compares it with the clock itself (http/raw_transport.ts).
   */
  readonly endsAt: number;
  /** Stops the timer; the deadline then never aborts. */
  clear(): void;
  /** The same deadline as an AbortSignal (for `fetch`), made when first asked for. */
  abortSignal(): AbortSignal;
}

/**
 * A deadline `ms` from now: NaN or Infinity never comes, a negative time has passed already. Its
 * listeners run once, in the order they were added, when the time is up. (Plain properties and
 * functions, no getters: the fast start's code cache holds functions, not accessors.)
 */
export function deadline(ms: number): Deadline {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  let cleared = false;
  let listeners: (() => void)[] = [];
  let signal: AbortSignal | undefined;
  const d: { -readonly [K in keyof Deadline]: Deadline[K] } = {
    endsAt: performance.now() + (Number.isNaN(ms) ? Infinity : Math.max(0, ms)),
    aborted: false,
    reason: undefined,
    throwIfAborted() {
      if (d.aborted) throw d.reason;
    },
    addEventListener(_type, listener, _options) {
      // Every listener here is a once-listener: the deadline aborts at most once.
      if (!d.aborted && !cleared) listeners.push(listener);
    },
    removeEventListener(_type, listener) {
      listeners = listeners.filter((l) => l !== listener);
    },
    clear() {
      if (cleared) return;
      cleared = true;
      listeners = [];
      Atomics.notify(cell, 0);
    },
    abortSignal() {
      if (!signal) {
        const controller = new AbortController();
        if (d.aborted) controller.abort(d.reason);
        else if (!cleared) listeners.push(() => controller.abort(d.reason));
        signal = controller.signal;
      }
      return signal;
    },
  };
  const expire = () => {
    if (cleared || d.aborted) return;
    d.aborted = true;
    d.reason = new DOMException("attempt timed out", "TimeoutError");
    const now = listeners;
    listeners = [];
    for (const l of now) l();
  };
  const wait = Atomics.waitAsync(cell, 0, 0, Number.isNaN(ms) ? Infinity : Math.max(0, ms));
  if (!wait.async) expire();
  else wait.value.then((v) => v === "timed-out" && expire());
  return d;
}
