/** Loading and saving config.json and reading the working directory's .env. */
import { osPath } from "../platform/path.ts";
import { DiazoError, usageError } from "../core/errors.ts";
import { type ConfigFile, emptyConfig, parseConfig, stringifyConfig } from "./config.ts";
import { readInputText, readInputTextSync } from "../core/input_file.ts";

/** node:path's functions for this OS, without node:path (platform/path.ts). */
const path = osPath();

/** Path of config.json inside a config dir. */
export function configPath(dir: string): string {
  return path.join(dir, "config.json");
}

/** Why a file could not be read, in words (the OS message names no path of ours). */
function unreadable(e: unknown): string {
  if (e instanceof Deno.errors.IsADirectory) return "it is a directory, not a file";
  if (e instanceof Deno.errors.PermissionDenied) return "it cannot be read (permission denied)";
  return `it cannot be read (${(e as Error)?.message ?? String(e)})`;
}

/**
 * Loads config.json from a config dir; a missing file is an empty configuration. It is read through
 * the capped reader (core/input_file.ts): a FIFO, a device or a file over 1 MiB is refused by its type
 * and size before a byte is read, a directory or an unreadable file is an error with its path.
 */
// deno-lint-ignore require-await
export async function loadConfig(dir: string): Promise<ConfigFile> {
  const file = configPath(dir);
  let text: string | undefined;
  try {
    text = readInputTextSync(file, "config", { directory: "absent" });
  } catch (e) {
    if (e instanceof DiazoError) throw e;
    if (e instanceof Deno.errors.NotFound) return emptyConfig();
    throw new DiazoError("invalid_config", { params: { file, detail: unreadable(e) }, cause: e });
  }
  if (text === undefined) {
    throw new DiazoError("invalid_config", { params: { file, detail: "it is a directory, not a file" } });
  }
  return parseConfig(text, file);
}

/** Saves config.json atomically with mode 0600 (it may hold a client secret). */
export async function saveConfig(dir: string, config: ConfigFile): Promise<void> {
  const { writeFileAtomic } = await import("../platform/fs_write.ts"); // a run that only reads loads no writer
  await writeFileAtomic(configPath(dir), stringifyConfig(config), 0o600);
}

/** Path of the .env file a run in `cwd` reads. */
export function dotenvPath(cwd: string): string {
  return path.join(cwd, ".env");
}

/**
 * Reads `.env` from a directory; a missing file is empty, and so is a directory of that name (a
 * Python virtual environment made by `python -m venv .env` is common); an unreadable file, one that
 * is not a regular file (a FIFO, `/dev/zero` through a symlink) or one over 1 MiB is an error.
 */
export async function loadDotenv(cwd: string): Promise<Record<string, string>> {
  const file = dotenvPath(cwd);
  let text: string | undefined;
  try {
    text = await readInputText(file, "dotenv", { directory: "absent" });
  } catch (e) {
    if (e instanceof DiazoError) throw e;
    if (e instanceof Deno.errors.NotFound) return {};
    throw usageError(`cannot read ${file}: ${unreadable(e)}`, "Fix its permissions or move it away.");
  }
  if (text === undefined) return {};
  // Loaded only for a file to parse: its parser (node:util) costs every run without one milliseconds.
  const { parseDotenv } = await import("./dotenv.ts");
  return parseDotenv(text, file);
}
