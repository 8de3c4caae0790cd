/**
 * A run whose reader went away (`diazo ... | head -c1`): how it is recognised and the exit code it
 * ends with. Apart from run_common.ts so that the program's `--help` (front/root.ts) uses it without
 * loading the run's modules.
 */

/**
 * The exit code of a run whose reader went away: 128 + SIGPIPE, what `cat`, `git` and Go programs
 * end with there, so that `set -o pipefail` sees the cut, and nothing printed.
 */
export const CLOSED_OUTPUT_EXIT = 141;

/** True when `e` (or an error it wraps) is a write to a pipe whose reader has closed it. */
export function isClosedOutput(e: unknown): boolean {
  for (let c: unknown = e, depth = 0; c && depth < 8; c = (c as Error).cause, depth++) {
    if (c instanceof Deno.errors.BrokenPipe) return true;
  }
  return false;
}
