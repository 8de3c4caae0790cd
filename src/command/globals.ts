/**
 * The shape of what the front door (argv.ts) resolves once per run, apart from argv.ts so that the
 * context can name it without importing the front door (and, through it, the family list).
 */
import type { ProfileSource } from "../config/config.ts";
import type { OutputFormat } from "../core/output.ts";

/** Where the output format was chosen. */
export type OutputSource = "flag" | "env" | "config" | "terminal";

/** What the front door resolved for one run; everything after it reads these. */
export interface RunGlobals {
  /** The arguments (after alias expansion). */
  args: string[];
  /** The effective output format (table on a terminal, else json, when nothing asks otherwise). */
  output: OutputFormat;
  outputSource: OutputSource;
  /** An invalid format asked for (by DIAZO_OUTPUT or the setting): raised when a command renders. */
  outputError?: unknown;
  profile: string;
  profileSource: ProfileSource;
  /** The platform address of the profile (for plugins), resolved when first read; undefined when the settings do not resolve. */
  readonly baseUrl?: string;
  /** --debug or DIAZO_DEBUG. */
  debug: boolean;
  noColor: boolean;
  /** Why config.json or .env could not be read (commands that need them fail with it later). */
  configError?: unknown;
}
