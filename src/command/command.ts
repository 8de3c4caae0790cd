/** Option parsers and helpers shared by the command families' declarations (decl.ts). */
import type { Ctx } from "./context.ts";
import { typedParser } from "./decl.ts";
import type { BodySource } from "../session/body_file.ts";
import { usageError } from "../core/errors.ts";
import { timerNumber, type TimerUnit } from "../core/bounds.ts";

/** An option parser for a number that becomes a timer: positive and within the timer range. */
export function timerOption(name: string, unit: TimerUnit): (value: string) => number {
  return (value: string): number => timerNumber(name, value, unit);
}

/** An option parser accepting a positive number (an integer when `integer`), else a usage error. */
export function positiveNumber(name: string, integer: boolean): (value: string) => number {
  return typedParser((value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
      throw usageError(
        `${name} must be a positive ${integer ? "integer" : "number"}, got '${value}'`,
        `Example: ${name} 10`,
      );
    }
    return n;
  }, integer ? { type: "integer", min: 1 } : { type: "number" });
}

/** Where a `--from-file` body is read from (`-`: stdin), or undefined without the flag. */
export function bodySource(ctx: Ctx, path: string | undefined): BodySource | undefined {
  return path === undefined ? undefined : { path, cwd: ctx.cwd, readStdin: () => ctx.io.stdin.readText() };
}

/**
 * The parser of a repeatable option: each value (read by `parse`; with `commas`, each comma-separated
 * part of it) is added to the values given before, e.g. `--var a=1 --var b=2` -> ["a=1", "b=2"].
 */
export function collect<T = string>(
  parse: (value: string) => T = (v) => v as T,
  commas = false,
): (value: string, previous?: T[]) => T[] {
  return typedParser((value: string, previous: T[] = []) => {
    const parts = commas ? value.split(",").map((v) => v.trim()).filter(Boolean) : [value];
    return [...previous, ...parts.map(parse)];
  }, { type: "list" });
}

/** An option parser for a TCP port on this machine: a whole number 0-65535 (0: any free port). */
export function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65535) {
    throw usageError(`--port must be 0-65535, got '${value}'`, "Use --port 0 for any free port.");
  }
  return n;
}
