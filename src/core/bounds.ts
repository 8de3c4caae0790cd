/**
 * Numbers that become timers: `setTimeout` fires at once for a delay past 2^31-1 ms, so a
 * `--timeout` of 2147484 s or `1e300` made every request time out immediately. Every such number is
 * checked here where it enters (flag, setting, environment) and refused with its range.
 */
import { usageError } from "./errors.ts";

/** The longest delay a timer can take, milliseconds. */
export const MAX_TIMER_MS = 2_147_483_647;

/** Unit of a timer number as the user writes it. */
export type TimerUnit = "seconds" | "ms";

/** The largest value of a timer number in `unit`. */
export function maxTimerValue(unit: TimerUnit): number {
  return unit === "ms" ? MAX_TIMER_MS : Math.floor(MAX_TIMER_MS / 1000);
}

/**
 * `value` (as given: text or number) checked as a timer in `unit`: finite, above zero (or zero when
 * `allowZero`), at most `maxTimerValue(unit)`; else a usage error naming `name` and the range.
 */
export function timerNumber(
  name: string,
  value: string | number,
  unit: TimerUnit,
  allowZero = false,
): number {
  const n = typeof value === "number" ? value : value.trim() === "" ? NaN : Number(value);
  const max = maxTimerValue(unit);
  if (Number.isFinite(n) && (allowZero ? n >= 0 : n > 0) && n <= max) return n;
  const shown = typeof value === "number" ? String(value) : `'${value}'`;
  throw usageError(
    `${name} must be a ${
      allowZero ? "non-negative" : "positive"
    } number of ${unit} up to ${max}, got ${shown}`,
    `Example: ${example(name, unit === "ms" ? 500 : 30)}`,
  );
}

/** How the user would write a good value of `name`: a flag, an environment variable or a setting. */
function example(name: string, value: number): string {
  if (name.startsWith("--")) return `${name} ${value}`;
  if (name.startsWith("settings.")) return `diazo config set ${name.slice("settings.".length)} ${value}`;
  return `${name}=${value}`;
}
