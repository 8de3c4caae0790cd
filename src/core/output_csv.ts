/**
 * The csv format (README.md, "Output"): rows and columns of core/output_cells.ts as RFC 4180 text.
 * Loaded only when csv is rendered (core/output.ts).
 */
import { cellText, columnsOf, isPlainObject, itemsOf, type Row } from "./output_cells.ts";
import { visible } from "./sanitize.ts";

/** Turns a value into rows and columns: arrays of objects, one object, or scalars. */
export function tabulate(
  value: unknown,
  columns?: readonly string[],
): { columns: string[]; rows: unknown[][] } {
  const items = itemsOf(value);
  if (items.length > 0 && items.every(isPlainObject)) {
    const cols = columnsOf(items as Row[], columns);
    return { columns: cols, rows: items.map((o) => cols.map((c) => (o as Row)[c])) };
  }
  return { columns: ["value"], rows: items.map((v) => [v]) };
}

/**
 * RFC 4180 csv with a header line. csv is opened in terminals and spreadsheets alike, so control
 * characters from the platform are shown as visible escapes here too (json/yaml keep them exact),
 * and a cell a spreadsheet would take for a formula is made inert.
 */
export function renderCsv(value: unknown, columns?: readonly string[]): string {
  const t = tabulate(value, columns);
  if (t.rows.length === 0 && !columns) return "";
  const lines = [t.columns.map((c) => csvField(visible(c))).join(",")];
  for (const r of t.rows) lines.push(r.map((c) => csvField(visible(inert(c)))).join(","));
  return lines.join("\r\n") + "\r\n";
}

/**
 * A cell's text that a spreadsheet will not run: text beginning with `=`, `+`, `-`, `@`, a tab or a
 * CR is a formula to Excel and LibreOffice (`=HYPERLINK(...)` from a user's name), so it gets a
 * leading `'`, as OWASP advises. Numbers stay numbers.
 */
function inert(c: unknown): string {
  const text = cellText(c);
  return typeof c === "string" && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
