/**
 * Configuration: the config.json model, its validation, and the resolution of every setting by
 * precedence flags > environment > .env > active profile > defaults (README.md, "Configuration").
 */
import { timerNumber, type TimerUnit } from "../core/bounds.ts";
import { DiazoError, usageError } from "../core/errors.ts";
import { registerSecret } from "../core/redact.ts";
import { platformAddress } from "../aps/base_url.ts";

/** Credentials and endpoints of one profile. */
export interface Profile {
  client_id?: string;
  client_secret?: string;
  callback_url?: string;
  da_nickname?: string;
  base_url?: string;
  /** 2-legged scopes requested for this profile's tokens. */
  scopes?: string[];
  /** The hub (id or name) a command takes when its `--hub`/`--account` is absent. */
  hub?: string;
  /** The project (id or name) a command takes when its `--project` is absent. */
  project?: string;
}

/** Tool settings that are not credentials. */
export interface Settings {
  output?: string;
  timeout?: number;
  max_attempts?: number;
  retry_base_ms?: number;
  concurrency?: number;
  /** Longest wait, in seconds, a `Retry-After` of the platform may impose. */
  max_retry_after?: number;
}

/** The content of config.json. */
export interface ConfigFile {
  active_profile?: string;
  profiles: Record<string, Profile>;
  settings: Settings;
}

/** Keys of a profile that `config get/set` accept, and whether they are secret. */
export const PROFILE_KEYS = {
  client_id: false,
  client_secret: true,
  callback_url: false,
  da_nickname: false,
  base_url: false,
  scopes: false,
  hub: false,
  project: false,
} as const;

/** Keys of the settings that `config get/set` accept, with their type. */
export const SETTING_KEYS = {
  output: "string",
  timeout: "number",
  max_attempts: "number",
  retry_base_ms: "number",
  concurrency: "number",
  max_retry_after: "number",
} as const;

/** The default platform address. */
export const DEFAULT_BASE_URL = "https://developer.api.autodesk.com";
/** The default 3-legged callback. */
export const DEFAULT_CALLBACK_URL = "http://localhost:8080/callback";
/** Default request timeout, seconds. */
export const DEFAULT_TIMEOUT_S = 60;
/** Default total attempts of a retryable request. */
export const DEFAULT_MAX_ATTEMPTS = 4;
/** Default backoff base, milliseconds. */
export const DEFAULT_RETRY_BASE_MS = 500;
/** Default longest wait a `Retry-After` may impose, seconds. */
export const DEFAULT_MAX_RETRY_AFTER_S = 60;
/** Default parallelism of transfers. */
export const DEFAULT_CONCURRENCY = 5;

/** An empty configuration. */
export function emptyConfig(): ConfigFile {
  return { profiles: {}, settings: {} };
}

function lineCol(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, col: offset - before.lastIndexOf("\n") };
}

function invalid(file: string, detail: string): DiazoError {
  return new DiazoError("invalid_config", { params: { file, detail } });
}

/** Parses and validates config.json text; errors name the file, line and column. */
export function parseConfig(text: string, file: string): ConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const m = /position (\d+)/.exec(msg);
    const at = m ? lineCol(text, Number(m[1])) : undefined;
    const where = at ? `line ${at.line}, column ${at.col}: ` : "";
    throw invalid(
      file,
      `${where}${msg.replace(/ in JSON at position \d+.*$/, "").replace(/\s*\(line \d+ column \d+\)$/, "")}`,
    );
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw invalid(file, "expected a JSON object");
  }
  const obj = raw as Record<string, unknown>;
  const out = emptyConfig();
  if (obj.active_profile !== undefined) {
    if (typeof obj.active_profile !== "string") throw invalid(file, "active_profile must be a string");
    out.active_profile = obj.active_profile;
  }
  if (obj.profiles !== undefined) {
    if (typeof obj.profiles !== "object" || obj.profiles === null || Array.isArray(obj.profiles)) {
      throw invalid(file, "profiles must be an object of name -> profile");
    }
    for (const [name, p] of Object.entries(obj.profiles as Record<string, unknown>)) {
      out.profiles[name] = validateProfile(p, `profiles.${name}`, file);
    }
  }
  if (obj.settings !== undefined) {
    if (typeof obj.settings !== "object" || obj.settings === null || Array.isArray(obj.settings)) {
      throw invalid(file, "settings must be an object");
    }
    for (const [k, v] of Object.entries(obj.settings as Record<string, unknown>)) {
      const type = SETTING_KEYS[k as keyof typeof SETTING_KEYS];
      if (!type) continue; // unknown settings are kept out, not fatal: newer versions may add some
      const ok = type === "number" ? typeof v === "number" : typeof v === "string";
      if (!ok) throw invalid(file, `settings.${k} must be a ${type}`);
      (out.settings as Record<string, unknown>)[k] = v;
    }
  }
  return out;
}

