/**
 * The front door (ARCHITECTURE.md) reads the global flags: it finds the command word and resolves once per run
 * what every later step needs before (or without) a command parser: the output format, the profile
 * with where it was chosen, debug. Plugins, error rendering, `version` and `config profile current`
 * read the result rather than argv; the commands' own options are parsed from their declarations.
 */
import { chooseProfile, type ConfigFile, emptyConfig, resolve } from "../config/config.ts";
import { loadConfig, loadDotenv } from "../config/store.ts";
import { type DiazoError, usageError } from "../core/errors.ts";
import { chooseFormat, formatHint, OUTPUT_FORMATS, type OutputFormat } from "../core/output.ts";
import type { ContextFiles } from "../command/context.ts";
import type { OutputSource, RunGlobals } from "../command/globals.ts";
import { configDirFor } from "../platform/dirs.ts";
import { FAMILIES } from "./families.ts";
import { GLOBAL_OPTIONS, parseFlags } from "../command/global_options.ts";

export type { OutputSource, RunGlobals };

/** The global options by each of their names (from their declaration in global_options.ts). */
const GLOBALS_BY_NAME = new Map(
  GLOBAL_OPTIONS.map((o) => parseFlags(o.flags)).flatMap((f) =>
    f.short ? [[f.short, f], [f.long, f]] as const : [[f.long, f]] as const
  ),
);

/** Global options that take a value, so that the command word can be found before parsing. */
const VALUE_OPTIONS = new Set([...GLOBALS_BY_NAME].filter(([, f]) => f.takesValue).map(([name]) => name));

/** The index of the first word of argv that is not a global option or its value; -1 if none. */
export function commandWordIndex(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") return i + 1 < args.length ? i + 1 : -1;
    if (VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (a.startsWith("-")) continue;
    return i;
  }
  return -1;
}

/** The first word of argv that is not a global option or its value. */
export function commandWord(args: readonly string[]): string | undefined {
  const i = commandWordIndex(args);
  return i < 0 ? undefined : args[i];
}

/** True for the words of built-in commands: every family, its aliases, and `help`. */
export function isBuiltinWord(word: string): boolean {
  return word === "help" || FAMILIES.some((f) => f.name === word || (f.aliases ?? []).includes(word));
}

/**
 * The usage error of `-o <value>` when the value is no format: in a command that writes files
 * (`destination`, it has --out) it names --out, as a path given to -o was meant for it.
 */
export function outputFlagError(value: string, destination: boolean): DiazoError {
  const formats = OUTPUT_FORMATS.join(", ");
  return destination
    ? usageError(
      `\`-o\` sets the output format (${formats}); use --out ${value} for the destination`,
      `Nothing was written. Run the command again with --out ${value}.`,
    )
    : usageError(`invalid output format '${value}' (from --output)`, formatHint(value));
}

/** The global flags as written on the command line (nothing resolved yet). */
export interface ArgvGlobals {
  output?: string;
  profile?: string;
  debug: boolean;
  noColor: boolean;
}

/**
 * Reads the global flags from `args` (up to `--`): `-o X`, `-oX`, `--output X`, `--output=X`,
 * `--profile`, `--debug`, `--no-color`.
 */
export function readGlobals(args: readonly string[]): ArgvGlobals {
  const out: ArgvGlobals = { debug: false, noColor: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") break;
    const eq = a.startsWith("--") ? a.indexOf("=") : -1;
    const [flag, inline] = eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = () => inline ?? args[++i];
    // `-oX`: a short option with its value attached.
    const attached = !flag.startsWith("--") && flag.length > 2
      ? GLOBALS_BY_NAME.get(flag.slice(0, 2))
      : undefined;
    const f = attached?.takesValue ? attached : GLOBALS_BY_NAME.get(flag);
    if (f === undefined) continue;
    const read = () => (f === attached ? flag.slice(2) : value());
    if (f.key === "profile") out.profile = read();
    else if (f.key === "output") out.output = read();
    else if (f.key === "debug") out.debug = true;
    else if (f.key === "color") out.noColor = true;
    else if (f.takesValue && inline === undefined && f !== attached) i++;
  }
  return out;
}

/** The files the front door reads once per run: config.json and the working directory's .env. */
export interface FrontFiles {
  config: ConfigFile;
  dotenv: Record<string, string>;
  /** Why one of them could not be read (commands that need them fail with it later). */
  error?: unknown;
  /** The reads themselves, for the run's context to use rather than read the files again. */
  reads?: ContextFiles;
}

/** Reads config.json and .env once for the run; a file that cannot be read is remembered, not raised. */
export async function loadFrontFiles(
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<FrontFiles> {
  const reads = { config: loadConfig(configDirFor((k) => env[k], Deno.build.os)), dotenv: loadDotenv(cwd) };
  const [loaded, read] = await Promise.allSettled([reads.config, reads.dotenv]);
  const failed = [loaded, read].find((r) => r.status === "rejected");
  return {
    config: loaded.status === "fulfilled" ? loaded.value : emptyConfig(),
    dotenv: read.status === "fulfilled" ? read.value : {},
    ...(failed?.status === "rejected" ? { error: failed.reason } : {}),
    reads,
  };
}

/** What resolving a run's globals reads besides argv. */
export interface FrontDoorInput {
  env: Record<string, string | undefined>;
  files: FrontFiles;
  stdoutIsTerminal: boolean;
  /** Read global flags only before this index (a plugin's own arguments follow its name). */
  flagsEnd?: number;
}

function debugEnv(v: string | undefined): boolean {
  return v !== undefined && v !== "" && v !== "0";
}

/** Resolves the run's globals from its argv, environment, `.env` and config.json (a pure function). */
export function resolveRunGlobals(argv: readonly string[], input: FrontDoorInput): RunGlobals {
  const { env, files: { config, dotenv, error: configError } } = input;
  const args = [...argv];
  const flags = readGlobals(input.flagsEnd === undefined ? args : args.slice(0, input.flagsEnd));
  const chosen = chooseProfile(flags.profile, env, dotenv, config);
  // Only a plugin's environment needs the address: resolved when read, so that a built-in command
  // resolves its settings once (in its context), not here as well.
  let baseUrl: string | undefined | null = null;
  const resolveBaseUrl = () => {
    baseUrl = env.DIAZO_BASE_URL;
    if (configError !== undefined) return baseUrl;
    try {
      baseUrl = resolve({ flags: { profile: flags.profile }, env, dotenv, config }).baseUrl.value;
    } catch { /* a bad number setting: the command that needs it says so */ }
    return baseUrl;
  };
  const terminal = input.stdoutIsTerminal;
  let output: OutputFormat = terminal ? "table" : "json";
  let outputError: unknown;
  try {
    output = chooseFormat(flags.output, env.DIAZO_OUTPUT, config.settings.output, terminal);
  } catch (e) {
    outputError = e;
  }
  const outputSource: OutputSource = flags.output
    ? "flag"
    : env.DIAZO_OUTPUT
    ? "env"
    : config.settings.output
    ? "config"
    : "terminal";
  return {
    args,
    output,
    outputSource,
    ...(outputError === undefined ? {} : { outputError }),
    profile: chosen.name,
    profileSource: chosen.source,
    get baseUrl() {
      return baseUrl === null ? resolveBaseUrl() : baseUrl;
    },
    debug: flags.debug || debugEnv(env.DIAZO_DEBUG),
    noColor: flags.noColor,
    ...(configError === undefined ? {} : { configError }),
  };
}
