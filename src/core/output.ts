/**
 * Rendering of one result value as json, yaml, table, csv or text, after an optional JMESPath query
 * (README.md, "Output"). Every renderer but json's is imported only when its format is used, the query
 * (output_query.ts) only with --query, a long list's json (output_pieces.ts) only for one; only the table
 * (output_table.ts, output_record.ts) makes values readable and fits the terminal, the others keep them raw
 * (tables and csv show control characters as visible escapes, core/sanitize.ts).
 */
import { usageError } from "./errors.ts";
import { isPlainObject } from "./output_cells.ts";
import type { TableOptions } from "./output_table.ts";
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
      return (await import("./output_csv.ts")).renderCsv(value, opts.columns);
    case "text":
      return (await import("./output_text.ts")).renderText(value, opts.columns);
    case "table": {
      // Not loaded for json, yaml or csv; one record reads as lines, a list as a table.
      if (isPlainObject(value)) return (await import("./output_record.ts")).renderRecord(value, opts);
      return (await import("./output_table.ts")).renderTable(value, opts);
    }
  }
}
