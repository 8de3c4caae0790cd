/** `diazo generate ...` (being written). */
import type { AnyCommand, ContextFactory } from "./command.ts";

/** Registers the generate family. */
export function register(_program: AnyCommand, _makeCtx: ContextFactory): void {}
