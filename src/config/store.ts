/** Loading and saving config.json and reading the working directory's .env. */
import path from "node:path";
import { type ConfigFile, emptyConfig, parseConfig, stringifyConfig } from "./config.ts";
import { parseDotenv } from "./dotenv.ts";
import { readTextIfExists, writeFileAtomic } from "../platform/fs.ts";

/** Path of config.json inside a config dir. */
export function configPath(dir: string): string {
  return path.join(dir, "config.json");
}

/** Loads config.json from a config dir; a missing file is an empty configuration. */
export async function loadConfig(dir: string): Promise<ConfigFile> {
  const file = configPath(dir);
  const text = await readTextIfExists(file);
  return text === undefined ? emptyConfig() : parseConfig(text, file);
}

/** Saves config.json atomically with mode 0600 (it may hold a client secret). */
export async function saveConfig(dir: string, config: ConfigFile): Promise<void> {
  await writeFileAtomic(configPath(dir), stringifyConfig(config), 0o600);
}

/** Reads `.env` from a directory; a missing file is empty. */
export async function loadDotenv(cwd: string): Promise<Record<string, string>> {
  const file = path.join(cwd, ".env");
  const text = await readTextIfExists(file);
  return text === undefined ? {} : parseDotenv(text, file);
}
