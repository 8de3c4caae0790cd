/** `diazo auth diagnose|support-report|migrate-from-forge|scope-report` and `diazo logs`. */
import { profileScopes } from "../auth/two_legged.ts";
import { mask } from "../config/config.ts";
import { isDiazoError } from "../core/errors.ts";
import { redact } from "../core/redact.ts";
import { parsePeriod, readScopeUses, summarise } from "../config/scope_usage.ts";
import { parseScopeList, unknownScopes } from "../aps/scopes.ts";
import { versionInfo } from "../core/version.ts";
import { type AnyCommand, type ContextFactory, examples } from "./command.ts";
import type { Ctx } from "./context.ts";
import { checkedScopes } from "./auth_login.ts";

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

/** Runs every diagnostic check. */
export async function diagnose(ctx: Ctx): Promise<Check[]> {
  const r = await ctx.settings();
  const checks: Check[] = [];
  const haveId = Boolean(r.clientId.value);
  const haveSecret = Boolean(r.clientSecret.value);
  checks.push({
    check: "credentials present",
    ok: haveId && haveSecret,
    detail: haveId
      ? `client id from ${r.clientId.from ?? r.clientId.source}; secret ${
        haveSecret ? `from ${r.clientSecret.from ?? r.clientSecret.source}` : "missing"
      }`
      : "no client id (SVC_CLIENT_ID, APS_CLIENT_ID, .env or a profile)",
  });
  const stray = [
    ...credentialProblems("client id", r.clientId.value),
    ...credentialProblems("client secret", r.clientSecret.value),
  ];
  checks.push({
    check: "no stray characters",
    ok: stray.length === 0,
    detail: stray.join("; ") || "none found",
  });
  const cb = callbackProblems(r.callbackUrl.value);
  checks.push({
    check: "callback URL shape",
    ok: cb.length === 0,
    detail: cb.length ? `${r.callbackUrl.value}: ${cb.join("; ")}` : r.callbackUrl.value,
  });
  const st = await ctx.tokenStoreStatus();
  checks.push({
    check: "keychain",
    ok: true,
    detail: `tokens kept in the ${st.kind} store at ${st.location}${st.reason ? ` (${st.reason})` : ""}`,
  });
  const http = await ctx.http({ auth: "none" });
  const t0 = Date.now();
  try {
    const res = await http.request({
      path: "/.well-known/openid-configuration",
      auth: "none",
      responseType: "none",
      retry: "never",
    });
    const ms = Date.now() - t0;
    checks.push({
      check: "connectivity",
      ok: true,
      detail: `${r.baseUrl.value} answered ${res.status} in ${ms} ms`,
    });
    const date = res.headers.get("date");
    if (date) {
      const skew = Math.round((Date.parse(date) - (t0 + ms / 2)) / 1000);
      checks.push({
        check: "clock skew",
        ok: Math.abs(skew) <= 60,
        detail: `${skew >= 0 ? "+" : ""}${skew} s against the server's Date header`,
      });
    } else {
      checks.push({ check: "clock skew", ok: true, detail: "the server sent no Date header" });
    }
  } catch (e) {
    checks.push({ check: "connectivity", ok: false, detail: isDiazoError(e) ? e.message : String(e) });
  }
  return checks;
}

