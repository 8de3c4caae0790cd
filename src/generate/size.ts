/** Byte sizes as people write them: `1024`, `300MB`, `5MiB`, `1.5 GB` (units case-insensitive). */
import { usageError } from "../core/errors.ts";

const UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
};

/** Largest size `parseSize` accepts: a guard against a typo filling the disk. */
export const MAX_SIZE = 64 * 2 ** 30;

const HINT =
  "Give bytes or a number with a unit: KB MB GB (powers of 1000) or KiB MiB GiB (powers of 1024), " +
  "e.g. --size 5MiB, --size 300MB, --size 1024.";

/** Parses a size into a whole number of bytes (1 to MAX_SIZE); anything else is a usage error. */
export function parseSize(input: string, flag = "--size"): number {
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)\s*$/i.exec(input);
  const unit = m ? UNITS[m[2].toLowerCase()] : undefined;
  if (!m || unit === undefined) throw usageError(`invalid size '${input}' for ${flag}`, HINT);
  // A fraction of a byte is refused: "1.1KiB" is 1126.4 bytes.
  const bytes = Number(m[1]) * unit;
  if (!Number.isFinite(bytes) || bytes < 1) {
    throw usageError(`${flag} must be at least 1 byte, got '${input}'`, HINT);
  }
  if (Math.abs(bytes - Math.round(bytes)) > 1e-6) {
    throw usageError(`${flag} '${input}' is not a whole number of bytes (${bytes})`, HINT);
  }
  if (bytes > MAX_SIZE) {
    throw usageError(`${flag} '${input}' is larger than the limit of 64 GiB`, "Generate a smaller file.");
  }
  return Math.round(bytes);
}

/** A byte count for people: "5 MiB", "300 MB", "1023 B". */
export function formatSize(bytes: number): string {
  for (const [unit, factor] of [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10]] as const) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor} ${unit}`;
  }
  for (const [unit, factor] of [["GB", 1e9], ["MB", 1e6], ["KB", 1e3]] as const) {
    if (bytes >= factor && bytes % factor === 0) return `${bytes / factor} ${unit}`;
  }
  return `${bytes} B`;
}
