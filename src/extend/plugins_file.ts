/**
 * Where plugins.json is, its shape, and its text if there is one: what every run reads. Most runs
 * find no file and then load neither its parser (plugins_config.ts) nor the hook runner
 * (front/extend_hooks.ts).
 */
import { osPath } from "../platform/path.ts";
import { readInputTextSync } from "../core/input_file.ts";

/** node:path's functions for this OS, without node:path (platform/path.ts). */
const path = osPath();

/** One configured plugin. */
export interface PluginSetting {
  /** False disables the plugin; absent means true. */
  enabled: boolean;
  /** An explicit executable, instead of PATH lookup (relative to the config dir). */
  path?: string;
  description?: string;
}

/** The validated content of plugins.json. */
export interface PluginsConfig {
  plugins: Record<string, PluginSetting>;
  hooks: Record<string, string[]>;
  aliases: Record<string, string>;
}

/** The JSON object as it is in the file, for edits that keep what they do not touch. */
export type RawPluginsFile = Record<string, unknown>;

/** A loaded plugins.json: where it is, whether it exists, its validated and its raw content. */
export interface LoadedPlugins {
  file: string;
  exists: boolean;
  config: PluginsConfig;
  raw: RawPluginsFile;
}

/** Path of plugins.json inside a config dir. */
export function pluginsFilePath(configDir: string): string {
  return path.join(configDir, "plugins.json");
}

/** An empty configuration. */
export function emptyPluginsConfig(): PluginsConfig {
  return { plugins: {}, hooks: {}, aliases: {} };
}

/**
 * plugins.json's path in a config dir and its text, none when there is no file. It is read through the
 * capped reader (core/input_file.ts): a FIFO, a device, a directory or a file over 1 MiB is refused
 * with its path before a byte is read.
 */
export function readPluginsFile(configDir: string): { file: string; text?: string } {
  const file = pluginsFilePath(configDir);
  return { file, text: readInputTextSync(file, "plugins", { missing: "absent" }) };
}

/** What a config dir without plugins.json configures: nothing. */
export function absentPlugins(file: string): LoadedPlugins {
  return { file, exists: false, config: emptyPluginsConfig(), raw: {} };
}
