/**
 * A result value seen as rows and columns, shared by the csv and table renderers: arrays of
 * objects, one object, or scalars, each cell as text.
 */

/** One record of a result. */
export type Row = Record<string, unknown>;

/** True for an object that is neither null nor an array. */
export function isPlainObject(v: unknown): v is Row {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The items of a result: an array's elements, one value, or none for null/undefined. */
export function itemsOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

/** The chosen columns, else every key of the records in order of appearance. */
export function columnsOf(records: readonly Row[], columns?: readonly string[]): string[] {
  return columns ? [...columns] : [...new Set(records.flatMap((o) => Object.keys(o)))];
}

/** Text of one cell: scalars as they are, structures as compact JSON. */
export function cellText(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}
