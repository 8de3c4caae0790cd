/** Data management families `hub`, `project`, `folder`, `item` (placeholder until they are built). */
import type { AnyCommand, ContextFactory } from "./command.ts";

/** Registers `hub`. */
export function registerHub(program: AnyCommand, _makeCtx: ContextFactory): void {
  program.command("hub").description("(not built yet)");
}

/** Registers `project`. */
export function registerProject(program: AnyCommand, _makeCtx: ContextFactory): void {
  program.command("project").description("(not built yet)");
}

/** Registers `folder`. */
export function registerFolder(program: AnyCommand, _makeCtx: ContextFactory): void {
  program.command("folder").description("(not built yet)");
}

/** Registers `item`. */
export function registerItem(program: AnyCommand, _makeCtx: ContextFactory): void {
  program.command("item").description("(not built yet)");
}
