/**
 * A streamed answer's body (a download, `diazo api`) watched for silence: when no byte arrives for
 * the attempt's timeout, the body is cancelled and the read fails with a timeout error that says so.
 * One timer per timeout period, not one per chunk (core/deadline.ts: no Node timers on a hot path).
 * Loaded, with the body's reader (stream_body.ts), only for an answer asked for as a stream (http.ts).
 */
import { DiazoError } from "../core/errors.ts";
import { deadline } from "../core/deadline.ts";
import { type BodyReader, bodyReader } from "./stream_body.ts";

/** The error of a body in which nothing arrived for `timeoutMs`. */
export function stalled(host: string, timeoutMs: number): DiazoError {
  const seconds = timeoutMs / 1000;
  return new DiazoError("timeout", {
    params: { seconds },
    message: `The answer from ${host} stalled: no data arrived for ${seconds} s`,
  });
}

/**
 * `body` read so that it fails with `stalled(host, timeoutMs)` once no bytes have arrived for
 * `timeoutMs` while a read waits (the body is then cancelled, which closes its connection).
 */
export function idleGuard(body: BodyReader, timeoutMs: number, host: string): BodyReader {
  if (!Number.isFinite(timeoutMs)) return body;
  let last = performance.now();
  let finished = false;
  let pending = false; // only a read waiting for the server counts as silence, not a slow consumer
  let fail: ((e: unknown) => void) | undefined;
  let failure: DiazoError | undefined;
  const watch = (ms: number) => {
    const d = deadline(ms);
    d.addEventListener("abort", () => {
      if (finished) return;
      const quiet = performance.now() - last;
      if (!pending || quiet < timeoutMs) return watch(pending ? timeoutMs - quiet : timeoutMs);
      failure = stalled(host, timeoutMs);
      fail?.(failure); // before the cancel, which may end the pending read as if the body had ended
      body.cancel(failure).catch(() => {});
    });
  };
  watch(timeoutMs);
  return {
    async read() {
      if (failure) throw failure;
      const quiet = new Promise<never>((_, reject) => (fail = reject));
      last = performance.now();
      pending = true;
      try {
        const piece = await Promise.race([body.read(), quiet]);
        pending = false;
        if (failure) throw failure;
        if (!piece) finished = true;
        return piece;
      } catch (e) {
        finished = true;
        throw e;
      }
    },
    cancel(reason) {
      finished = true;
      return body.cancel(reason);
    },
  };
}

/** A streamed answer's body as it comes (stream_body.ts), failing as `idleGuard` says once it falls silent. */
export function watchedBody(res: Response, timeoutMs: number, host: string): BodyReader {
  return idleGuard(bodyReader(res), timeoutMs, host);
}
