/**
 * The human table (README.md, "Output"): one column per fact (a computed ISO helper
 * gives way to the platform's epoch field it repeats), sizes and times readable, and the widest
 * columns cut with `…` so that every line fits the terminal. Only tables change values; json,
 * yaml and csv show the result as it is (but for control characters, made visible in tables and csv).
 */
import { cellText, columnsOf, isPlainObject, itemsOf, type Row } from "./output_cells.ts";
import { displayWidth, fitWidths, truncate } from "./output_fit.ts";
import { humanValue, instantOf } from "./output_human.ts";
import { visible } from "./sanitize.ts";

/** How to draw a table. */
export interface TableOptions {
  /** Column order; defaults to the keys in order of appearance. */
  columns?: readonly string[];
  color?: boolean;
  /** Terminal columns to fit in; undefined: no fitting (each cell at most CELL_LIMIT wide). */
  width?: number;
  /** The clock relative times are told from (epoch ms); defaults to now. */
  now?: number;
}

/** The widest a cell is shown when the terminal's width is unknown. */
const CELL_LIMIT = 80;

/** Columns below this are not narrowed further: a table with too many columns overflows instead. */
const MIN_COLUMN = 3;

/**
 * The platform's field that column `name` repeats in every record holding it: an ISO date-time
 * helper (`createdAt`) equal to an epoch-ms field (`createdDate`) of the same record.
 */
function repeatedField(records: readonly Row[], name: string): string | undefined {
  const holding = records.filter((r) => r[name] !== undefined && r[name] !== null);
  if (holding.length === 0 || !holding.every((r) => typeof r[name] === "string")) return undefined;
  const same = (r: Row, key: string) =>
    key !== name && typeof r[key] === "number" && instantOf(r[key]) !== undefined &&
    instantOf(r[key]) === instantOf(r[name]);
  return Object.keys(holding[0]).find((key) => holding.every((r) => same(r, key)));
}

/**
 * `columns` with each computed helper shown as the platform's field it repeats, once: JSON keeps
 * both (README.md, "Output"), a table would show one instant twice.
 * @example
 * const b = { bucketKey: "a", createdDate: 1767225600000, createdAt: "2026-01-01T00:00:00.000Z" };
 * oneColumnPerFact([b], ["bucketKey", "createdAt"]); // ["bucketKey", "createdDate"]
 */
export function oneColumnPerFact(records: readonly Row[], columns: readonly string[]): string[] {
  return [...new Set(columns.map((c) => repeatedField(records, c) ?? c))];
}

/** Cells of `rows` cut to the widths that fit `width`, with the header row first. */
function fitted(head: string[], rows: string[][], width: number | undefined): string[][] {
  if (width === undefined) return [head, ...rows.map((r) => r.map((c) => truncate(c, CELL_LIMIT)))];
  const all = [head, ...rows];
  const natural = head.map((_, i) => Math.max(...all.map((r) => displayWidth(r[i]))));
  // cli-table3 draws "│ a │ b │": one space each side of a cell and a border between and around.
  const widths = fitWidths(natural, width - (3 * head.length + 1), MIN_COLUMN);
  return all.map((r) => r.map((c, i) => truncate(c, widths[i])));
}

/** A cell as a person may see it: platform text with its control characters made visible. */
function shown(v: unknown): string {
  return visible(cellText(v));
}

/** Renders a value as a human table; empty text for no rows. */
export async function renderTable(value: unknown, opts: TableOptions): Promise<string> {
  const { default: Table } = await import("cli-table3");
  const style = { head: opts.color ? ["cyan"] : [], border: [] };
  const now = opts.now ?? Date.now();
  if (isPlainObject(value) && !opts.columns) {
    // One record: a vertical table of field and value, the fields being the first column.
    const keys = oneColumnPerFact([value], Object.keys(value));
    const [, ...pairs] = fitted(
      ["", ""],
      keys.map((k) => [visible(k), shown(humanValue(k, value[k], now))]),
      opts.width,
    );
    const table = new Table({ style });
    for (const [k, v] of pairs) table.push({ [k]: v });
    return table.toString() + "\n";
  }
  const items = itemsOf(value);
  if (items.length === 0) return "";
  const records = items.every(isPlainObject) ? items as Row[] : undefined;
  const columns = records ? oneColumnPerFact(records, columnsOf(records, opts.columns)) : ["value"];
  const cells = records
    ? records.map((r) => columns.map((c) => shown(humanValue(c, r[c], now))))
    : items.map((v) => [shown(v)]);
  const [head, ...rows] = fitted(columns.map((c) => visible(c)), cells, opts.width);
  const table = new Table({ head, style });
  for (const r of rows) table.push(r);
  return table.toString() + "\n";
}
