/**
 * The clock of a translation: a derivative job is `pending` for the first tenth of its duration,
 * then `inprogress` ("NN% complete") while its time runs, then `success` or `failed` once both its
 * time is up and its work (reading the design, writing the outputs) is done.
 */

import type { DerivativeJob, Translation } from "./store.ts";

/** Status values of the platform. */
export type JobStatus = "pending" | "inprogress" | "success" | "failed";

/** Where a derivative (or a whole manifest) stands at a moment. */
export interface JobState {
  status: JobStatus;
  /** `"NN% complete"` or `"complete"`. */
  progress: string;
  /** 0..100. */
  percent: number;
}

const PENDING_SHARE = 0.1;

/** The state of one derivative job at sandbox time `now` (ms). */
export function derivativeState(job: DerivativeJob, now: number): JobState {
  const elapsed = now - job.createdMs;
  const d = job.durationMs;
  if (d > 0 && elapsed < d * PENDING_SHARE) return { status: "pending", progress: "0% complete", percent: 0 };
  if (elapsed < d || !job.outcome) {
    // Time is up but the work is not: hold just short of done.
    const percent = d > 0 ? Math.min(99, Math.max(1, Math.floor((elapsed / d) * 100))) : 99;
    return { status: "inprogress", progress: `${percent}% complete`, percent };
  }
  return { status: job.outcome.ok ? "success" : "failed", progress: "complete", percent: 100 };
}

/** The overall state of a manifest: pending while all are, in progress while any is, then failed if any failed. */
export function manifestState(tr: Translation, now: number): JobState {
  const states = tr.derivatives.map((d) => derivativeState(d, now));
  if (states.length === 0) return { status: "success", progress: "complete", percent: 100 };
  if (states.every((s) => s.status === "pending")) {
    return { status: "pending", progress: "0% complete", percent: 0 };
  }
  const running = states.filter((s) => s.status === "pending" || s.status === "inprogress");
  if (running.length > 0) {
    const percent = Math.floor(states.reduce((n, s) => n + s.percent, 0) / states.length);
    const shown = Math.min(99, percent);
    return { status: "inprogress", progress: `${shown}% complete`, percent: shown };
  }
  const failed = states.some((s) => s.status === "failed");
  return { status: failed ? "failed" : "success", progress: "complete", percent: 100 };
}

/** True when the job has finished successfully at `now`. */
export function succeeded(job: DerivativeJob, now: number): boolean {
  return derivativeState(job, now).status === "success";
}

/** The successful derivative of `type` at `now`, if any. */
export function successfulDerivative(
  tr: Translation,
  now: number,
  ...types: string[]
): DerivativeJob | undefined {
  return tr.derivatives.find((d) => types.includes(d.outputType) && succeeded(d, now));
}
