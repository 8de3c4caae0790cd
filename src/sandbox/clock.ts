/**
 * The sandbox clock: the wall clock moved forward by the control API, so that expiries, job
 * progress and provisioning can be tested without waiting.
 */

import type { ServiceStore } from "./store.ts";

/** How far the sandbox clock was advanced. */
export interface Clock extends ServiceStore {
  /** Added to the wall clock, in milliseconds. */
  offsetMs: number;
}

/** The sandbox clock in milliseconds since the epoch. */
export function nowMs(clock: Pick<Clock, "offsetMs">): number {
  return Date.now() + clock.offsetMs;
}

/** The sandbox clock in whole seconds since the epoch (JWT `exp` units). */
export function nowSeconds(clock: Pick<Clock, "offsetMs">): number {
  return Math.floor(nowMs(clock) / 1000);
}

/** The clock as the control API shows it. */
export function clockView(clock: Clock): { now: number; offset_seconds: number } {
  return { now: nowMs(clock), offset_seconds: clock.offsetMs / 1000 };
}

/** A clock at the wall time. */
export function createClock(): Clock {
  const clock: Clock = {
    offsetMs: 0,
    kept: ["offsetMs"],
    reset: () => void (clock.offsetMs = 0),
    snapshot: () => ({ clock: clockView(clock) }),
  };
  return clock;
}
