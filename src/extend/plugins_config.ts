/**
 * plugins.json in the config dir (README.md, "Configuration"): `plugins` name → {enabled, path, description},
 * `hooks` name → shell command strings, `aliases` name → expansion. Loading validates it with
 * file:line:column in errors; edits change only what they touch and keep every other key.
 */
import { DiazoError } from "../core/errors.ts";
import { writeFileAtomic } from "../platform/fs_write.ts";
import {
  absentPlugins,
  emptyPluginsConfig,
  type LoadedPlugins,
  type PluginsConfig,
  type PluginSetting,
  type RawPluginsFile,
  readPluginsFile,
} from "./plugins_file.ts";

export { emptyPluginsConfig, pluginsFilePath } from "./plugins_file.ts";
export type { LoadedPlugins, PluginsConfig, PluginSetting, RawPluginsFile } from "./plugins_file.ts";

/** Line and column (1-based) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split("\n").length;
  return { line, column: before.length - before.lastIndexOf("\n") };
}

function invalid(file: string, detail: string, at?: { line: number; column: number }): DiazoError {
  return new DiazoError("invalid_plugins_file", {
    params: { file, at: at ? `:${at.line}:${at.column}` : "", detail },
  });
}

/**
 * The offset of the first syntax error in JSON text (V8's messages do not always carry one), by a
 * small recursive-descent scan; -1 when the text is valid.
 */
export function jsonErrorOffset(text: string): number {
  // long: one scanner over the JSON text whose states are read top to bottom
  let i = 0;
  const fail = (): never => {
    throw { syntaxErrorAt: i };
  };
  const ws = () => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  const word = (w: string) => text.startsWith(w, i) ? (i += w.length) : fail();
  const str = () => {
    i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') return i++;
      if (c < " ") fail();
      i++;
      if (c !== "\\") continue;
      if (!'"\\/bfnrtu'.includes(text[i] ?? "x")) fail();
      if (text[i++] !== "u") continue;
      for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? "")) fail();
    }
    fail();
  };
  const digits = () => {
    if (!(text[i] >= "0" && text[i] <= "9")) fail();
    while (text[i] >= "0" && text[i] <= "9") i++;
  };
  const num = () => {
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else digits();
    if (text[i] === ".") {
      i++;
      digits();
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      digits();
    }
  };
  const items = (close: string, item: () => void) => {
    i++;
    ws();
    if (text[i] === close) return i++;
    for (;;) {
      item();
      ws();
      if (text[i] === ",") i++;
      else if (text[i] === close) return i++;
      else fail();
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      items("}", () => {
        ws();
        if (text[i] !== '"') fail();
        str();
        ws();
        if (text[i] !== ":") fail();
        i++;
        value();
      });
    } else if (c === "[") items("]", value);
    else if (c === '"') str();
    else if (c === "t") word("true");
    else if (c === "f") word("false");
    else if (c === "n") word("null");
    else num();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return -1;
  } catch (e) {
    if (typeof e === "object" && e !== null && "syntaxErrorAt" in e) return e.syntaxErrorAt as number;
    throw e;
  }
}

/** Where a JSON.parse failure happened: V8's line and column when it names them, else our own scan. */
function jsonErrorAt(text: string, message: string): { line: number; column: number } {
  const lc = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const offset = jsonErrorOffset(text);
  return lineColumn(text, offset < 0 ? text.trimEnd().length : offset);
}

