/** `diazo config ...`: profiles and settings. */
import path from "node:path";
import {
  type ConfigFile,
  mask,
  parseConfig,
  type Profile,
  PROFILE_KEYS,
  SETTING_KEYS,
  type Settings,
} from "../config/config.ts";
import { DiazoError, usageError } from "../core/errors.ts";
import { isOutputFormat, OUTPUT_FORMATS } from "../core/output.ts";
import { parseScopeList, unknownScopes } from "../aps/scopes.ts";
import { suggest } from "../core/suggest.ts";
import { type AnyCommand, type ContextFactory, examples } from "./command.ts";
import type { Ctx } from "./context.ts";

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
  const names = Object.keys(config.profiles);
  const close = suggest(name, names);
  throw new DiazoError("not_found", {
    params: { what: `profile '${name}'${close ? ` (did you mean ${close}?)` : ""}` },
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
  if (key === "output" && !isOutputFormat(value)) {
    throw usageError(`invalid output format '${value}'`, `Use one of: ${OUTPUT_FORMATS.join(", ")}.`);
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

function knownKey(key: string): "profile" | "setting" {
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

async function activeName(ctx: Ctx): Promise<string> {
  return (await ctx.settings()).profileName;
}

/** Registers the config family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const config = program.command("config").description("profiles and settings");
  const profile = config.command("profile").description("manage named credential profiles");

  const create = profile.command("create")
    .description("create a profile (the secret is read from stdin, never from argv)")
    .argument("<name>", "profile name")
    .option("--client-id <id>", "client id of the app")
    .option("--client-secret-stdin", "read the client secret from stdin")
    .option("--callback-url <url>", "3-legged callback URL")
    .option("--base-url <url>", "platform address (e.g. a sandbox URL)")
    .option("--da-nickname <name>", "Design Automation nickname")
    .option("--use", "make it the active profile")
    .option("--force", "replace an existing profile of that name")
    .action(async (name, opts, cmd) => {
      const ctx = makeCtx(cmd);
      checkName(name);
      const cfg = structuredClone(await ctx.config());
      if (cfg.profiles[name] && !opts.force) {
        throw new DiazoError("conflict", {
          params: { detail: `profile '${name}' already exists (use --force to replace it)` },
        });
      }
      const p: Profile = {};
      if (opts.clientId) p.client_id = opts.clientId;
      if (opts.clientSecretStdin) {
        const secret = (await ctx.io.stdin.readText()).trim();
        if (!secret) {
          throw usageError(
            "no client secret on stdin",
            'Pipe it in: printf %s "$SECRET" | diazo config profile create NAME --client-secret-stdin',
          );
        }
        p.client_secret = secret;
      }
      if (opts.callbackUrl) checkUrl("callback_url", p.callback_url = opts.callbackUrl);
      if (opts.baseUrl) checkUrl("base_url", p.base_url = opts.baseUrl.replace(/\/+$/, ""));
      if (opts.daNickname) p.da_nickname = opts.daNickname;
      cfg.profiles[name] = p;
      if (opts.use || !cfg.active_profile) cfg.active_profile = name;
      await ctx.saveConfig(cfg);
      ctx.info(`Created profile ${name}${cfg.active_profile === name ? " (active)" : ""}`);
      await ctx.emit({
        name,
        active: cfg.active_profile === name,
        ...exportable(p, false),
        has_secret: Boolean(p.client_secret),
      });
    });
  examples(create, [
    "diazo config profile create work --client-id ABC --use",
    'printf %s "$SECRET" | diazo config profile create ci --client-id ABC --client-secret-stdin',
    "diazo config profile create local --base-url http://127.0.0.1:8787 --client-id diazo-sandbox",
  ]);

  const list = profile.command("list").alias("ls").description("list profiles")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      const cfg = await ctx.config();
      const active = await activeName(ctx);
      await ctx.emit(
        Object.entries(cfg.profiles).map(([name, p]) => ({
          name,
          active: name === active,
          client_id: p.client_id ?? null,
          base_url: p.base_url ?? null,
          has_secret: Boolean(p.client_secret),
        })),
        { columns: ["name", "active", "client_id", "base_url", "has_secret"] },
      );
    });
  examples(list, ["diazo config profile list"]);

  const use = profile.command("use").description("make a profile the active one").argument(
    "<name>",
    "profile name",
  )
    .action(async (name, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      const cfg = structuredClone(await ctx.config());
      requireProfile(cfg, name);
      cfg.active_profile = name;
      await ctx.saveConfig(cfg);
      ctx.info(`Active profile: ${name}`);
      await ctx.emit({ name, active: true });
    });
  examples(use, ["diazo config profile use work"]);

  const current = profile.command("current").description("print the profile in use and why")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      const resolved = await ctx.settings();
      const source = ctx.flags.profile
        ? "flag"
        : ctx.env.DIAZO_PROFILE
        ? "env"
        : (await ctx.config()).active_profile
        ? "config"
        : "default";
      await ctx.emit({ name: resolved.profileName, exists: resolved.profileExists, source });
    });
  examples(current, ["diazo config profile current"]);

  const del = profile.command("delete").alias("rm").description("delete a profile").argument(
    "<name>",
    "profile name",
  )
    .action(async (name, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      const cfg = structuredClone(await ctx.config());
      requireProfile(cfg, name);
      if (!(await ctx.confirmOrCancel(`Delete profile ${name}?`))) return;
      delete cfg.profiles[name];
      if (cfg.active_profile === name) delete cfg.active_profile;
      await ctx.saveConfig(cfg);
      const removedTokens = await (await ctx.tokenStore()).removeProfile(name);
      ctx.info(`Deleted profile ${name}`);
      await ctx.emit({ name, deleted: true, tokens_removed: removedTokens });
    });
  examples(del, ["diazo config profile delete old --yes"]);

  const exp = profile.command("export")
    .description("export profiles as JSON (client secrets only with --include-secrets)")
    .argument("[names...]", "profiles to export (default: all)")
    .option("--include-secrets", "include client secrets in the export")
    .action(async (names, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const cfg = await ctx.config();
      const chosen = names.length ? names : Object.keys(cfg.profiles);
      const profiles: Record<string, Profile> = {};
      for (const n of chosen) profiles[n] = exportable(requireProfile(cfg, n), Boolean(opts.includeSecrets));
      if (opts.includeSecrets) ctx.warn("the export contains client secrets; keep it private");
      await ctx.emit({ version: 1, profiles });
    });
  examples(exp, [
    "diazo config profile export > profiles.json",
    "diazo config profile export work --include-secrets -o json",
  ]);

  const imp = profile.command("import")
    .description("import profiles from a JSON export ('-' reads stdin)")
    .argument("<file>", "export file, or -")
    .option("--force", "replace profiles that already exist")
    .action(async (file, opts, cmd) => {
      const ctx = makeCtx(cmd);
      let text: string;
      try {
        text = file === "-"
          ? await ctx.io.stdin.readText()
          : await Deno.readTextFile(path.resolve(ctx.cwd, file));
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) throw new DiazoError("file_not_found", { params: { file } });
        throw e;
      }
      const incoming = parseConfig(text, file === "-" ? "<stdin>" : file);
      const cfg = structuredClone(await ctx.config());
      const names = Object.keys(incoming.profiles);
      if (names.length === 0) {
        throw usageError(
          `no profiles in ${file}`,
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
      await ctx.saveConfig(cfg);
      ctx.info(`Imported ${names.length} profile(s): ${names.join(", ")}`);
      await ctx.emit({ imported: names });
    });
  examples(imp, [
    "diazo config profile import profiles.json",
    "cat profiles.json | diazo config profile import - --force",
  ]);

  const get = config.command("get").description("print a setting or a field of the active profile").argument(
    "<key>",
    "key",
  )
    .option("--show-secret", "print client_secret unmasked")
    .action(async (key, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const kind = knownKey(key);
      const cfg = await ctx.config();
      const name = await activeName(ctx);
      let value = kind === "profile"
        ? (cfg.profiles[name] as Record<string, unknown> | undefined)?.[key]
        : (cfg.settings as Record<string, unknown>)[key];
      if (key === "client_secret" && typeof value === "string" && !opts.showSecret) value = mask(value);
      await ctx.emit({ key, value: value ?? null, ...(kind === "profile" ? { profile: name } : {}) });
    });
  examples(get, ["diazo config get output", "diazo config get client_id --profile work"]);

  const set = config.command("set").description("change a setting or a field of the active profile")
    .argument("<key>", "key").argument("<value>", "value")
    .action(async (key, value, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      const kind = knownKey(key);
      if (key === "client_secret") {
        throw usageError(
          "secrets are not accepted on the command line",
          "Use `diazo config profile create NAME --client-secret-stdin --force`.",
        );
      }
      const parsed = parseValue(key, value);
      const cfg = structuredClone(await ctx.config());
      const name = await activeName(ctx);
      if (kind === "profile") {
        checkName(name);
        const p = (cfg.profiles[name] ??= {}) as Record<string, unknown>;
        p[key] = parsed;
        cfg.active_profile ??= name;
      } else {
        (cfg.settings as Record<string, unknown>)[key] = parsed as Settings[keyof Settings];
      }
      await ctx.saveConfig(cfg);
      await ctx.emit({ key, value: parsed, ...(kind === "profile" ? { profile: name } : {}) });
    });
  examples(set, [
    "diazo config set output json",
    "diazo config set base_url http://127.0.0.1:8787",
    "diazo config set scopes bucket:read,data:read",
  ]);
}
