/**
 * The program's global options, description and examples as plain data: the program's declaration
 * (front/program.ts) and its help (front/root_help.ts) read them from here.
 */
import { OUTPUT_FORMATS } from "../core/output.ts";
import { positiveNumber, timerOption } from "./command.ts";
import type { CompletionSource } from "../core/completion_sources.ts";

/** One global option: its flags string, its help line, and how its value is read. */
export interface GlobalOption {
  /** e.g. "-o, --output <format>" or "--no-color". */
  flags: string;
  description: string;
  /** The values allowed (shown in help as `(choices: …)`). */
  choices?: readonly string[];
  /** Reads the option's value (a usage error when it is not valid). */
  parse?: (value: string) => unknown;
  /** Where shell completion takes its values from (command/decl.ts `complete`). */
  complete?: CompletionSource;
}

/** The program's one-line description. */
export const PROGRAM_DESCRIPTION =
  "Command-line client for Autodesk Platform Services, with a built-in offline sandbox.";

/** The examples at the end of `diazo --help`. */
export const PROGRAM_EXAMPLES: readonly string[] = [
  "diazo demo",
  "diazo auth test",
  "diazo bucket list -o json --query '[].bucketKey'",
  "diazo config profile create work --client-id ID --use",
];

/** The topics of `diazo help <topic>` (texts in help_topics.ts), with what each explains. */
export const HELP_TOPICS = {
  environment: "every environment variable diazo reads, with its default",
  "exit-codes": "what each exit code means",
  formatting: "output formats, --query, tables and --out",
  config: "config files, profiles, settings and their precedence",
} as const;

/** One of HELP_TOPICS. */
export type HelpTopic = keyof typeof HELP_TOPICS;

/** The "Help topics:" section that ends `diazo --help` (after the examples). */
export function helpTopicsSection(): string {
  const width = Math.max(...Object.keys(HELP_TOPICS).map((t) => t.length));
  return "\nHelp topics (diazo help <topic>):\n" +
    Object.entries(HELP_TOPICS).map(([t, what]) => `  ${t.padEnd(width)}  ${what}`).join("\n") + "\n";
}

/** The flags of the output format option. */
export const OUTPUT_FLAGS = "-o, --output <format>";

/** The global options (README.md, "Global flags"), in help order (root.ts and root_help.ts add -V, -h). */
export const GLOBAL_OPTIONS: readonly GlobalOption[] = [
  { flags: OUTPUT_FLAGS, description: "output format", choices: OUTPUT_FORMATS },
  { flags: "--query <jmespath>", description: "filter the JSON result with a JMESPath expression" },
  { flags: "--profile <name>", description: "configuration profile to use", complete: "profile" },
  { flags: "--debug", description: "log HTTP traffic (secrets redacted) and hook/plugin runs to stderr" },
  { flags: "--quiet", description: "print only data and errors" },
  {
    flags: "--non-interactive",
    description: "never prompt; a missing value is an error (implied by CI or no terminal)",
  },
  { flags: "-y, --yes", description: "confirm destructive actions" },
  { flags: "--confirm", description: "same as --yes" },
  { flags: "--wait", description: "wait for asynchronous work to finish" },
  {
    flags: "--timeout <seconds>",
    description: "request timeout and limit of --wait, in seconds",
    parse: timerOption("--timeout", "seconds"),
  },
  {
    flags: "--concurrency <n>",
    description: "parallel transfers",
    parse: positiveNumber("--concurrency", true),
  },
  { flags: "--wide", description: "tables: show every column, no value cut" },
  { flags: "--no-color", description: "disable colours" },
  {
    flags: "--no-hooks",
    description: "do not run the pre_/post_ hooks of plugins.json (also DIAZO_NO_HOOKS=1)",
  },
];

/** The version and help options, as root.ts declares them. */
export const VERSION_FLAGS = {
  flags: "-V, --version",
  description: "print version, Deno version and target",
};
/** The help option, as root.ts declares it. */
export const HELP_FLAGS = { flags: "-h, --help", description: "show help" };

/** What a flags string declares: its short and long names, its value, and the key its value is stored under. */
export interface ParsedFlags {
  /** `-o`; of two long flags ("--due-date, --due <date>"), the first. */
  short?: string;
  long: string;
  /** Whether it takes a value (`<x>`). */
  takesValue: boolean;
  /** The attribute name (`--non-interactive` -> nonInteractive, `--no-color` -> color). */
  key: string;
  /** A `--no-x` option: sets `x` to false. */
  negate: boolean;
}

/**
 * Splits a flags string ("-o, --output <format>") into its parts. By hand, not by regular
 * expressions: the fast start parses every global and hot option as it loads, and each expression's
 * first use compiles it (ARCHITECTURE.md, "Start-up").
 */
export function parseFlags(flags: string): ParsedFlags {
  const words: string[] = [];
  let word = "";
  for (const ch of flags + " ") {
    if (ch === " " || ch === "," || ch === "|") {
      if (word) words.push(word);
      word = "";
    } else word += ch;
  }
  const longs = words.filter((w) => w.startsWith("--"));
  // Two long flags ("--due-date, --due <date>"), as commander reads them: the first is the other
  // spelling (in `short`), the second names the value.
  const short = words.find((w) => w.length === 2 && w[0] === "-" && w[1] !== "-") ??
    (longs.length > 1 ? longs[0] : undefined);
  const long = longs[longs.length > 1 && short === longs[0] ? 1 : 0];
  const negate = long.startsWith("--no-");
  const name = negate ? long.slice(5) : long.slice(2);
  let key = ""; // `-x` -> `X`: --non-interactive -> nonInteractive
  for (let i = 0; i < name.length; i++) {
    const next = name[i + 1];
    if (name[i] === "-" && next >= "a" && next <= "z") {
      key += next.toUpperCase();
      i++;
    } else key += name[i];
  }
  return {
    ...(short ? { short } : {}),
    long,
    takesValue: words.some((w) => w.startsWith("<")),
    key,
    negate,
  };
}
