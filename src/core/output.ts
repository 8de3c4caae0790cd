/**
 * Rendering of one result value as json, yaml, table or csv, after an optional JMESPath query
 * (DESIGN.md §4). Heavy renderers are imported only when their format is used.
 */
import { usageError } from "./errors.ts";

/** The output formats of `--output`. */
export const OUTPUT_FORMATS = ["json", "yaml", "table", "csv"] as const;

/** One of the output formats. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** How to render a value. */
export interface RenderOptions {
  format: OutputFormat;
  /** Column order for tables and csv; defaults to the keys in order of appearance. */
  columns?: readonly string[];
  color?: boolean;
}

/** True when `s` names an output format. */
export function isOutputFormat(s: string): s is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(s);
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
    throw usageError(
      `invalid output format '${value}' (from ${origin})`,
      `Use one of: ${OUTPUT_FORMATS.join(", ")}.`,
    );
  }
  return stdoutIsTerminal ? "table" : "json";
}

/** Checks a JMESPath expression without running it, so bad input fails before any request. */
export async function compileQuery(expression: string): Promise<void> {
  const { compile } = await import("@jmespath-community/jmespath");
  try {
    compile(expression);
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
    return search(JSON.parse(JSON.stringify(value ?? null)) as any, expression);
  } catch (e) {
    throw usageError(`invalid --query '${expression}': ${(e as Error).message}`, "See https://jmespath.org.");
  }
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
    case "table":
      return await renderTable(value, opts);
  }
}

type Row = Record<string, unknown>;

function isPlainObject(v: unknown): v is Row {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Turns a value into rows and columns: arrays of objects, one object, or scalars. */
export function tabulate(
  value: unknown,
  columns?: readonly string[],
): { columns: string[]; rows: unknown[][] } {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  if (items.length > 0 && items.every(isPlainObject)) {
    const cols = columns ? [...columns] : [...new Set(items.flatMap((o) => Object.keys(o as Row)))];
    return { columns: cols, rows: items.map((o) => cols.map((c) => (o as Row)[c])) };
  }
  return { columns: ["value"], rows: items.map((v) => [v]) };
}

/** Text of one cell: scalars as they are, structures as compact JSON. */
export function cellText(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** RFC 4180 csv with a header line. */
export function renderCsv(value: unknown, columns?: readonly string[]): string {
  const t = tabulate(value, columns);
  if (t.rows.length === 0 && !columns) return "";
  const lines = [t.columns.map(csvField).join(",")];
  for (const r of t.rows) lines.push(r.map((c) => csvField(cellText(c))).join(","));
  return lines.join("\r\n") + "\r\n";
}

async function renderTable(value: unknown, opts: RenderOptions): Promise<string> {
  const { default: Table } = await import("cli-table3");
  const clip = (s: string) => (s.length > 80 ? s.slice(0, 77) + "..." : s);
  if (isPlainObject(value) && !opts.columns) {
    const table = new Table({ style: { head: opts.color ? ["cyan"] : [], border: [] } });
    for (const [k, v] of Object.entries(value)) table.push({ [k]: clip(cellText(v)) });
    return table.toString() + "\n";
  }
  const t = tabulate(value, opts.columns);
  if (t.rows.length === 0) return "";
  const table = new Table({ head: t.columns, style: { head: opts.color ? ["cyan"] : [], border: [] } });
  for (const r of t.rows) table.push(r.map((c) => clip(cellText(c))));
  return table.toString() + "\n";
}
