/**
 * `config list` and `config unset`: every setting with the value in effect and where it comes from
 * (as `aws configure list` shows), and removing a key so that the next source down applies again.
 */
import { mask, type Resolved, type Sourced } from "../../config/config.ts";
import { DEFAULT_2L_SCOPES } from "../../aps/scopes.ts";
import { type ConfigDeps, knownKey } from "./verbs.ts";

/** One line of `config list`. */
export interface ConfigEntry {
  key: string;
  value: string | null;
  /** Where the value in effect comes from: a flag, a variable's name, `profile <name>`, `config.json`, `default`, or `unset`. */
  source: string;
}

/** What `config list` is told about the run beyond config.json: its flags and environment. */
export interface ConfigListOptions {
  flags: { output?: string; timeout?: number; concurrency?: number };
  env: Record<string, string | undefined>;
}

function fromSourced(
  key: string,
  s: Sourced<string | undefined>,
  profile: string,
  secret = false,
): ConfigEntry {
  const value = s.value === undefined ? null : secret ? mask(s.value) : s.value;
  const source = s.source === "profile"
    ? `profile ${profile}`
    : s.source === "none"
    ? "unset"
    : s.source === "dotenv"
    ? `.env ${s.from}`
    : s.from ?? s.source;
  return { key, value, source };
}

/** A tool setting: the flag, else its variable, else config.json, else the default. */
function setting(
  key: string,
  value: string | number | undefined,
  layers: [source: string, value: string | number | undefined][],
): ConfigEntry {
  for (const [source, v] of layers) {
    if (v !== undefined && v !== "") return { key, value: String(value ?? v), source };
  }
  return { key, value: value === undefined ? null : String(value), source: "default" };
}

/** Every key `config get/set` know, with the value in effect for this run and its source. */
export async function runConfigList(opts: ConfigListOptions, deps: ConfigDeps): Promise<ConfigEntry[]> {
  const r: Resolved = await deps.settings();
  const cfg = await deps.config();
  const s = cfg.settings;
  const { env, flags } = opts;
  const p = r.profileName;
  const profileSource = {
    flag: "--profile",
    env: "DIAZO_PROFILE",
    ".env": ".env DIAZO_PROFILE",
    config: "config.json",
    default: "default",
  }[r.profileSource];
  return [
    { key: "profile", value: p, source: profileSource },
    fromSourced("client_id", r.clientId, p),
    fromSourced("client_secret", r.clientSecret, p, true),
    fromSourced("callback_url", r.callbackUrl, p),
    fromSourced("da_nickname", r.daNickname, p),
    fromSourced("base_url", r.baseUrl, p),
    fromSourced("hub", r.hub, p),
    fromSourced("project", r.project, p),
    r.profile.scopes
      ? { key: "scopes", value: [...r.profile.scopes].sort().join(","), source: `profile ${p}` }
      : { key: "scopes", value: [...DEFAULT_2L_SCOPES].sort().join(","), source: "default" },
    setting("output", undefined, [["--output", flags.output], ["DIAZO_OUTPUT", env.DIAZO_OUTPUT], [
      "config.json",
      s.output,
    ]]),
    setting("timeout", r.timeoutSec, [["--timeout", flags.timeout], ["DIAZO_TIMEOUT", env.DIAZO_TIMEOUT], [
      "config.json",
      s.timeout,
    ]]),
    setting("max_attempts", r.maxAttempts, [["config.json", s.max_attempts]]),
    setting("retry_base_ms", r.retryBaseMs, [["DIAZO_RETRY_BASE_MS", env.DIAZO_RETRY_BASE_MS], [
      "config.json",
      s.retry_base_ms,
    ]]),
    setting("concurrency", r.concurrency, [["--concurrency", flags.concurrency], [
      "config.json",
      s.concurrency,
    ]]),
    setting("max_retry_after", r.maxRetryAfterSec, [["DIAZO_MAX_RETRY_AFTER", env.DIAZO_MAX_RETRY_AFTER], [
      "config.json",
      s.max_retry_after,
    ]]),
  ];
}

/** Removes a setting, or a field of the profile in use; says whether it was set. */
export async function runUnset(opts: { key: string }, deps: ConfigDeps) {
  const { key } = opts;
  const inProfile = knownKey(key) === "profile";
  const cfg = structuredClone(await deps.config());
  const name = (await deps.settings()).profileName;
  const holder = (inProfile ? cfg.profiles[name] : cfg.settings) as Record<string, unknown> | undefined;
  const was = holder !== undefined && key in holder;
  if (was) {
    delete holder![key];
    await deps.saveConfig(cfg);
  }
  deps.info(was ? `Unset ${key}${inProfile ? ` in profile ${name}` : ""}` : `${key} was not set`);
  return { key, unset: was, ...(inProfile ? { profile: name } : {}) };
}
