/**
 * The human table (README "Output"), drawn as gh draws its own: a header, a rule under it and one
 * line per row, no borders. One column per fact (a computed ISO helper gives way to the platform's
 * epoch field it repeats), sizes and times readable, nothing shown as JSON. On a terminal the
 * table fits its width without cutting an identifier (output_layout.ts) and says which columns it
 * hid; into a pipe (`plain`) it is tab-separated lines with the raw values. json, yaml and csv
 * never pass here.
 */
import { columnsOf, isPlainObject, itemsOf, type Row } from "./output_cells.ts";
import { columnRoles } from "./output_columns.ts";
import { displayWidth, truncate } from "./output_fit.ts";
import { humanValue, instantOf } from "./output_human.ts";
import { layoutColumns } from "./output_layout.ts";
import { visible } from "./sanitize.ts";

/** How to draw a table. */
export interface TableOptions {
  /** Column order; defaults to the keys in order of appearance. */
  columns?: readonly string[];
  /** Columns that give way before the others on a narrow terminal (the command's hint). */
  lowPriority?: readonly string[];
  color?: boolean;
  /** Terminal columns to fit in; undefined: no fitting (free text at most CELL_LIMIT wide). */
  width?: number;
  /** Every column, nothing cut (`--wide`). */
  wide?: boolean;
  /** Not a terminal: tab-separated lines of raw values, a header first. */
  plain?: boolean;
  /** The clock relative times are told from (epoch ms); defaults to now. */
  now?: number;
}

/** The widest free text is shown when the terminal's width is unknown. */
const CELL_LIMIT = 80;

/** Spaces between two columns. */
const GAP = 2;

const BOLD = "\x1b[1m";
const DIM = "\x1b[2m";
const RESET = "\x1b[0m";

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
 * both (README "Output"), a table would show one instant twice.
 * @example
 * const b = { bucketKey: "a", createdDate: 1767225600000, createdAt: "2026-01-01T00:00:00.000Z" };
 * oneColumnPerFact([b], ["bucketKey", "createdAt"]); // ["bucketKey", "createdDate"]
 */
export function oneColumnPerFact(records: readonly Row[], columns: readonly string[]): string[] {
  return [...new Set(columns.map((c) => repeatedField(records, c) ?? c))];
}

/**
 * A value as one cell a person reads, never JSON: scalars as they are, a list of scalars joined
 * with commas, a record as its scalar fields (`id: X, type: user`), a list of records as a count.
 * Control characters are shown as visible escapes.
 */
export function humanCell(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (Array.isArray(v)) {
    if (v.every((x) => !isPlainObject(x) && !Array.isArray(x))) return v.map(humanCell).join(", ");
    return `${v.length} item${v.length === 1 ? "" : "s"}`;
  }
  if (isPlainObject(v)) {
    return Object.entries(v).filter(([, x]) => x !== null && x !== undefined && !isPlainObject(x))
      .map(([k, x]) => `${visible(k)}: ${humanCell(x)}`).join(", ");
  }
  return visible(String(v));
}

/** `text` padded with spaces to `width` display columns. */
function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/** A list's header and cells: records by their columns (one per fact), anything else as `value`. */
function grid(value: unknown, opts: TableOptions): { head: string[]; rows: unknown[][] } | undefined {
  const items = itemsOf(value);
  if (items.length === 0) return undefined;
  if (!items.every(isPlainObject)) return { head: ["value"], rows: items.map((v) => [v]) };
  const records = items as Row[];
  const head = oneColumnPerFact(records, columnsOf(records, opts.columns));
  return { head, rows: records.map((r) => head.map((c) => r[c])) };
}

/**
 * Lines of a list drawn for a terminal: identifiers whole, low-priority columns hidden first on
 * a narrow one (a footer names them), then free text cut with `…`. `indent` spaces lead each line.
 */
export function listLines(value: unknown, opts: TableOptions, indent = 0): string[] {
  const g = grid(value, opts);
  if (!g) return [];
  const now = opts.now ?? Date.now();
  const head = g.head.map((h) => visible(h));
  const cells = g.rows.map((r) => r.map((v, i) => humanCell(humanValue(g.head[i], v, now))));
  const roles = columnRoles(g.head, cells, opts.lowPriority);
  const cols = head.map((h, i) => ({
    natural: Math.max(displayWidth(h), ...cells.map((r) => displayWidth(r[i]))),
    header: displayWidth(h),
    role: roles[i],
  }));
  const width = opts.width === undefined ? undefined : Math.max(1, opts.width - indent);
  const layout = layoutColumns(cols, width, GAP, opts.wide);
  const cap = (i: number, k: number) =>
    opts.width === undefined && !opts.wide && !roles[i].identifier ? CELL_LIMIT : layout.widths[k];
  const line = (r: string[], style = "") =>
    " ".repeat(indent) + layout.shown.map((i, k) => {
      const text = roles[i].identifier ? r[i] : truncate(r[i], cap(i, k));
      const shown = k === layout.shown.length - 1 ? text : pad(text, cap(i, k));
      return style && opts.color ? `${style}${shown}${RESET}` : shown;
    }).join(" ".repeat(GAP)).trimEnd();
  const rule = " ".repeat(indent) +
    layout.shown.map((i, k) => "─".repeat(Math.min(cols[i].natural, cap(i, k))))
      .join(" ".repeat(GAP));
  const lines = [line(head, BOLD), rule, ...cells.map((r) => line(r))];
  if (layout.hidden.length > 0) {
    const names = layout.hidden.map((i) => head[i]).join(", ");
    const n = layout.hidden.length;
    const footer = `${n} column${n === 1 ? "" : "s"} hidden (${names}): --wide shows all`;
    lines.push(" ".repeat(indent) + (opts.color ? `${DIM}${footer}${RESET}` : footer));
  }
  return lines;
}

/** A list as tab-separated lines of raw values (for a pipe), a header line first. */
function plainLines(value: unknown, opts: TableOptions): string[] {
  const g = grid(value, opts);
  if (!g) return [];
  return [g.head, ...g.rows.map((r) => r.map(humanCell))].map((r) => r.map((c) => visible(c)).join("\t"));
}

/** Renders a list as a human table (or tab-separated lines into a pipe); empty text for no rows. */
export function renderTable(value: unknown, opts: TableOptions): string {
  const lines = opts.plain ? plainLines(value, opts) : listLines(value, opts);
  return lines.length ? lines.join("\n") + "\n" : "";
}
