/**
 * `diazo --help` (and `diazo` alone) without loading commander: the same text commander prints for
 * the program root.ts builds — the same data (global_options.ts, families.ts), laid out by commander's
 * rules (terms padded to the longest, descriptions wrapped at the help width, groups in order).
 * tests/e2e/startup_test.ts checks it against commander's own rendering at several widths.
 */
import { FAMILIES, HELP_GROUPS } from "./families.ts";
import {
  GLOBAL_OPTIONS,
  type GlobalOption,
  HELP_FLAGS,
  helpTopicsSection,
  PROGRAM_DESCRIPTION,
  PROGRAM_EXAMPLES,
  VERSION_FLAGS,
} from "../command/global_options.ts";

/** Below this many columns for a description, commander does not wrap. */
const MIN_WIDTH_TO_WRAP = 40;

/** Commander's word wrap: whitespace-separated chunks packed into `width` columns. */
function boxWrap(text: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  const lines: string[] = [];
  for (const raw of text.split(/\r\n|\n/)) {
    const chunks = raw.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      lines.push("");
      continue;
    }
    let line = chunks.shift()!;
    for (const chunk of chunks) {
      if (line.length + chunk.length <= width) line += chunk;
      else {
        lines.push(line);
        line = chunk.trimStart();
      }
    }
    lines.push(line);
  }
  return lines.join("\n");
}

/** One "  term  description" item, the description wrapped beside the padded term. */
function item(term: string, termWidth: number, description: string, helpWidth: number): string {
  const remaining = helpWidth - termWidth - 2 - 2;
  const text = remaining < MIN_WIDTH_TO_WRAP
    ? description
    : boxWrap(description, remaining).replace(/\n/g, "\n" + " ".repeat(termWidth + 2));
  return "  " + term.padEnd(termWidth) + "  " + text.replace(/\n/g, "\n  ");
}

/**
 * The help text of the program: what commander's `helpInformation()` gives at `helpWidth` columns,
 * plus the examples and help topics when `withExamples` (what `--help` prints after it).
 */
export function rootHelp(helpWidth: number | undefined, withExamples: boolean): string {
  const width = helpWidth ?? 80;
  const options = [...GLOBAL_OPTIONS, VERSION_FLAGS, HELP_FLAGS].map((o: GlobalOption) => ({
    term: o.flags,
    text: o.choices
      ? `${o.description} (choices: ${o.choices.map((c) => JSON.stringify(c)).join(", ")})`
      : o.description,
  }));
  const commands = FAMILIES.map((f) => ({
    term: f.aliases?.length ? `${f.name}|${f.aliases[0]}` : f.name,
    text: f.summary,
    group: HELP_GROUPS[f.group] as string,
  }));
  commands.push({ term: "help [command]", text: "display help for command", group: "Commands:" });
  const termWidth = Math.max(...options.map((o) => o.term.length), ...commands.map((c) => c.term.length));
  const out = ["Usage: diazo [options] [command]", "", boxWrap(PROGRAM_DESCRIPTION, width), "", "Options:"];
  for (const o of options) out.push(item(o.term, termWidth, o.text, width));
  out.push("");
  const groups = [...new Set(commands.map((c) => c.group))];
  for (const group of groups) {
    out.push(group);
    for (const c of commands.filter((c) => c.group === group)) {
      out.push(item(c.term, termWidth, c.text, width));
    }
    out.push("");
  }
  const text = out.join("\n");
  if (!withExamples) return text;
  return text + "\nExamples:\n" + PROGRAM_EXAMPLES.map((l) => `  $ ${l}`).join("\n") + "\n\n" +
    helpTopicsSection() + "\n";
}
