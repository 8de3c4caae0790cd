/**
 * The config verbs (profiles and settings), front-end free: each a `run<Verb>(opts, deps)` over
 * config.json that the CLI's `config` family (and any other front end) calls.
 */
import {
  type ChosenProfile,
  type ConfigFile,
  DEFAULT_PROFILE,
  mask,
  parseConfig,
  type Profile,
  PROFILE_KEYS,
  SETTING_KEYS,
  type Settings,
} from "../../config/config.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import { formatHint, isOutputFormat } from "../../core/output.ts";
import { parseScopeList, unknownScopes } from "../../aps/scopes.ts";
import { suggest } from "../../core/suggest.ts";
import type { OpsDeps } from "../../session/deps.ts";

/** What the config verbs need: config.json, the resolved settings, the token store, stderr lines. */
export interface ConfigDeps extends Pick<OpsDeps, "settings" | "tokenStore" | "info" | "warn"> {
  config(): Promise<ConfigFile>;
  saveConfig(config: ConfigFile): Promise<void>;
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function checkName(name: string): void {
  if (!PROFILE_NAME.test(name)) {
    throw usageError(
      `invalid profile name '${name}'`,
      "Use letters, digits, '.', '_' and '-', e.g. work or ci-eu.",
    );
  }
}

function requireProfile(config: ConfigFile, name: string): Profile {
  const p = config.profiles[name];
  if (p) return p;
  const close = suggest(name, Object.keys(config.profiles));
  throw new DiazoError("profile_not_found", {
    params: { name, close: close ? `Did you mean ${close}? ` : "" },
  });
}

function checkUrl(key: string, value: string): void {
  try {
    const u = new URL(value);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
  } catch {
    throw usageError(
      `${key} must be an http(s) URL, got '${value}'`,
      `Example: diazo config set ${key} https://example.com`,
    );
  }
}

/** A default hub or project: an id or a name, resolved when a command uses it (front/names.ts). */
function defaultName(key: "hub" | "project", value: string): string {
  const text = value.trim();
  if (text === "" || text.length > 255 || [...text].some((c) => c.charCodeAt(0) < 32)) {
    throw usageError(
      `${key} must be an id or a name of 1 to 255 characters`,
      `Example: diazo config set ${key} ${key === "hub" ? "b.<account guid>" : "'Riverside Tower'"}`,
    );
  }
  return text;
}

/** Validates and converts a `config set` value. */
function parseValue(key: string, value: string): string | number | string[] {
  if (key === "scopes") {
    const scopes = parseScopeList(value);
    const bad = unknownScopes(scopes);
    if (bad.length) {
      throw usageError(`unknown scope ${bad.join(", ")}`, "See the scope table with `diazo auth scopes`.");
    }
    return scopes;
  }
  if (key === "base_url" || key === "callback_url") checkUrl(key, value);
  if (key === "hub" || key === "project") return defaultName(key, value);
  if (key === "output" && !isOutputFormat(value)) {
    throw usageError(`invalid output format '${value}'`, formatHint(value));
  }
  if ((SETTING_KEYS as Record<string, string>)[key] === "number") {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) {
      throw usageError(
        `${key} must be a positive number, got '${value}'`,
        `Example: diazo config set ${key} 30`,
      );
    }
    return n;
  }
  return value;
}

/** Whether a `config get/set/unset` key is a profile field or a tool setting; an unknown key is a usage error. */
export function knownKey(key: string): "profile" | "setting" {
  if (key in PROFILE_KEYS) return "profile";
  if (key in SETTING_KEYS) return "setting";
  const all = [...Object.keys(PROFILE_KEYS), ...Object.keys(SETTING_KEYS)];
  const close = suggest(key, all);
  throw usageError(
    `unknown configuration key '${key}'`,
    `${close ? `Did you mean ${close}? ` : ""}Keys: ${all.join(", ")}.`,
  );
}

function exportable(profile: Profile, includeSecrets: boolean): Profile {
  const { client_secret, ...rest } = profile;
  return includeSecrets && client_secret ? { ...rest, client_secret } : rest;
}

/** Options of `runProfileCreate`. */
export interface ProfileCreateOptions {
  name: string;
  clientId?: string;
  /** The client secret, already read (from stdin: never from argv). */
  clientSecret?: string;
  callbackUrl?: string;
  baseUrl?: string;
  daNickname?: string;
  use?: boolean;
  force?: boolean;
}

/** Creates (or with `force` replaces) a profile; it becomes the active one only with `use`. */
export async function runProfileCreate(opts: ProfileCreateOptions, deps: ConfigDeps) {
  const { name } = opts;
  checkName(name);
  const cfg = structuredClone(await deps.config());
  if (cfg.profiles[name] && !opts.force) {
    throw new DiazoError("conflict", {
      params: { detail: `profile '${name}' already exists (use --force to replace it)` },
    });
  }
  const p: Profile = {};
  if (opts.clientId) p.client_id = opts.clientId;
  if (opts.clientSecret !== undefined) p.client_secret = opts.clientSecret;
  if (opts.callbackUrl) checkUrl("callback_url", p.callback_url = opts.callbackUrl);
  if (opts.baseUrl) checkUrl("base_url", p.base_url = opts.baseUrl.replace(/\/+$/, ""));
  if (opts.daNickname) p.da_nickname = opts.daNickname;
  cfg.profiles[name] = p;
  if (opts.use) cfg.active_profile = name; // as aws: creating never switches; --use does
  await deps.saveConfig(cfg);
  deps.info(`Created profile ${name}${cfg.active_profile === name ? " (active)" : ""}`);
  return {
    name,
    active: cfg.active_profile === name,
    ...exportable(p, false),
    has_secret: Boolean(p.client_secret),
  };
}