/** Where a key is written in the file (its first occurrence after `after`), for validation errors. */
function keyAt(text: string, key: string, after?: string): { line: number; column: number } | undefined {
  const start = after ? Math.max(0, text.indexOf(JSON.stringify(after))) : 0;
  const i = text.indexOf(JSON.stringify(key), start);
  return i < 0 ? undefined : lineColumn(text, i);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Parses and validates plugins.json text; every error names the file and, where known, line:column. */
export function parsePluginsFile(text: string, file: string): { config: PluginsConfig; raw: RawPluginsFile } {
  let raw: unknown;
  try {
    raw = text.trim() === "" ? {} : JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const detail = msg.replace(/,? ?"[\s\S]*" is not valid JSON$/, "")
      .replace(/ in JSON at position \d+.*$/, "").replace(/\s*\(line \d+ column \d+\)$/, "");
    throw invalid(file, `not valid JSON: ${detail}`, jsonErrorAt(text, msg));
  }
  if (!isObject(raw)) throw invalid(file, "expected a JSON object with plugins, hooks and aliases");
  return { config: validate(raw, text, file), raw };
}

function validate(raw: RawPluginsFile, text: string, file: string): PluginsConfig {
  const out = emptyPluginsConfig();
  const section = (key: "plugins" | "hooks" | "aliases", what: string) => {
    const v = raw[key];
    if (v === undefined) return {};
    if (!isObject(v)) throw invalid(file, `${key} must be an object of ${what}`, keyAt(text, key));
    return v;
  };
  for (const [name, p] of Object.entries(section("plugins", "name -> {enabled, path, description}"))) {
    const at = keyAt(text, name, "plugins");
    if (!isObject(p)) throw invalid(file, `plugins.${name} must be an object`, at);
    const setting: PluginSetting = { enabled: true };
    if (p.enabled !== undefined) {
      if (typeof p.enabled !== "boolean") {
        throw invalid(file, `plugins.${name}.enabled must be true or false`, at);
      }
      setting.enabled = p.enabled;
    }
    for (const k of ["path", "description"] as const) {
      if (p[k] === undefined) continue;
      if (typeof p[k] !== "string") throw invalid(file, `plugins.${name}.${k} must be a string`, at);
      setting[k] = p[k] as string;
    }
    out.plugins[name] = setting;
  }
  for (const [name, cmds] of Object.entries(section("hooks", "hook name -> array of shell commands"))) {
    if (!Array.isArray(cmds) || !cmds.every((c) => typeof c === "string")) {
      throw invalid(
        file,
        `hook ${name} must be an array of shell command strings, e.g. ["echo done"]`,
        keyAt(text, name, "hooks"),
      );
    }
    out.hooks[name] = cmds as string[];
  }
  for (const [name, exp] of Object.entries(section("aliases", "name -> expansion"))) {
    if (typeof exp !== "string") {
      throw invalid(
        file,
        `alias ${name} must be a string (the command it expands to)`,
        keyAt(text, name, "aliases"),
      );
    }
    out.aliases[name] = exp;
  }
  return out;
}

/** Loads plugins.json from a config dir (plugins_file.ts reads it); a missing file is an empty configuration. */
// deno-lint-ignore require-await
export async function loadPluginsFile(configDir: string): Promise<LoadedPlugins> {
  const { file, text } = readPluginsFile(configDir);
  return text === undefined ? absentPlugins(file) : parsedPlugins(text, file);
}

/** plugins.json's text, parsed and validated, as loaded from `file`. */
export function parsedPlugins(text: string, file: string): LoadedPlugins {
  return { file, exists: true, ...parsePluginsFile(text, file) };
}

/**
 * Applies `edit` to the raw content of plugins.json and writes it back atomically, validated; keys
 * the edit does not touch are kept. A malformed file is an error, never overwritten.
 */
export async function editPluginsFile<T>(configDir: string, edit: (raw: RawPluginsFile) => T): Promise<T> {
  const loaded = await loadPluginsFile(configDir);
  const raw = structuredClone(loaded.raw);
  const result = edit(raw);
  const text = JSON.stringify(raw, null, 2) + "\n";
  parsePluginsFile(text, loaded.file);
  await writeFileAtomic(loaded.file, text, 0o644);
  return result;
}

function sectionOf(raw: RawPluginsFile, key: "plugins" | "aliases"): Record<string, unknown> {
  if (!isObject(raw[key])) raw[key] = {};
  return raw[key] as Record<string, unknown>;
}

/** Sets `plugins.<name>.enabled` in the raw content, keeping the entry's other fields. */
export function setPluginEnabled(raw: RawPluginsFile, name: string, enabled: boolean): void {
  const plugins = sectionOf(raw, "plugins");
  const entry = isObject(plugins[name]) ? plugins[name] as Record<string, unknown> : {};
  plugins[name] = { ...entry, enabled };
}

/** Sets `aliases.<name>`; returns the expansion it replaced, if any. */
export function setAlias(raw: RawPluginsFile, name: string, expansion: string): string | undefined {
  const aliases = sectionOf(raw, "aliases");
  const before = aliases[name];
  aliases[name] = expansion;
  return typeof before === "string" ? before : undefined;
}

/** Removes `aliases.<name>`; returns whether it was there. */
export function removeAlias(raw: RawPluginsFile, name: string): boolean {
  const aliases = sectionOf(raw, "aliases");
  if (!(name in aliases)) return false;
  delete aliases[name];
  return true;
}
