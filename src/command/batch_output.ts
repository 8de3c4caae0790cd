/**
 * How a batch's outcomes are shown (README "Output"): on a terminal, its summary line and one line
 * per failure (a 200-file upload is not a 200-row table); piped or with `-o json`, every row,
 * the summary on stderr. The worst failure's exit code is the run's.
 */
import type { Ctx } from "./context.ts";

/** One outcome of a batch: ok, or failed with its error and exit code. */
export type Outcome = { status: string; error?: string; exitCode?: number };

/** Emits a batch's outcomes; `name` says which item a failure was (its file or key). */
export async function emitBatch<T extends Outcome>(
  ctx: Ctx,
  outcomes: readonly T[],
  summary: string,
  columns: readonly string[],
  name: (o: T) => string,
): Promise<void> {
  const failed = outcomes.filter((o) => o.status === "failed");
  for (const o of failed) ctx.setExitCode(o.exitCode ?? 1);
  await ctx.emit(outcomes, {
    columns,
    action: summary,
    failures: failed.map((o) => `failed: ${name(o)}: ${o.error}`),
  });
}
