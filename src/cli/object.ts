/** `diazo object ...` (being written). */
import type { AnyCommand, ContextFactory } from "./command.ts";

/** Registers the object family. */
export function register(_program: AnyCommand, _makeCtx: ContextFactory): void {}
