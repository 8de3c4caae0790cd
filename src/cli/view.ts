/** `diazo view ...` (being written). */
import type { AnyCommand, ContextFactory } from "./command.ts";

/** Registers the view family. */
export function register(_program: AnyCommand, _makeCtx: ContextFactory): void {}
