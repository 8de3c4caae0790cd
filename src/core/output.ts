/**
 * Rendering of one result value as json, yaml, table, csv or text, after an optional JMESPath query
 * (README.md, "Output"). Heavy renderers are imported only when their format is used; only the table
 * (output_table.ts, output_record.ts) makes values readable and fits the terminal, the others keep them raw
 * (tables and csv show control characters as visible escapes, core/sanitize.ts).
 */
import { usageError } from "./errors.ts";
import { legacyLiterals } from "./query_literal.ts";
import { cellText, isPlainObject, tabulate } from "./output_cells.ts";
import type { TableOptions } from "./output_table.ts";
import { visible } from "./sanitize.ts";
import { suggest } from "./suggest.ts";

/** The output formats of `--output`. */
export const OUTPUT_FORMATS = ["json", "yaml", "table", "csv", "text"] as const;

/** One of the output formats. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** How to render a value: the format, and for tables and csv the columns (see TableOptions). */
export interface RenderOptions extends TableOptions {
  format: OutputFormat;
}

/** True for the formats that show a list as rows of chosen columns (table, csv, text). */
export function isTabular(format: OutputFormat): boolean {
  return format === "table" || format === "csv" || format === "text";
}

/** True when `s` names an output format. */
export function isOutputFormat(s: string): s is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(s);
}

/** The hint for a value that names no format: a close format, and the list. */
export function formatHint(value: string): string {
  const close = suggest(value, OUTPUT_FORMATS);
  return `${close ? `Did you mean ${close}? ` : ""}Use one of: ${OUTPUT_FORMATS.join(", ")}.`;
}

/** The format to use: the flag, else DIAZO_OUTPUT, else the config setting, else by terminal. */
export function chooseFormat(
  flag: string | undefined,
  env: string | undefined,
  setting: string | undefined,
  stdoutIsTerminal: boolean,
): OutputFormat {
  for (
    const [value, origin] of [[flag, "--output"], [env, "DIAZO_OUTPUT"], [
      setting,
      "the output setting",
    ]] as const
  ) {
    if (value === undefined || value === "") continue;
    if (isOutputFormat(value)) return value;
    throw usageError(`invalid output format '${value}' (from ${origin})`, formatHint(value));
  }
  return stdoutIsTerminal ? "table" : "json";
}

/**
 * Checks a JMESPath expression without running it, so bad input fails before any request. The AWS CLI's
 * legacy literal form (`` `persistent` `` for a string) is accepted beside standard JMESPath.
 */
export async function compileQuery(expression: string): Promise<void> {
  const { compile } = await import("@jmespath-community/jmespath");
  try {
    compile(legacyLiterals(expression));
  } catch (e) {
    throw usageError(
      `invalid --query '${expression}': ${(e as Error).message}`,
      "See https://jmespath.org for the syntax, e.g. --query 'items[].bucketKey'.",
    );
  }
}

/** Applies a JMESPath expression to a JSON value. */
export async function applyQuery(value: unknown, expression: string): Promise<unknown> {
  const { search } = await import("@jmespath-community/jmespath");
  try {
    // deno-lint-ignore no-explicit-any
    return search(JSON.parse(JSON.stringify(value ?? null)) as any, legacyLiterals(expression));
  } catch (e) {
    throw usageError(`invalid --query '${expression}': ${(e as Error).message}`, "See https://jmespath.org.");
  }
}

/**
 * `JSON.stringify(record, null, 2) + "\n"` (the json format) in pieces, the list under `key` one item at a time: a
 * list of 200,000 items as one string (and its bytes) costs ~100 MB at once.
 */
export function* jsonPieces(record: unknown, key: string): Generator<string> {
  const list = isPlainObject(record) ? record[key] : undefined;
  if (!isPlainObject(record) || !Array.isArray(list) || list.length === 0) {
    yield JSON.stringify(record ?? null, null, 2) + "\n";
    return;
  }
  const marker = JSON.stringify("\0list\0");
  const whole = JSON.stringify({ ...record, [key]: "\0list\0" }, null, 2);
  const at = whole.indexOf(marker);
  yield whole.slice(0, at) + "[\n";
  for (let i = 0; i < list.length; i++) {
    // Strings in JSON hold no raw line breaks: every "\n" here is the layout's.
    const item = (JSON.stringify(list[i] ?? null, null, 2) ?? "null").replaceAll("\n", "\n    ");
    yield (i > 0 ? ",\n    " : "    ") + item;
  }
  yield "\n  ]" + whole.slice(at + marker.length) + "\n";
}

/** Joins small pieces into chunks of about 64 KiB (one write each). */
export function* batched(pieces: Iterable<string>, size = 65536): Generator<string> {
  let chunk = "";
  for (const piece of pieces) {
    chunk += piece;
    if (chunk.length >= size) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}

/** Renders a value in the chosen format; the text ends with a newline unless it is empty. */
export async function render(value: unknown, opts: RenderOptions): Promise<string> {
  switch (opts.format) {
    case "json":
      return JSON.stringify(value ?? null, null, 2) + "\n";
    case "yaml": {
      const { stringify } = await import("yaml");
      return stringify(value ?? null);
    }
    case "csv":
      return renderCsv(value, opts.columns);
    case "text":
      return (await import("./output_text.ts")).renderText(value, opts.columns);
    case "table": {
      // Not loaded for json, yaml or csv; one record reads as lines, a list as a table.
      if (isPlainObject(value)) return (await import("./output_record.ts")).renderRecord(value, opts);
      return (await import("./output_table.ts")).renderTable(value, opts);
    }
  }
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
