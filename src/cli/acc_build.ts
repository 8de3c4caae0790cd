/** `diazo acc asset|submittal|checklist ...` (issue 15). */
import type { AnyCommand, ContextFactory } from "./command.ts";

/** Registers `acc asset`, `acc submittal` and `acc checklist`. */
export function registerAccBuild(_acc: AnyCommand, _makeCtx: ContextFactory): void {
}
