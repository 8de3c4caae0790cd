/**
 * The text format (`-o text`), as aws's `--output text`: a scalar bare, a list one item per line, a
 * record as its fields separated by tabs, no header. Made for `$(...)`, `cut -f` and `while read`.
 */
import { cellText, columnsOf, isPlainObject } from "./output_cells.ts";
import { visible } from "./sanitize.ts";

/**
 * One field: scalars as they are, structures as compact JSON, nothing for null. Control characters
 * (a tab or line feed in a name among them) are visible escapes, so a line stays one item.
 */
function field(v: unknown): string {
  return visible(cellText(v));
}

/**
 * Renders `value` as text lines; records show `columns` (as the table does) or else every key.
 * The text ends with a newline unless it is empty.
 */
export function renderText(value: unknown, columns?: readonly string[]): string {
  if (value === undefined || value === null) return "";
  const items = Array.isArray(value) ? value : [value];
  const cols = columnsOf(items.filter(isPlainObject), columns);
  const lines = items.map((item) => {
    if (isPlainObject(item)) return cols.map((c) => field(item[c])).join("\t");
    if (Array.isArray(item)) return item.map(field).join("\t");
    return field(item);
  });
  return lines.length > 0 ? lines.join("\n") + "\n" : "";
}
