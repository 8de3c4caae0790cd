/** Byte progress of an op (transfer/progress.ts) as the tool server's progress notifications. */
import type { StartProgress } from "../transfer/progress.ts";
import type { ToolContext } from "./tool.ts";

/** A progress display that sends `notifications/progress` when the client asked for them (else nothing). */
export function toolProgress(ctx: ToolContext): StartProgress {
  return (label, total) => {
    let shown = -1;
    return Promise.resolve({
      update(done: number, of?: number) {
        const whole = of ?? total;
        // At most one notification per percent: a large transfer is not thousands of messages.
        const percent = whole > 0 ? Math.floor((done / whole) * 100) : 0;
        if (percent === shown) return;
        shown = percent;
        ctx.progress?.(done, whole || undefined, `${label}: ${done} of ${whole} bytes`);
      },
      stop() {},
    });
  };
}
