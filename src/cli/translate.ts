/** `diazo translate ...` (being written). */
import type { AnyCommand, ContextFactory } from "./command.ts";

/** Registers the translate family. */
export function register(_program: AnyCommand, _makeCtx: ContextFactory): void {}