function validateProfile(p: unknown, where: string, file: string): Profile {
  if (typeof p !== "object" || p === null || Array.isArray(p)) {
    throw invalid(file, `${where} must be an object`);
  }
  const out: Profile = {};
  for (const [k, v] of Object.entries(p as Record<string, unknown>)) {
    if (k === "scopes") {
      if (!Array.isArray(v) || !v.every((s) => typeof s === "string")) {
        throw invalid(file, `${where}.scopes must be an array of strings`);
      }
      out.scopes = v as string[];
    } else if (k in PROFILE_KEYS) {
      if (typeof v !== "string") throw invalid(file, `${where}.${k} must be a string`);
      (out as Record<string, unknown>)[k] = v;
    }
  }
  return out;
}

/** Serialises a configuration for config.json. */
export function stringifyConfig(config: ConfigFile): string {
  return JSON.stringify(config, null, 2) + "\n";
}

/** Where a resolved value came from. */
export type Source = "flag" | "env" | "dotenv" | "profile" | "default" | "none";

/** A resolved value and its origin. */
export interface Sourced<T> {
  value: T;
  source: Source;
  /** The variable or key that supplied it, e.g. SVC_CLIENT_ID. */
  from?: string;
}

/** Where the profile in use was chosen: --profile, DIAZO_PROFILE, a .env's DIAZO_PROFILE, active_profile, or none. */
export type ProfileSource = "flag" | "env" | ".env" | "config" | "default";

/** The profile in use and where it was chosen. */
export interface ChosenProfile {
  name: string;
  source: ProfileSource;
}

/** Chooses the profile by precedence flag > environment > .env > config's active_profile > "default". */
export function chooseProfile(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  dotenv: Record<string, string>,
  config: ConfigFile,
): ChosenProfile {
  if (flag !== undefined) return { name: flag, source: "flag" };
  if (env.DIAZO_PROFILE !== undefined) return { name: env.DIAZO_PROFILE, source: "env" };
  if (dotenv.DIAZO_PROFILE !== undefined) return { name: dotenv.DIAZO_PROFILE, source: ".env" };
  if (config.active_profile !== undefined) return { name: config.active_profile, source: "config" };
  return { name: DEFAULT_PROFILE, source: "default" };
}

/** Everything a command needs to know about where and as whom to talk to the platform. */
export interface Resolved {
  profileName: string;
  /** Where the profile was chosen. */
  profileSource: ProfileSource;
  profileExists: boolean;
  profile: Profile;
  clientId: Sourced<string | undefined>;
  clientSecret: Sourced<string | undefined>;
  callbackUrl: Sourced<string>;
  daNickname: Sourced<string | undefined>;
  baseUrl: Sourced<string>;
  /** The default hub (id or name): DIAZO_HUB, else the profile's `hub`. */
  hub: Sourced<string | undefined>;
  /** The default project (id or name): DIAZO_PROJECT, else the profile's `project`. */
  project: Sourced<string | undefined>;
  timeoutSec: number;
  maxAttempts: number;
  retryBaseMs: number;
  /** Longest wait a `Retry-After` may impose, seconds (DIAZO_MAX_RETRY_AFTER, max_retry_after). */
  maxRetryAfterSec: number;
  concurrency: number;
  outputSetting?: string;
  /**
   * Why a timer setting (timeout, retry base, Retry-After cap) was refused; its default is used
   * above, and the HTTP client raises this before any request.
   */
  timerError?: unknown;
  /**
   * Credential variables set in the environment (or .env) that an explicitly chosen profile's own
   * credentials override, as the AWS CLI does with `--profile`; said with --debug.
   */
  ignoredEnv?: string[];
  /** The names of config.json's profiles (for a suggestion when the chosen one does not exist). */
  knownProfiles?: string[];
}

