/**
 * Claiming a data dir given to a sandbox (`diazo sandbox --data-dir` or `--data`): it must be new,
 * empty, or one a sandbox wrote (it holds the marker file, or only what a sandbox writes there).
 * Anything else is refused before a file is written, since a reset or a restore replaces the
 * sandbox's own entries in it.
 */

import { join } from "node:path";
import { usageError } from "../core/errors.ts";
import { FILE_DIRS, SNAPSHOTS_DIR, STATE_DIR } from "./snapshots.ts";

/** The file that marks a directory as a sandbox's data dir. */
export const DATA_DIR_MARKER = ".diazo-sandbox";

/** What a sandbox writes at the top of its data dir (a data dir of an earlier version lacks the marker). */
const SANDBOX_ENTRIES = new Set([DATA_DIR_MARKER, STATE_DIR, SNAPSHOTS_DIR, ...FILE_DIRS]);

/** Entries a new file system puts in a directory it mounts; a volume holding only them is empty. */
const FILE_SYSTEM_ENTRIES = new Set(["lost+found"]);

const MARKER_TEXT = "This directory holds the state of a diazo sandbox (`diazo sandbox --data-dir`).\n";

async function entriesOf(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names.sort();
}

/**
 * Creates `dir` when it does not exist, and claims it for a sandbox: writes the marker when it is
 * empty or holds only a sandbox's entries; refuses (a usage error) a directory holding anything else.
 */
export async function claimDataDir(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  const names = await entriesOf(dir);
  if (names.includes(DATA_DIR_MARKER)) return;
  const foreign = names.filter((n) => !SANDBOX_ENTRIES.has(n) && !FILE_SYSTEM_ENTRIES.has(n));
  if (foreign.length) {
    const shown = foreign.slice(0, 3).map((n) => `'${n}'`).join(", ") + (foreign.length > 3 ? ", …" : "");
    throw usageError(
      `the data dir ${dir} is not empty and is not a sandbox's (it holds ${shown})`,
      "Give `diazo sandbox --data-dir` a new or empty directory, or one a sandbox wrote before.",
    );
  }
  await Deno.writeTextFile(join(dir, DATA_DIR_MARKER), MARKER_TEXT);
}
