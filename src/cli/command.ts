/** Types and helpers shared by the command families. */
import type { Command } from "@commander-js/extra-typings";
import type { Ctx } from "./context.ts";
import type { BodySource } from "../ops/body_file.ts";
import { usageError } from "../core/errors.ts";
import { timerNumber, type TimerUnit } from "../core/bounds.ts";

/** A command whose options are not statically known here. */
// deno-lint-ignore no-explicit-any
export type AnyCommand = Command<any, any, any>;

/** Builds the context of the command being run; families call it inside their actions. */
export type ContextFactory = (cmd: AnyCommand) => Ctx;

/** What a family module exports. */
export interface FamilyModule {
  register(program: AnyCommand, makeCtx: ContextFactory): void;
}

/** Adds an "Examples:" section to a command's help. */
export function examples<C extends AnyCommand>(cmd: C, lines: readonly string[]): C {
  cmd.addHelpText("after", "\nExamples:\n" + lines.map((l) => `  $ ${l}`).join("\n") + "\n");
  return cmd;
}

/** An option parser for a number that becomes a timer: positive and within the timer range. */
export function timerOption(name: string, unit: TimerUnit): (value: string) => number {
  return (value: string): number => timerNumber(name, value, unit);
}

/** An option parser accepting a positive number (an integer when `integer`), else a usage error. */
export function positiveNumber(name: string, integer: boolean): (value: string) => number {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
      throw usageError(
        `${name} must be a positive ${integer ? "integer" : "number"}, got '${value}'`,
        `Example: ${name} 10`,
      );
    }
    return n;
  };
}

/** Where a `--from-file` body is read from (`-`: stdin), or undefined without the flag. */
export function bodySource(ctx: Ctx, path: string | undefined): BodySource | undefined {
  return path === undefined ? undefined : { path, cwd: ctx.cwd, readStdin: () => ctx.io.stdin.readText() };
}