/** Whether the profile was named by the person for this run (`--profile`, `DIAZO_PROFILE`), not by config. */
export function explicitProfile(source: ProfileSource): boolean {
  return source === "flag" || source === "env";
}

/** The profile used when none is chosen; it always exists, even before config.json names it. */
export const DEFAULT_PROFILE = "default";

/** Inputs to `resolve`: each layer as plain data, so that resolution is a pure function. */
export interface ResolveInput {
  flags: { profile?: string; timeout?: number; concurrency?: number };
  env: Record<string, string | undefined>;
  dotenv: Record<string, string>;
  config: ConfigFile;
  /** The .env file the `dotenv` layer was read from, as named in errors (default ".env"). */
  dotenvFile?: string;
}

function pick(
  names: readonly string[],
  env: Record<string, string | undefined>,
  dotenv: Record<string, string>,
  profileValue: string | undefined,
): Sourced<string | undefined> {
  for (const n of names) if (env[n]) return { value: env[n], source: "env", from: n };
  for (const n of names) {
    if (dotenv[n] && env[n] === undefined) return { value: dotenv[n], source: "dotenv", from: n };
  }
  if (profileValue) return { value: profileValue, source: "profile" };
  return { value: undefined, source: "none" };
}

function positive(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isFinite(v) || v <= 0) {
    throw usageError(`${name} must be a positive number, got ${v}`, `Example: ${name} 30`);
  }
  return v;
}

/** A timer setting (seconds or ms) from its first defined source, checked against the timer range. */
/**
 * Checks timer settings, keeping the first refusal instead of throwing it: it is raised where the
 * numbers become timers (the HTTP client, session/session.ts), so that `config set timeout 30` can
 * still repair a config.json whose timeout is out of range.
 */
function timerChecker() {
  let problem: unknown;
  const timer = (name: string, v: number | string | undefined, fallback: number, unit: TimerUnit) => {
    if (v === undefined) return fallback;
    try {
      return timerNumber(name, v, unit);
    } catch (e) {
      problem ??= e;
      return fallback;
    }
  };
  return { timer, problem: () => problem };
}

/** The environment's credential variables, SVC_* before APS_*. */
const CREDENTIAL_VARS = {
  clientId: ["SVC_CLIENT_ID", "APS_CLIENT_ID"],
  clientSecret: ["SVC_CLIENT_SECRET", "APS_CLIENT_SECRET"],
  callbackUrl: ["SVC_CALLBACK_URL", "APS_CALLBACK_URL"],
  daNickname: ["SVC_DA_NICKNAME", "APS_DA_NICKNAME"],
} as const;

/**
 * The app's credentials: the environment's, else .env's, else the profile's — except that a profile
 * named for this run (`--profile`, `DIAZO_PROFILE`) that holds a client id uses its own app, as the
 * AWS CLI does; then the variables it overrides are listed in `ignored`.
 */
function credentials(
  explicit: boolean,
  profile: Profile,
  env: Record<string, string | undefined>,
  dotenv: Record<string, string>,
) {
  const own = explicit && Boolean(profile.client_id);
  const take = (names: readonly string[], value: string | undefined): Sourced<string | undefined> =>
    own
      ? (value ? { value, source: "profile" } : { value: undefined, source: "none" })
      : pick(names, env, dotenv, value);
  const all = Object.values(CREDENTIAL_VARS).flat();
  return {
    clientId: take(CREDENTIAL_VARS.clientId, profile.client_id),
    clientSecret: take(CREDENTIAL_VARS.clientSecret, profile.client_secret),
    callback: own && profile.callback_url
      ? { value: profile.callback_url, source: "profile" as const }
      : pick(CREDENTIAL_VARS.callbackUrl, env, dotenv, profile.callback_url),
    daNickname: own && profile.da_nickname
      ? { value: profile.da_nickname, source: "profile" as const }
      : pick(CREDENTIAL_VARS.daNickname, env, dotenv, profile.da_nickname),
    ignored: own ? all.filter((n) => env[n] || dotenv[n]) : [],
  };
}

/**
 * The platform address without its user name and password (aps/base_url.ts), which are registered as
 * secrets so that no echo of the variable shows them either.
 */
function keptAddress(text: string): string {
  const { address, userinfo } = platformAddress(text);
  if (userinfo !== undefined) {
    registerSecret(userinfo);
    registerSecret(userinfo.slice(userinfo.indexOf(":") + 1));
  }
  return address;
}

