/**
 * The resumable state of a bulk `admin user import`, kept in the state dir: which rows of one CSV
 * file were already added to one account. Written atomically after every row, so that an
 * interrupted import (a failure, Ctrl-C, a killed process) continues with no duplicate and no loss.
 */
import path from "node:path";
import { createHash } from "node:crypto";
import { readTextIfExists } from "../../platform/fs.ts";
import { writeFileAtomic } from "../../platform/fs_write.ts";

/**
 * What identifies one import: the same file (its absolute path) into the same account and region
 * on the same platform. Rows are known by e-mail, so a file fixed between runs continues too.
 */
export interface ImportIdentity {
  baseUrl: string;
  account: string;
  region: string;
  file: string;
}

/** What became of one row. */
export interface ImportedRow {
  /** The account user's id. */
  id?: string;
  /** created: added by this import; existed: the account already had the e-mail (409). */
  result: "created" | "existed";
  at: string;
}

/** The state of one import. */
export interface ImportState extends ImportIdentity {
  total: number;
  /** Done rows by lower-cased e-mail. */
  rows: Record<string, ImportedRow>;
}

/** The file holding the state of `id`. */
export function importStatePath(stateDir: string, id: ImportIdentity): string {
  const digest = createHash("sha256")
    .update([id.baseUrl, id.account, id.region, id.file].join("\n"))
    .digest("hex")
    .slice(0, 32);
  return path.join(stateDir, "admin-imports", `${digest}.json`);
}

/** The state of an earlier run of the same import, if one is kept and readable. */
export async function readImportState(
  stateDir: string,
  id: ImportIdentity,
): Promise<ImportState | undefined> {
  const text = await readTextIfExists(importStatePath(stateDir, id));
  if (text === undefined) return undefined;
  try {
    const s = JSON.parse(text) as ImportState;
    const same = s.baseUrl === id.baseUrl && s.account === id.account && s.region === id.region &&
      s.file === id.file;
    return same && s.rows && typeof s.rows === "object" ? s : undefined;
  } catch {
    return undefined; // a damaged state only costs a 409 per row already added
  }
}

/** Saves the state (atomically: a crash leaves the previous or the new one). */
export async function writeImportState(stateDir: string, state: ImportState): Promise<void> {
  await writeFileAtomic(importStatePath(stateDir, state), JSON.stringify(state), 0o600);
}
