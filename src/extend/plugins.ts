/**
 * The plugin registry (README.md, "Plugins, hooks and aliases"): `diazo-<name>` executables on PATH plus the
 * entries of plugins.json (enabled flag, explicit path, description), with the warnings `plugin list` shows
 * and the lookup `diazo <name>` dispatches through.
 */
import path from "node:path";
import { DiazoError } from "../core/errors.ts";
import type { PluginsConfig } from "./plugins_file.ts";
import {
  findExecutable,
  type LookupOptions,
  PLUGIN_PREFIX,
  pluginKey,
  scanPathPlugins,
} from "../platform/which.ts";

/** One plugin as `plugin list` shows it. */
export interface PluginInfo {
  name: string;
  /** The executable that runs; null when none was found. */
  path: string | null;
  enabled: boolean;
  description: string;
  /** Where it was found: on PATH, or at the path plugins.json gives. */
  source: "PATH" | "config";
}

/** What the registry needs: plugins.json's content and place, the PATH lookup, the built-in names. */
export interface RegistryInput {
  config: PluginsConfig;
  /** plugins.json itself, for messages. */
  configFile: string;
  lookup: LookupOptions;
  isBuiltin(word: string): boolean;
}

/**
 * A configured path, resolved against the config file's directory; `~/` is the home directory. The
 * path rules are those of `os` (the lookup's), never the host's: the lookup stays pure.
 */
export function configuredPath(p: string, configFile: string, home: string | undefined, os: string): string {
  const rules = os === "windows" ? path.win32 : path.posix;
  const homeRelative = p === "~" || p.startsWith("~/") || (os === "windows" && p.startsWith("~\\"));
  if (home && homeRelative) return rules.join(home, p.slice(1));
  return rules.resolve(rules.dirname(configFile), p);
}

function homeOf(lookup: LookupOptions, env?: Record<string, string | undefined>): string | undefined {
  return lookup.os === "windows" ? env?.USERPROFILE : env?.HOME;
}

/** Every discovered and configured plugin, sorted by name, and the warnings about them. */
export function listPlugins(
  input: RegistryInput,
  env?: Record<string, string | undefined>,
): { plugins: PluginInfo[]; warnings: string[] } {
  const { config, lookup } = input;
  const warnings: string[] = [];
  const byKey = new Map<string, PluginInfo>();
  const settingOf = (name: string) => {
    const key = pluginKey(name, lookup.os);
    const found = Object.entries(config.plugins).find(([n]) => pluginKey(n, lookup.os) === key);
    return found?.[1];
  };
  for (const [name, setting] of Object.entries(config.plugins)) {
    if (!setting.path) continue;
    const file = configuredPath(setting.path, input.configFile, homeOf(lookup, env), lookup.os);
    if (!lookup.view.isExecutable(file)) {
      warnings.push(`plugin '${name}': configured path ${file} does not exist or is not executable`);
    }
    byKey.set(pluginKey(name, lookup.os), {
      name,
      path: file,
      enabled: setting.enabled,
      description: setting.description ?? "",
      source: "config",
    });
  }
  for (const found of scanPathPlugins(lookup)) {
    const key = pluginKey(found.name, lookup.os);
    const configured = byKey.get(key);
    if (!found.executable) {
      warnings.push(`${found.file} is named like a diazo plugin but is not executable`);
      continue;
    }
    if (configured?.source === "config" && configured.path !== found.file) {
      warnings.push(`${found.file} is shadowed by the configured path ${configured.path}`);
      continue;
    }
    if (found.shadowedBy) {
      warnings.push(`${found.file} is shadowed by ${found.shadowedBy}, which comes earlier on PATH`);
      continue;
    }
    const setting = settingOf(found.name);
    byKey.set(key, {
      name: found.name,
      path: found.file,
      enabled: setting?.enabled ?? true,
      description: setting?.description ?? "",
      source: "PATH",
    });
  }
  for (const [name, setting] of Object.entries(config.plugins)) {
    const key = pluginKey(name, lookup.os);
    if (byKey.has(key)) continue;
    warnings.push(
      `plugin '${name}' is configured in ${input.configFile} but no ${PLUGIN_PREFIX}${name} is on PATH`,
    );
    byKey.set(key, {
      name,
      path: null,
      enabled: setting.enabled,
      description: setting.description ?? "",
      source: "config",
    });
  }
  const plugins = [...byKey.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const p of plugins) {
    if (input.isBuiltin(p.name)) {
      warnings.push(
        `plugin '${p.name}' (${p.path ?? "not found"}) is hidden by the built-in command 'diazo ${p.name}'`,
      );
    }
  }
  return { plugins, warnings };
}

/**
 * The executable `diazo <name>` runs, or undefined when there is no such plugin. A plugin disabled
 * in plugins.json is a `plugin_disabled` error (shown as an unknown command with a hint); a
 * configured path that is missing is a `plugin_path_missing` error.
 */
export function resolvePlugin(
  name: string,
  input: Omit<RegistryInput, "isBuiltin">,
  env?: Record<string, string | undefined>,
): string | undefined {
  const { lookup, config } = input;
  const key = pluginKey(name, lookup.os);
  const entry = Object.entries(config.plugins).find(([n]) => pluginKey(n, lookup.os) === key);
  const setting = entry?.[1];
  let file: string | undefined;
  if (setting?.path) {
    file = configuredPath(setting.path, input.configFile, homeOf(lookup, env), lookup.os);
    if (!lookup.view.isExecutable(file)) {
      if (!setting.enabled) file = undefined;
      else {
        throw new DiazoError("plugin_path_missing", {
          params: { name: entry![0], path: file, file: input.configFile },
        });
      }
    }
  } else if (/^[^/\\]+$/.test(name)) {
    file = findExecutable(PLUGIN_PREFIX + name, lookup);
  }
  if (setting && !setting.enabled) {
    throw new DiazoError("plugin_disabled", {
      params: { command: name, path: file ?? `${PLUGIN_PREFIX}${name}` },
    });
  }
  return file;
}
