/**
 * A streamed answer's body (a download, `diazo api`) watched for silence: when no byte arrives for
 * the attempt's timeout, the body is cancelled and the read fails with a timeout error that says so.
 * One timer per timeout period, not one per chunk (core/deadline.ts: no Node timers on a hot path).
 */
import { DiazoError } from "../core/errors.ts";
import { deadline } from "../core/deadline.ts";

/** The error of a body in which nothing arrived for `timeoutMs`. */
export function stalled(host: string, timeoutMs: number): DiazoError {
  const seconds = timeoutMs / 1000;
  return new DiazoError("timeout", {
    params: { seconds },
    message: `The answer from ${host} stalled: no data arrived for ${seconds} s`,
  });
}

/**
 * `body` as a stream that fails with `stalled(host, timeoutMs)` once no chunk has arrived for
 * `timeoutMs` (the read of the body is then cancelled, which closes its connection).
 */
export function idleGuard(
  body: ReadableStream<Uint8Array>,
  timeoutMs: number,
  host: string,
): ReadableStream<Uint8Array> {
  if (!Number.isFinite(timeoutMs)) return body;
  const reader = body.getReader();
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
      fail?.(failure); // before the cancel, which ends the pending read as if the body had ended
      reader.cancel(failure).catch(() => {});
    });
  };
  watch(timeoutMs);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const quiet = new Promise<never>((_, reject) => (fail = reject));
      last = performance.now();
      pending = true;
      try {
        const { done, value } = await Promise.race([reader.read(), quiet]);
        pending = false;
        if (failure) throw failure;
        if (done) {
          finished = true;
          controller.close();
        } else controller.enqueue(value);
      } catch (e) {
        finished = true;
        controller.error(e);
      }
    },
    cancel(reason) {
      finished = true;
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
