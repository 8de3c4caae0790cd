/**
 * Readable sizes and times for table cells (README.md, "Output"): a person reads `64.0 MiB` and
 * `3 minutes ago`, while json/yaml/csv keep the platform's raw numbers and strings. Which fields
 * hold bytes or instants is known only by name, and the value is never trusted to match: anything
 * that is not a plausible byte count or instant is shown as it came.
 */

/** Field names that hold a byte count, besides `...Size`/`...Bytes` (`objectSize`, `storageSize`). */
const BYTE_FIELDS = new Set(["size", "length", "bytes"]);

/** Names ending like a byte count but counting something else. */
const NOT_BYTES = new Set(["pageSize", "batchSize", "chunkCount"]);

/** Field names that hold an instant: `createdDate`, `lastModified`, `createdAt`, `expires_at`, ... */
const DATE_NAME =
  /(?:At|Date|Time|Modified|_at|_date|_time)$|^(?:expiration|timestamp|created|updated|modified)$/;

/** Epoch milliseconds before this (1973-03-03) are more likely seconds or counts than instants. */
const MIN_EPOCH_MS = 1e11;
/** Epoch milliseconds after this (year 9999) are not dates a person wants to read. */
const MAX_EPOCH_MS = 253402300799999;
/** The largest time a `Date` holds, in milliseconds either side of the epoch. */
const MAX_TIME_MS = 8.64e15;

/** A date with a time, as the platform writes them: `2026-03-01T12:00:00Z`, `...00.000+01:00`. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/** Past this distance from now a relative time reads worse than the date. */
const RELATIVE_LIMIT_MS = 30 * 24 * 3600 * 1000;

/** True when a field of this name holds a byte count. */
export function isByteField(name: string): boolean {
  if (NOT_BYTES.has(name)) return false;
  return BYTE_FIELDS.has(name) || /[a-z](?:Size|Bytes)$/.test(name);
}

/** True when a field of this name holds an instant. */
export function isDateField(name: string): boolean {
  return DATE_NAME.test(name);
}

/** The instant a value holds, as epoch ms: epoch-ms numbers and ISO date-times; else undefined. */
export function instantOf(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isFinite(value) && value >= MIN_EPOCH_MS && value <= MAX_EPOCH_MS ? value : undefined;
  }
  if (typeof value !== "string" || !ISO_DATE_TIME.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

const BYTE_UNITS = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

/**
 * A byte count in binary units with one decimal; below 1 KiB, whole bytes.
 * @example humanBytes(67108864) // "64.0 MiB"
 */
export function humanBytes(n: number): string {
  if (Math.abs(n) < 1024) return `${n} B`;
  let v = n / 1024;
  let unit = 0;
  // Past 1023.95 the one-decimal text would read "1024.0": the next unit reads better.
  while (Math.abs(v) >= 1023.95 && unit < BYTE_UNITS.length - 1) {
    v /= 1024;
    unit++;
  }
  return `${v.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

const TIME_UNITS: readonly [string, number][] = [
  ["day", 24 * 3600 * 1000],
  ["hour", 3600 * 1000],
  ["minute", 60 * 1000],
  ["second", 1000],
];

/**
 * An instant relative to `now` ("3 minutes ago", "in 2 hours"); 30 days away or more, its UTC
 * date ("2025-01-31"), the exact instant staying in json/yaml/csv.
 * @example humanTime(now - 180_000, now) // "3 minutes ago"
 */
export function humanTime(ms: number, now: number): string {
  const diff = ms - now;
  const away = Math.abs(diff);
  if (away >= RELATIVE_LIMIT_MS) return new Date(ms).toISOString().slice(0, 10);
  if (away < 5000) return "just now";
  const [unit, size] = TIME_UNITS.find(([, size]) => away >= size)!;
  const count = Math.floor(away / size);
  const text = `${count} ${unit}${count === 1 ? "" : "s"}`;
  return diff < 0 ? `${text} ago` : `in ${text}`;
}

/** The value of one table cell of column `name`, readable when the name and the value agree. */
export function humanValue(name: string, value: unknown, now: number): unknown {
  if (isByteField(name) && typeof value === "number" && Number.isSafeInteger(value) && value >= 0) {
    return humanBytes(value);
  }
  if (isDateField(name)) {
    const ms = instantOf(value);
    if (ms !== undefined) return humanTime(ms, now);
  }
  return value;
}

/**
 * The ISO text of a platform epoch-ms field, for the computed helper shown beside it in JSON
 * (`createdAt` beside `createdDate`); undefined when the field holds something else, so that a
 * surprising value never ends a command with "Invalid time value".
 */
export function isoOfEpochMs(value: unknown): string | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || Math.abs(value) > MAX_TIME_MS) {
    return undefined;
  }
  return new Date(value).toISOString();
}