/** The profiles, with the one in use marked. */
export async function runProfileList(_opts: Record<string, never>, deps: ConfigDeps) {
  const cfg = await deps.config();
  const active = (await deps.settings()).profileName;
  return Object.entries(cfg.profiles).map(([name, p]) => ({
    name,
    active: name === active,
    client_id: p.client_id ?? null,
    base_url: p.base_url ?? null,
    has_secret: Boolean(p.client_secret),
  }));
}

/** Makes a profile the active one. */
export async function runProfileUse(opts: { name: string }, deps: ConfigDeps) {
  const cfg = structuredClone(await deps.config());
  // "default" is the profile in use before any is chosen: always there to switch back to.
  if (opts.name === DEFAULT_PROFILE) cfg.profiles[DEFAULT_PROFILE] ??= {};
  requireProfile(cfg, opts.name);
  cfg.active_profile = opts.name;
  await deps.saveConfig(cfg);
  deps.info(`Active profile: ${opts.name}`);
  return { name: opts.name, active: true };
}

/** The profile in use, whether config.json has it, and where it was chosen (flag, env, .env, config, default). */
export async function runProfileCurrent(opts: { chosen: ChosenProfile }, deps: ConfigDeps) {
  const cfg = await deps.config();
  return { name: opts.chosen.name, exists: opts.chosen.name in cfg.profiles, source: opts.chosen.source };
}

/** Deletes a profile and its tokens once `confirm` agrees; undefined when it did not. */
export async function runProfileDelete(
  opts: { name: string; confirm(question: string): Promise<boolean> },
  deps: ConfigDeps,
) {
  const cfg = structuredClone(await deps.config());
  requireProfile(cfg, opts.name);
  if (!(await opts.confirm(`Delete profile ${opts.name}?`))) return undefined;
  delete cfg.profiles[opts.name];
  if (cfg.active_profile === opts.name) delete cfg.active_profile;
  await deps.saveConfig(cfg);
  const removedTokens = await (await deps.tokenStore()).removeProfile(opts.name);
  deps.info(`Deleted profile ${opts.name}`);
  return { name: opts.name, deleted: true, tokens_removed: removedTokens };
}

/** The named profiles (all by default) as an export; client secrets only with `includeSecrets`. */
export async function runProfileExport(
  opts: { names: string[]; includeSecrets?: boolean },
  deps: ConfigDeps,
) {
  const cfg = await deps.config();
  const chosen = opts.names.length ? opts.names : Object.keys(cfg.profiles);
  const profiles: Record<string, Profile> = {};
  for (const n of chosen) profiles[n] = exportable(requireProfile(cfg, n), Boolean(opts.includeSecrets));
  if (opts.includeSecrets) deps.warn("the export contains client secrets; keep it private");
  return { version: 1, profiles };
}

/** Imports the profiles of an export's `text` (read from `source`); existing ones only with `force`. */
export async function runProfileImport(
  opts: { text: string; source: string; force?: boolean },
  deps: ConfigDeps,
) {
  const incoming = parseConfig(opts.text, opts.source);
  const cfg = structuredClone(await deps.config());
  const names = Object.keys(incoming.profiles);
  if (names.length === 0) {
    throw usageError(
      `no profiles in ${opts.source}`,
      "The file must look like the output of `diazo config profile export`.",
    );
  }
  const clash = names.filter((n) => cfg.profiles[n]);
  if (clash.length && !opts.force) {
    throw new DiazoError("conflict", {
      params: { detail: `profile(s) ${clash.join(", ")} already exist (use --force to replace)` },
    });
  }
  for (const n of names) {
    checkName(n);
    cfg.profiles[n] = incoming.profiles[n];
  }
  await deps.saveConfig(cfg);
  deps.info(`Imported ${names.length} profile(s): ${names.join(", ")}`);
  return { imported: names };
}

/** A setting, or a field of the profile in use (client_secret masked unless `showSecret`). */
export async function runGet(opts: { key: string; showSecret?: boolean }, deps: ConfigDeps) {
  const { key } = opts;
  const kind = knownKey(key);
  const cfg = await deps.config();
  const name = (await deps.settings()).profileName;
  let value = kind === "profile"
    ? (cfg.profiles[name] as Record<string, unknown> | undefined)?.[key]
    : (cfg.settings as Record<string, unknown>)[key];
  if (key === "client_secret" && typeof value === "string" && !opts.showSecret) value = mask(value);
  return { key, value: value ?? null, ...(kind === "profile" ? { profile: name } : {}) };
}

/** Changes a setting, or a field of the profile in use (never the secret: not on a command line). */
export async function runSet(opts: { key: string; value: string }, deps: ConfigDeps) {
  const { key } = opts;
  const kind = knownKey(key);
  if (key === "client_secret") {
    throw usageError(
      "secrets are not accepted on the command line",
      "Use `diazo config profile create NAME --client-secret-stdin --force`.",
    );
  }
  const parsed = parseValue(key, opts.value);
  const cfg = structuredClone(await deps.config());
  const name = (await deps.settings()).profileName;
  if (kind === "profile") {
    checkName(name);
    const p = (cfg.profiles[name] ??= {}) as Record<string, unknown>;
    p[key] = parsed;
    cfg.active_profile ??= name;
  } else {
    (cfg.settings as Record<string, unknown>)[key] = parsed as Settings[keyof Settings];
  }
  await deps.saveConfig(cfg);
  return { key, value: parsed, ...(kind === "profile" ? { profile: name } : {}) };
}
