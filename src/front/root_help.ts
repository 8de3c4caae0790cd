/**
 * `diazo --help` (and `diazo` alone): the program's help from the same data as the program's
 * declaration (global_options.ts, families.ts), families grouped as gh groups them, laid out as every
 * command's help is (help.ts: terms padded to the longest, descriptions wrapped at the help width).
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
import { boxWrap, helpItem } from "./help.ts";
import { ExitCode } from "../core/errors.ts";
import type { Io } from "../command/io.ts";
import { CLOSED_OUTPUT_EXIT, isClosedOutput } from "../command/closed_output.ts";

/**
 * The help text of the program at `helpWidth` columns, plus the examples and help topics when
 * `withExamples` (what `--help` prints after it).
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
  for (const o of options) out.push(helpItem(o.term, termWidth, o.text, width));
  out.push("");
  const groups = [...new Set(commands.map((c) => c.group))];
  for (const group of groups) {
    out.push(group);
    for (const c of commands.filter((c) => c.group === group)) {
      out.push(helpItem(c.term, termWidth, c.text, width));
    }
    out.push("");
  }
  const text = out.join("\n");
  if (!withExamples) return text;
  return text + "\nExamples:\n" + PROGRAM_EXAMPLES.map((l) => `  $ ${l}`).join("\n") + "\n\n" +
    helpTopicsSection() + "\n";
}

/** Whether `argv` asks for the program's help: `diazo`, `diazo --help`, `diazo -h`. */
export function isProgramHelp(argv: readonly string[]): boolean {
  return argv.length === 0 || (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h"));
}

/**
 * The program's help (`isProgramHelp`), before any file is read; src/main.ts answers with it without
 * loading the front door. Returns the exit code.
 */
export function programHelp(argv: readonly string[], io: Io): number {
  try {
    io.stdout.write(rootHelp(io.stdout.isTerminal ? io.stdout.columns : undefined, argv.length === 1));
  } catch (e) {
    // A reader that went away ends the run as any help does (run_common.ts): 141, quietly.
    if (!isClosedOutput(e)) throw e;
    return CLOSED_OUTPUT_EXIT;
  }
  return ExitCode.ok;
}
