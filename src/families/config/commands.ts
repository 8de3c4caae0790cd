/** `diazo config ...`: profiles and settings, a thin commander adapter over families/config/verbs.ts. */
import path from "node:path";
import { DiazoError, usageError } from "../../core/errors.ts";
import { readInputText } from "../../core/input_file.ts";
import {
  runGet,
  runProfileCreate,
  runProfileCurrent,
  runProfileDelete,
  runProfileExport,
  runProfileImport,
  runProfileList,
  runProfileUse,
  runSet,
} from "./verbs.ts";
import { runConfigList, runUnset } from "./list.ts";
import { PROFILE_KEYS, SETTING_KEYS } from "../../config/config.ts";
import { type AnyCommand, type ContextFactory, examples } from "../../command/command.ts";
import type { Ctx } from "../../command/context.ts";

/** What a key argument of get/set/unset names, for their help. */
const KEY_HELP = `a setting (${Object.keys(SETTING_KEYS).join(", ")}) or a field of the profile in use (${
  Object.keys(PROFILE_KEYS).join(", ")
})`;

/**
 * The client secret typed at a terminal, not echoed (`config profile create` without
 * --client-secret-stdin); undefined when stdin is no terminal or the run may not ask, or when
 * nothing is typed (a profile without a secret, e.g. for a user login only).
 */
async function secretFromTerminal(ctx: Ctx, name: string): Promise<string | undefined> {
  if (!ctx.interactive || !ctx.io.stdin.readSecret) return undefined;
  ctx.io.stderr.write(`Client secret for profile ${name} (not shown; Enter for none): `);
  const typed = (await ctx.io.stdin.readSecret())?.trim();
  ctx.io.stderr.write("\n");
  return typed || undefined;
}

/** The client secret piped on stdin; never empty. */
async function secretFromStdin(ctx: Ctx): Promise<string> {
  const secret = (await ctx.io.stdin.readText()).trim();
  if (!secret) {
    throw usageError(
      "no client secret on stdin",
      'Pipe it in: printf %s "$SECRET" | diazo config profile create NAME --client-secret-stdin',
    );
  }
  return secret;
}

/** The text of an export file (a regular file within its cap), or of stdin for `-`. */
async function readExport(ctx: Ctx, file: string): Promise<string> {
  try {
    return file === "-"
      ? await ctx.io.stdin.readText()
      : (await readInputText(path.resolve(ctx.cwd, file), "profiles", { shown: file }))!;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new DiazoError("file_not_found", { params: { file } });
    throw e;
  }
}

function registerProfile(config: AnyCommand, makeCtx: ContextFactory): void {
  const profile = config.command("profile").description("manage named credential profiles");
  examples(profile, [
    "diazo config profile create work --client-id ID --use",
    "diazo config profile current",
  ]);

  const create = profile.command("create")
    .description("create a profile (the secret is read from stdin, never from argv)")
    .argument("<name>", "profile name: letters, digits, '.', '_' and '-'")
    .option("--client-id <id>", "client id of the app")
    .option(
      "--client-secret-stdin",
      "read the client secret from stdin (on a terminal without it, the secret is asked for, not shown)",
    )
    .option("--callback-url <url>", "3-legged callback URL")
    .option("--base-url <url>", "platform address (e.g. a sandbox URL)")
    .option("--da-nickname <name>", "Design Automation nickname")
    .option("--use", "make it the active profile")
    .option("--force", "replace an existing profile of that name")
    .action(async (name, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const clientSecret = opts.clientSecretStdin
        ? await secretFromStdin(ctx)
        : await secretFromTerminal(ctx, name);
      await ctx.emit(await runProfileCreate({ ...opts, name, clientSecret }, ctx));
    });
  examples(create, [
    "diazo config profile create work --client-id ABC --use",
    'printf %s "$SECRET" | diazo config profile create ci --client-id ABC --client-secret-stdin',
    "diazo config profile create local --base-url http://127.0.0.1:8787 --client-id diazo-sandbox",
  ]);

  const list = profile.command("list").alias("ls").description("list profiles")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runProfileList({}, ctx), {
        columns: ["name", "active", "client_id", "base_url", "has_secret"],
      });
    });
  examples(list, ["diazo config profile list"]);

  const use = profile.command("use").description("make a profile the active one")
    .argument("<name>", "profile name")
    .action(async (name, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runProfileUse({ name }, ctx));
    });
  examples(use, ["diazo config profile use work"]);

  const current = profile.command("current")
    .description("print the profile in use and why (flag, env, .env, config or default)")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      const chosen = { name: ctx.run.profile, source: ctx.run.profileSource };
      await ctx.emit(await runProfileCurrent({ chosen }, ctx));
    });
  examples(current, ["diazo config profile current"]);

  const del = profile.command("delete").alias("rm").description("delete a profile")
    .argument("<name>", "profile name")
    .action(async (name, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      const deleted = await runProfileDelete({ name, confirm: (q) => ctx.confirmOrCancel(q) }, ctx);
      if (deleted) await ctx.emit(deleted);
    });
  examples(del, ["diazo config profile delete old --yes"]);
  registerTransfer(profile, makeCtx);
}

