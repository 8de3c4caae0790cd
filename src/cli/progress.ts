/** A byte progress bar on stderr, shown only when stderr is a terminal and not with --quiet. */
import type { Ctx } from "./context.ts";
import type { Progress, StartProgress } from "../ops/progress.ts";

const NONE: Progress = { update() {}, stop() {} };

/** Starts a byte progress bar per transfer (what the ops' `progress` parameter takes). */
export function byteBar(ctx: Ctx): StartProgress {
  return (label, total) => byteProgress(ctx, label, total);
}

/** A progress bar for `total` bytes labelled `label`. */
export async function byteProgress(ctx: Ctx, label: string, total: number): Promise<Progress> {
  if (!ctx.io.stderr.isTerminal || ctx.flags.quiet) return NONE;
  const { default: cliProgress } = await import("cli-progress");
  const bar = new cliProgress.SingleBar({
    format: `${label} [{bar}] {percentage}% {done}/{all} MiB {speed} MiB/s eta {eta_formatted}`,
    hideCursor: true,
    clearOnComplete: true,
    stream: (await import("node:process")).stderr,
  }, cliProgress.Presets.shades_classic);
  const mib = (n: number) => (n / 1048576).toFixed(1);
  const started = performance.now();
  let all = total;
  bar.start(Math.max(total, 1), 0, { done: "0.0", all: mib(total), speed: "0.0" });
  return {
    update(done, t) {
      if (t !== undefined && t !== all) bar.setTotal(Math.max(all = t, 1));
      const seconds = (performance.now() - started) / 1000;
      bar.update(done, { done: mib(done), all: mib(all), speed: seconds > 0 ? mib(done / seconds) : "0.0" });
    },
    stop: () => bar.stop(),
  };
}