/**
 * A .env (a file a cloned directory may bring) may say where the platform is only when it also
 * supplies the app's credentials: otherwise the client id and secret of the shell or of a profile
 * would be sent to the host the directory chose. A usage error naming the file and the variable.
 */
function checkDotenvAddress(
  base: Sourced<string | undefined>,
  creds: { clientId: Sourced<string | undefined>; clientSecret: Sourced<string | undefined> },
  profileName: string,
  file: string,
): void {
  if (base.source !== "dotenv") return;
  const elsewhere = [creds.clientId, creds.clientSecret].find((c) =>
    c.source === "env" || c.source === "profile"
  );
  if (!elsewhere) return;
  const from = elsewhere.source === "env" ? `the environment (${elsewhere.from})` : `profile ${profileName}`;
  throw new DiazoError("dotenv_redirect", {
    params: { file, variable: base.from ?? "DIAZO_BASE_URL", from },
  });
}

/** Resolves settings by precedence flags > env > .env > profile > defaults; SVC_* before APS_*. */
export function resolve(input: ResolveInput): Resolved {
  const { flags, env, dotenv, config } = input;
  const chosen = chooseProfile(flags.profile, env, dotenv, config);
  const profileName = chosen.name;
  const profileExists = profileName in config.profiles;
  const profile = config.profiles[profileName] ?? {};
  const creds = credentials(explicitProfile(chosen.source), profile, env, dotenv);
  const callback = creds.callback;
  const base = pick(["DIAZO_BASE_URL"], env, dotenv, profile.base_url);
  checkDotenvAddress(base, creds, profileName, input.dotenvFile ?? ".env");
  const envText = (name: string) => env[name] || undefined;
  const { timer, problem } = timerChecker();
  const resolved: Resolved = {
    profileName,
    profileSource: chosen.source,
    profileExists,
    profile,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    callbackUrl: callback.value
      ? (callback as Sourced<string>)
      : { value: DEFAULT_CALLBACK_URL, source: "default" },
    daNickname: creds.daNickname,
    baseUrl: base.value
      ? { ...base, value: keptAddress(base.value) } as Sourced<string>
      : { value: DEFAULT_BASE_URL, source: "default" },
    hub: pick(["DIAZO_HUB"], env, dotenv, profile.hub?.trim() || undefined),
    project: pick(["DIAZO_PROJECT"], env, dotenv, profile.project?.trim() || undefined),
    timeoutSec: timer(
      flags.timeout !== undefined ? "--timeout" : env.DIAZO_TIMEOUT ? "DIAZO_TIMEOUT" : "settings.timeout",
      flags.timeout ?? envText("DIAZO_TIMEOUT") ?? config.settings.timeout,
      DEFAULT_TIMEOUT_S,
      "seconds",
    ),
    maxAttempts: Math.floor(positive("max_attempts", config.settings.max_attempts, DEFAULT_MAX_ATTEMPTS)),
    retryBaseMs: timer(
      env.DIAZO_RETRY_BASE_MS ? "DIAZO_RETRY_BASE_MS" : "settings.retry_base_ms",
      envText("DIAZO_RETRY_BASE_MS") ?? config.settings.retry_base_ms,
      DEFAULT_RETRY_BASE_MS,
      "ms",
    ),
    maxRetryAfterSec: timer(
      env.DIAZO_MAX_RETRY_AFTER ? "DIAZO_MAX_RETRY_AFTER" : "settings.max_retry_after",
      envText("DIAZO_MAX_RETRY_AFTER") ?? config.settings.max_retry_after,
      DEFAULT_MAX_RETRY_AFTER_S,
      "seconds",
    ),
    concurrency: Math.floor(
      positive("--concurrency", flags.concurrency ?? config.settings.concurrency, DEFAULT_CONCURRENCY),
    ),
    outputSetting: config.settings.output,
    knownProfiles: Object.keys(config.profiles),
    ...(creds.ignored.length ? { ignoredEnv: creds.ignored } : {}),
  };
  const timerError = problem();
  return timerError === undefined ? resolved : { ...resolved, timerError };
}

/** Masks a secret for display: the first 4 characters and the length. */
export function mask(secret: string | undefined): string {
  if (!secret) return "";
  if (secret.length <= 8) return "****";
  return `${secret.slice(0, 4)}…(${secret.length} chars)`;
}
