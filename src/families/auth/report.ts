/**
 * The reporting verbs of `auth` and `logs`: diagnose, support-report, migrate-from-forge,
 * scope-report and the scope-usage log. They return what they found; the caller shows it.
 */
import { mask } from "../../config/config.ts";
import type { ScopeUse } from "../../config/scope_usage.ts";
import { parsePeriod, readScopeUses, summarise } from "../../config/scope_report.ts";
import { isDiazoError } from "../../core/errors.ts";
import { redact } from "../../core/redact.ts";
import { versionInfo } from "../../core/version.ts";
import { parseScopeList, unknownScopes } from "../../aps/scopes.ts";
import { profileScopes } from "../../auth/two_legged.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { appToken, type ProfileDeps } from "./verbs.ts";
import { checkedScopes } from "./scopes.ts";

/** One diagnostic check. */
export interface Check {
  check: string;
  ok: boolean;
  detail: string;
}

/** Checks a credential value for the usual copy-and-paste accidents. */
export function credentialProblems(name: string, value: string | undefined): string[] {
  if (value === undefined) return [];
  const out: string[] = [];
  if (value !== value.trim()) out.push(`${name} has leading or trailing spaces`);
  if (/^["'].*["']$/.test(value)) out.push(`${name} is wrapped in quotes`);
  if (/\s/.test(value.trim())) out.push(`${name} contains white space`);
  return out;
}

/** Checks the shape of a callback URL. */
export function callbackProblems(url: string): string[] {
  try {
    const u = new URL(url);
    const out: string[] = [];
    if (u.protocol !== "http:" && u.protocol !== "https:") out.push("it must use http or https");
    if (u.protocol === "http:" && !["localhost", "127.0.0.1", "[::1]"].includes(u.hostname)) {
      out.push("plain http is only allowed for localhost");
    }
    if (u.pathname === "/" || u.pathname === "") out.push("it has no path (e.g. /callback)");
    if (u.search || u.hash) out.push("it must not carry a query or fragment");
    return out;
  } catch {
    return ["it is not a URL"];
  }
}

/** The checks that need no network: credentials, their shape, the callback URL, the token store. */
async function localChecks(deps: OpsDeps): Promise<Check[]> {
  const r = await deps.settings();
  const haveId = Boolean(r.clientId.value);
  const haveSecret = Boolean(r.clientSecret.value);
  const stray = [
    ...credentialProblems("client id", r.clientId.value),
    ...credentialProblems("client secret", r.clientSecret.value),
  ];
  const cb = callbackProblems(r.callbackUrl.value);
  const st = await deps.tokenStoreStatus();
  return [
    {
      check: "credentials present",
      ok: haveId && haveSecret,
      detail: haveId
        ? `client id from ${r.clientId.from ?? r.clientId.source}; secret ${
          haveSecret ? `from ${r.clientSecret.from ?? r.clientSecret.source}` : "missing"
        }`
        : "no client id (SVC_CLIENT_ID, APS_CLIENT_ID, .env or a profile)",
    },
    { check: "no stray characters", ok: stray.length === 0, detail: stray.join("; ") || "none found" },
    {
      check: "callback URL shape",
      ok: cb.length === 0,
      detail: cb.length ? `${r.callbackUrl.value}: ${cb.join("; ")}` : r.callbackUrl.value,
    },
    {
      check: "keychain",
      ok: true,
      detail: `tokens kept in the ${st.kind} store at ${st.location}${st.reason ? ` (${st.reason})` : ""}`,
    },
  ];
}

/** Whether the platform answers, and how far the local clock is from its Date header. */
async function networkChecks(deps: OpsDeps): Promise<Check[]> {
  const r = await deps.settings();
  const http = await deps.http({ auth: "none" });
  const t0 = Date.now();
  try {
    const res = await http.request({
      path: "/.well-known/openid-configuration",
      auth: "none",
      responseType: "none",
      retry: "never",
    });
    const ms = Date.now() - t0;
    const connectivity = {
      check: "connectivity",
      ok: true,
      detail: `${r.baseUrl.value} answered ${res.status} in ${ms} ms`,
    };
    const date = res.headers.get("date");
    if (!date) {
      return [connectivity, { check: "clock skew", ok: true, detail: "the server sent no Date header" }];
    }
    const skew = Math.round((Date.parse(date) - (t0 + ms / 2)) / 1000);
    return [connectivity, {
      check: "clock skew",
      ok: Math.abs(skew) <= 60,
      detail: `${skew >= 0 ? "+" : ""}${skew} s against the server's Date header`,
    }];
  } catch (e) {
    return [{ check: "connectivity", ok: false, detail: isDiazoError(e) ? e.message : String(e) }];
  }
}

/** `auth diagnose`: every diagnostic check, in order. */
export async function runDiagnose(_opts: Record<string, never>, deps: OpsDeps): Promise<Check[]> {
  return [...await localChecks(deps), ...await networkChecks(deps)];
}

/** `auth support-report`: what to share when asking for help; never secrets, and with `sanitize` no ids or paths. */
export async function runSupportReport(opts: { sanitize?: boolean }, deps: ProfileDeps): Promise<unknown> {
  const r = await deps.settings();
  const cfg = await deps.config();
  const tokens = Object.values(await (await deps.tokenStore()).list(r.profileName));
  const id = (v: string | undefined | null) => (v && opts.sanitize ? mask(v) : v ?? null);
  const envNames = Object.keys(deps.env).filter((k) => /^(SVC_|APS_|DIAZO_|FORGE_)/.test(k)).sort();
  const value = {
    version: versionInfo(),
    os: Deno.build.os,
    profile: r.profileName,
    base_url: r.baseUrl.value,
    client_id: id(r.clientId.value),
    callback_url: r.callbackUrl.value,
    environment_variables_set: envNames,
    profiles: Object.keys(cfg.profiles),
    settings: cfg.settings,
    tokens: tokens.map((t) => ({
      mode: t.mode,
      scopes: t.scopes,
      expires_at: new Date(t.expires_at).toISOString(),
      expired: t.expires_at <= Date.now(),
    })),
    diagnose: await runDiagnose({}, deps),
    config_dir: opts.sanitize ? "<config dir>" : deps.configDir,
  };
  // Everything goes through redaction as a last net: secrets, tokens, codes and signatures.
  let text = redact(JSON.stringify(value), [
    r.clientSecret.value ?? "",
    ...tokens.flatMap((t) => [t.access_token, t.refresh_token ?? ""]),
  ]);
  if (opts.sanitize && r.clientId.value) text = text.split(r.clientId.value).join(mask(r.clientId.value));
  return JSON.parse(text);
}

/** What `auth migrate-from-forge` returns: what moved, how scope names map, whether they were verified. */
export interface MigrateResult {
  profile: string;
  moved: string[];
  scopes: { legacy: string; current: string | null }[];
  /** Null when not asked to verify. */
  verified: boolean | null;
}

const LEGACY_NAMES = [
  ["FORGE_CLIENT_ID", "client_id"],
  ["FORGE_CLIENT_SECRET", "client_secret"],
  ["FORGE_CALLBACK_URL", "callback_url"],
] as const;

/** `auth migrate-from-forge`: copies FORGE_* credentials into the profile where it has none. */
export async function runMigrateFromForge(
  opts: { scopes?: string; verifyScopes?: boolean },
  deps: ProfileDeps,
): Promise<MigrateResult> {
  const r = await deps.settings();
  const cfg = structuredClone(await deps.config());
  const p = (cfg.profiles[r.profileName] ??= {});
  const moved: string[] = [];
  for (const [legacy, key] of LEGACY_NAMES) {
    const v = deps.env[legacy];
    if (v && !p[key]) {
      p[key] = v;
      moved.push(`${legacy} -> ${key}`);
    }
  }
  const scopes = opts.scopes ? parseScopeList(opts.scopes) : profileScopes(r);
  const unknown = unknownScopes(scopes);
  const mapping = scopes.map((s) => ({ legacy: s, current: unknown.includes(s) ? null : s }));
  if (opts.scopes) p.scopes = checkedScopes(opts.scopes, "2-legged");
  cfg.active_profile ??= r.profileName;
  await deps.saveConfig(cfg);
  let verified: boolean | null = null;
  if (opts.verifyScopes) {
    const token = await appToken(deps, { force: true });
    verified = scopes.every((s) => token.scopes.includes(s));
  }
  return { profile: r.profileName, moved, scopes: mapping, verified };
}

/** `auth scope-report`: which scopes the profile's commands used in `period`, and granted ones never used. */
export async function runScopeReport(opts: { period: string }, deps: OpsDeps) {
  const since = Date.now() - parsePeriod(opts.period);
  const r = await deps.settings();
  const uses = (await readScopeUses(deps.stateDir, since)).filter((u) => u.profile === r.profileName);
  return {
    period: opts.period,
    profile: r.profileName,
    commands: uses.length,
    ...summarise(uses, profileScopes(r)),
  };
}

/** `logs --scope-usage`: the scope-usage log of the last period. */
export async function runLogs(opts: { last: string }, deps: OpsDeps): Promise<ScopeUse[]> {
  return await readScopeUses(deps.stateDir, Date.now() - parsePeriod(opts.last));
}