/** Registers the report commands on `auth` and the `logs` command on the program. */
export function registerReportCommands(auth: AnyCommand, makeCtx: ContextFactory): void {
  const diag = auth.command("diagnose").description(
    "check credentials, callback URL, token store, connectivity and clock skew",
  )
    .action(async (_o, cmd) => {
      const ctx = makeCtx(cmd);
      const checks = await diagnose(ctx);
      for (const c of checks) ctx.info(`${c.ok ? "ok  " : "FAIL"} ${c.check}: ${c.detail}`);
      if (checks.some((c) => !c.ok)) ctx.setExitCode(1);
      await ctx.emit(checks, { columns: ["check", "ok", "detail"] });
    });
  examples(diag, ["diazo auth diagnose"]);

  const report = auth.command("support-report").description(
    "a report to share when asking for help; never contains secrets",
  )
    .option("--sanitize", "also mask client ids, user ids and local paths")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const r = await ctx.settings();
      const cfg = await ctx.config();
      const tokens = Object.values(await (await ctx.tokenStore()).list(r.profileName));
      const id = (v: string | undefined | null) => (v && opts.sanitize ? mask(v) : v ?? null);
      const envNames = Object.keys(ctx.env).filter((k) => /^(SVC_|APS_|DIAZO_|FORGE_)/.test(k)).sort();
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
        diagnose: await diagnose(ctx),
        config_dir: opts.sanitize ? "<config dir>" : ctx.configDir,
      };
      // Everything goes through redaction as a last net: secrets, tokens, codes and signatures.
      let text = redact(JSON.stringify(value), [
        r.clientSecret.value ?? "",
        ...tokens.flatMap((t) => [t.access_token, t.refresh_token ?? ""]),
      ]);
      if (opts.sanitize && r.clientId.value) text = text.split(r.clientId.value).join(mask(r.clientId.value));
      await ctx.emit(JSON.parse(text));
    });
  examples(report, ["diazo auth support-report --sanitize -o json > report.json"]);

  const migrate = auth.command("migrate-from-forge")
    .description("copy legacy FORGE_* credentials into a profile; scope names are unchanged")
    .option("--verify-scopes", "request a token with the profile's scopes to prove they are granted")
    .option("--scopes <list>", "legacy scope list to carry over (default: the profile's)")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const r = await ctx.settings();
      const cfg = structuredClone(await ctx.config());
      const p = (cfg.profiles[r.profileName] ??= {});
      const moved: string[] = [];
      for (
        const [legacy, key] of [["FORGE_CLIENT_ID", "client_id"], ["FORGE_CLIENT_SECRET", "client_secret"], [
          "FORGE_CALLBACK_URL",
          "callback_url",
        ]] as const
      ) {
        const v = ctx.env[legacy];
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
      await ctx.saveConfig(cfg);
      let verified: boolean | null = null;
      if (opts.verifyScopes) {
        const { twoLeggedToken } = await import("../auth/two_legged.ts");
        const fresh = await ctx.settings();
        const { token } = await twoLeggedToken({
          resolved: fresh,
          store: await ctx.tokenStore(),
          authHttp: await ctx.http({ auth: "none" }),
        }, { force: true });
        verified = scopes.every((s) => token.scopes.includes(s));
        if (!verified) ctx.setExitCode(3);
      }
      ctx.info(
        moved.length
          ? `Moved ${moved.join(", ")} into profile ${r.profileName}`
          : "No FORGE_* variables to move (already configured or not set).",
      );
      await ctx.emit({ profile: r.profileName, moved, scopes: mapping, verified });
    });
  examples(migrate, [
    "FORGE_CLIENT_ID=... FORGE_CLIENT_SECRET=... diazo auth migrate-from-forge --verify-scopes",
  ]);

  const scopeReport = auth.command("scope-report").description(
    "which scopes your commands used in a period, and granted ones never used",
  )
    .option("--period <period>", "period, e.g. 7d, 24h", "30d")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const since = Date.now() - parsePeriod(opts.period);
      const r = await ctx.settings();
      const uses = (await readScopeUses(ctx.stateDir, since)).filter((u) => u.profile === r.profileName);
      const s = summarise(uses, profileScopes(r));
      if (s.unused_granted.length) {
        ctx.info(
          `Granted but unused in ${opts.period}: ${
            s.unused_granted.join(", ")
          } (consider \`diazo auth reduce-scopes\`)`,
        );
      }
      await ctx.emit({ period: opts.period, profile: r.profileName, commands: uses.length, ...s });
    });
  examples(scopeReport, ["diazo auth scope-report --period 7d"]);
}

/** Registers `diazo logs`. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const logs = program.command("logs").description("local logs: which scopes each command used")
    .option("--scope-usage", "show the scope-usage log")
    .option("--last <period>", "only the last period, e.g. 7d, 12h", "7d")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const uses = await readScopeUses(ctx.stateDir, Date.now() - parsePeriod(opts.last));
      await ctx.emit(uses, { columns: ["time", "command", "profile", "mode", "scopes", "exit"] });
    });
  examples(logs, [
    "diazo logs --scope-usage --last 7d",
    "diazo logs --scope-usage -o json --query '[].command'",
  ]);
}
