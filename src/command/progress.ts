/**
 * Progress on stderr (not with --quiet): a bar on a terminal; elsewhere (a CI log, a file) one line
 * every few seconds with what is done of the total and the rate, so a long job is never silent.
 */
import { displayWidth, truncate } from "../core/output_fit.ts";
import type { Ctx } from "./context.ts";
import type { Progress, StartProgress } from "../transfer/progress.ts";

const NONE: Progress = { update() {}, stop() {} };

/** The bar's figures after the bar itself: percentage, MiB done of all, speed and time left. */
const FIGURES = "{percentage}% {done}/{all} MiB {speed} MiB/s eta {eta_formatted}";

/** The widest the figures read for a transfer of `all` MiB: every field at its longest. */
function widestFigures(all: string): string {
  return FIGURES.replace("{percentage}", "100").replace("{done}", all).replace("{all}", all)
    .replace("{speed}", "9999.9").replace("{eta_formatted}", "999h59m");
}

/** A bar is not drawn narrower than this; the label is cut first. */
const MIN_BAR = 10;
/** The label is not cut shorter than this. */
const MIN_LABEL = 12;

/**
 * The label and bar width that keep the whole line (figures and ETA included) within `columns`
 * (one column spare: a line that fills the terminal wraps in some). Unknown width: as cli-progress
 * draws it by default.
 * @example barLayout("a-long-key.ifc", 80, "300.0") // { label: "a-long-key.ifc", size: 20 }
 */
export function barLayout(
  label: string,
  columns: number | undefined,
  all: string,
): { label: string; size: number } {
  if (columns === undefined) return { label, size: 40 };
  const fixed = displayWidth(widestFigures(all)) + 4; // " [" + "] "
  const room = columns - 1 - fixed;
  const size = Math.min(40, room - displayWidth(label));
  if (size >= MIN_BAR) return { label, size };
  if (room - MIN_BAR >= MIN_LABEL) return { label: truncate(label, room - MIN_BAR), size: MIN_BAR };
  // Very narrow: a short label and what is left for the bar; the figures stay whole.
  const cut = truncate(label, Math.max(1, Math.min(MIN_LABEL, room - 3)));
  return { label: cut, size: Math.max(1, room - displayWidth(cut)) };
}

/** Starts a byte progress bar per transfer (what the ops' `progress` parameter takes). */
export function byteBar(ctx: Ctx): StartProgress {
  return (label, total) => byteProgress(ctx, label, total);
}

/** A progress bar for `total` bytes labelled `label`. */
export async function byteProgress(ctx: Ctx, label: string, total: number): Promise<Progress> {
  if (ctx.flags.quiet) return NONE;
  if (!ctx.io.stderr.isTerminal) return progressLines(ctx, label, total, "bytes");
  const { default: cliProgress } = await import("cli-progress");
  const mib = (n: number) => (n / 1048576).toFixed(1);
  const layout = barLayout(label, ctx.io.stderr.columns, mib(total));
  const bar = new cliProgress.SingleBar({
    format: `${layout.label.replaceAll("{", "(").replaceAll("}", ")")} [{bar}] ${FIGURES}`,
    barsize: layout.size,
    hideCursor: true,
    clearOnComplete: true,
    stream: (await import("node:process")).stderr,
  }, cliProgress.Presets.shades_classic);
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

/** How often a progress line is written where there is no terminal, ms (DIAZO_PROGRESS_EVERY_MS for tests). */
export const LINE_EVERY_MS = 5000;

/**
 * Progress as lines (stderr is not a terminal): `label: done/total (pct%), rate` every
 * LINE_EVERY_MS while work goes on, and nothing for a job shorter than that. `unit` is "bytes"
 * (shown in MiB) or the name of what is counted ("users").
 */
export function progressLines(ctx: Ctx, label: string, total: number, unit: string): Progress {
  if (ctx.flags.quiet) return NONE;
  const every = Number(ctx.env.DIAZO_PROGRESS_EVERY_MS) > 0
    ? Number(ctx.env.DIAZO_PROGRESS_EVERY_MS)
    : LINE_EVERY_MS;
  const started = performance.now();
  let last = started;
  let all = total;
  const bytes = unit === "bytes";
  const amount = (n: number) => (bytes ? (n / 1048576).toFixed(1) : String(n));
  return {
    update(done, t) {
      if (t !== undefined) all = t;
      const now = performance.now();
      if (now - last < every) return;
      last = now;
      const seconds = (now - started) / 1000;
      const pct = all > 0 ? ` (${Math.floor((done / all) * 100)}%)` : "";
      const rate = seconds > 0 ? done / seconds : 0;
      const shownRate = bytes ? `${(rate / 1048576).toFixed(1)} MiB/s` : `${rate.toFixed(1)} ${unit}/s`;
      ctx.info(`${label}: ${amount(done)}/${amount(all)}${bytes ? " MiB" : ` ${unit}`}${pct}, ${shownRate}`);
    },
    stop() {},
  };
}
