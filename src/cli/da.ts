/** The `da` family (placeholder until it is built). */
import type { AnyCommand, ContextFactory } from "./command.ts";

/** Registers the family's commands. */
export function register(program: AnyCommand, _makeCtx: ContextFactory): void {
  program.command("da").description("(not built yet)");
}