/** `profile export` and `profile import`. */
function registerTransfer(profile: AnyCommand, makeCtx: ContextFactory): void {
  const exp = profile.command("export")
    .description("export profiles as JSON (client secrets only with --include-secrets)")
    .argument("[names...]", "profiles to export (default: all)")
    .option("--include-secrets", "include client secrets in the export")
    .action(async (names, opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runProfileExport({ names, includeSecrets: opts.includeSecrets }, ctx));
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
      const text = await readExport(ctx, file);
      const source = file === "-" ? "<stdin>" : file;
      await ctx.emit(await runProfileImport({ text, source, force: opts.force }, ctx));
    });
  examples(imp, [
    "diazo config profile import profiles.json",
    "cat profiles.json | diazo config profile import - --force",
  ]);
}

/** Registers the config family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const config = program.command("config").description("profiles and settings");
  examples(config, ["diazo config profile current", "diazo config set timeout 120", "diazo help config"]);
  registerProfile(config, makeCtx);

  const list = config.command("list").alias("ls")
    .description("every setting and profile field with the value in effect and where it comes from")
    .action(async (_opts, cmd) => {
      const ctx = makeCtx(cmd);
      const { output, timeout, concurrency } = ctx.flags;
      await ctx.emit(await runConfigList({ flags: { output, timeout, concurrency }, env: ctx.env }, ctx), {
        columns: ["key", "value", "source"],
      });
    });
  examples(list, ["diazo config list", "diazo config list --profile work -o json"]);

  const get = config.command("get").description("print a setting or a field of the active profile")
    .argument("<key>", KEY_HELP)
    .option("--show-secret", "print client_secret unmasked")
    .action(async (key, opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runGet({ key, showSecret: opts.showSecret }, ctx));
    });
  examples(get, ["diazo config get output", "diazo config get client_id --profile work"]);

  const set = config.command("set").description("change a setting or a field of the active profile")
    .argument("<key>", KEY_HELP)
    .argument(
      "<value>",
      'the new value: a format for output, seconds for timeout, a comma-separated list for scopes, a URL for base_url and callback_url; "" removes the key',
    )
    .action(async (key, value, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(value === "" ? await runUnset({ key }, ctx) : await runSet({ key, value }, ctx));
    });
  examples(set, [
    "diazo config set output json",
    "diazo config set base_url http://127.0.0.1:8787",
    "diazo config set scopes bucket:read,data:read",
  ]);

  const unset = config.command("unset")
    .description("remove a setting or a field of the active profile (the next source down applies)")
    .argument("<key>", KEY_HELP)
    .action(async (key, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runUnset({ key }, ctx));
    });
  examples(unset, ["diazo config unset output", "diazo config unset base_url --profile work"]);
}
