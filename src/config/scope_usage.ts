/**
 * The local JSON-lines log of which scopes each command used (state dir, `scope-usage.jsonl`): every
 * run appends to it; only the `auth` reports read it (scope_report.ts).
 */
import { osPath } from "../platform/path.ts";
import { appendText } from "../platform/fs.ts";

/** node:path's functions for this OS, without node:path (platform/path.ts). */
const path = osPath();

/** One command's use of scopes. */
export interface ScopeUse {
  time: string;
  command: string;
  profile: string;
  mode: "2-legged" | "3-legged";
  scopes: string[];
  /** Final exit code of the command. */
  exit: number;
}

/** Path of the log in a state dir. */
export function scopeUsageFile(stateDir: string): string {
  return path.join(stateDir, "scope-usage.jsonl");
}

/** Appends one record (one line; concurrent appends of short lines do not interleave). */
export async function appendScopeUse(stateDir: string, use: ScopeUse): Promise<void> {
  const append = () => appendText(scopeUsageFile(stateDir), JSON.stringify(use) + "\n", 0o600);
  try {
    await append(); // the state dir is there on every run but the first: no mkdir before each record
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    await Deno.mkdir(stateDir, { recursive: true, mode: 0o700 });
    await append();
  }
}
