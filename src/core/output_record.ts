/**
 * One record as a person reads it (README "Output"): a `field  value` line per field, a nested
 * record as its own indented lines, a nested list of records as a small indented table, and a
 * list of scalars joined with commas; never JSON. Into a pipe the same record is tab-separated
 * `path<TAB>value` lines (`derivatives[0].name`), one per scalar, with the raw values.
 */
import { isPlainObject, type Row } from "./output_cells.ts";
import { displayWidth } from "./output_fit.ts";
import { humanValue } from "./output_human.ts";
import { humanCell, listLines, oneColumnPerFact, type TableOptions } from "./output_table.ts";
import { visible } from "./sanitize.ts";

/** Spaces a nested record or table is indented by, under its field's name. */
const NEST = 2;

/** True for a value shown on lines of its own under its field: a non-empty record or a list holding records. */
function nested(v: unknown): boolean {
  if (isPlainObject(v)) return Object.keys(v).length > 0;
  return Array.isArray(v) && v.some((x) => isPlainObject(x) || Array.isArray(x));
}

/** The fields of `rec` to show: the chosen columns (or every field), a repeated helper once. */
function fieldsOf(rec: Row, columns?: readonly string[]): string[] {
  return oneColumnPerFact([rec], columns ?? Object.keys(rec)).filter((k) => rec[k] !== undefined);
}

/** The lines of one record for a terminal, `indent` spaces in. */
export function recordLines(rec: Row, opts: TableOptions, indent = 0): string[] {
  const now = opts.now ?? Date.now();
  const fields = fieldsOf(rec, opts.columns);
  const inner: TableOptions = { ...opts, columns: undefined, lowPriority: undefined };
  const keyWidth = Math.max(0, ...fields.filter((k) => !nested(rec[k])).map((k) => displayWidth(visible(k))));
  const lines: string[] = [];
  const lead = " ".repeat(indent);
  for (const k of fields) {
    const v = rec[k];
    const name = visible(k);
    if (isPlainObject(v) && nested(v)) {
      lines.push(lead + name, ...recordLines(v, inner, indent + NEST));
    } else if (Array.isArray(v) && nested(v)) {
      lines.push(lead + name);
      if (v.every(isPlainObject)) lines.push(...listLines(v, inner, indent + NEST));
      else for (const x of v) lines.push(`${lead}${" ".repeat(NEST)}- ${humanCell(x)}`);
    } else {
      const text = humanCell(humanValue(k, v, now));
      lines.push(`${lead}${name}${" ".repeat(keyWidth - displayWidth(name))}  ${text}`.trimEnd());
    }
  }
  return lines;
}

/** Renders one record for a terminal (or a pipe, `plain`); empty text for a record without fields. */
export function renderRecord(rec: Row, opts: TableOptions): string {
  const lines = opts.plain ? plainRecordLines(rec, opts.columns) : recordLines(rec, opts);
  return lines.length ? lines.join("\n") + "\n" : "";
}

/** The lines of one record for a pipe: `path<TAB>value` per scalar, the raw values. */
export function plainRecordLines(rec: Row, columns?: readonly string[]): string[] {
  const lines: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (isPlainObject(v)) { for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k); }
    else if (Array.isArray(v) && nested(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else lines.push(`${visible(path)}\t${humanCell(v)}`);
  };
  for (const k of fieldsOf(rec, columns)) walk(rec[k], k);
  return lines;
}
