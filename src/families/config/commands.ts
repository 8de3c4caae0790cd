/** `diazo config ...`: profiles and settings, declared as data (command/decl.ts) over families/config/verbs.ts. */
import { DiazoError, usageError } from "../../core/errors.ts";
import { readInputText } from "../../core/input_file.ts";
import { resolveFrom } from "../../platform/path.ts";
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
import type { CommandDecl } from "../../command/decl.ts";
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
      : (await readInputText(await resolveFrom(ctx.cwd, file), "profiles", { shown: file }))!;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new DiazoError("file_not_found", { params: { file } });
    throw e;
  }
}

/** `config profile export` and `config profile import`. */
const TRANSFER: readonly CommandDecl[] = [
  {
    name: "export",
    description: "export profiles as JSON (client secrets only with --include-secrets)",
    args: [{ spec: "[names...]", description: "profiles to export (default: all)", complete: "profile" }],
    options: [{ flags: "--include-secrets", description: "include client secrets in the export" }],
    examples: [
      "diazo config profile export > profiles.json",
      "diazo config profile export work --include-secrets -o json",
    ],
    run: async (ctx, [names]: string[][], opts: { includeSecrets?: boolean }) => {
      await ctx.emit(await runProfileExport({ names, includeSecrets: opts.includeSecrets }, ctx));
    },
  },
  {
    name: "import",
    description: "import profiles from a JSON export ('-' reads stdin)",
    args: [{ spec: "<file>", description: "export file, or -" }],
    options: [{ flags: "--force", description: "replace profiles that already exist" }],
    examples: [
      "diazo config profile import profiles.json",
      "cat profiles.json | diazo config profile import - --force",
    ],
    run: async (ctx, [file]: string[], opts: { force?: boolean }) => {
      const text = await readExport(ctx, file);
      const source = file === "-" ? "<stdin>" : file;
      await ctx.emit(await runProfileImport({ text, source, force: opts.force }, ctx));
    },
  },
];

/** The options of `config profile create`, by key. */
interface CreateOpts {
  clientId?: string;
  clientSecretStdin?: boolean;
  callbackUrl?: string;
  baseUrl?: string;
  daNickname?: string;
  use?: boolean;
  force?: boolean;
}

/** `config profile create`. */
const PROFILE_CREATE: CommandDecl = {
  name: "create",
  description: "create a profile (the secret is read from stdin, never from argv)",
  args: [{ spec: "<name>", description: "profile name: letters, digits, '.', '_' and '-'" }],
  options: [
    { flags: "--client-id <id>", description: "client id of the app" },
    {
      flags: "--client-secret-stdin",
      description:
        "read the client secret from stdin (on a terminal without it, the secret is asked for, not shown)",
    },
    { flags: "--callback-url <url>", description: "3-legged callback URL" },
    { flags: "--base-url <url>", description: "platform address (e.g. a sandbox URL)" },
    { flags: "--da-nickname <name>", description: "Design Automation nickname" },
    { flags: "--use", description: "make it the active profile" },
    { flags: "--force", description: "replace an existing profile of that name" },
  ],
  examples: [
    "diazo config profile create work --client-id ABC --use",
    'printf %s "$SECRET" | diazo config profile create ci --client-id ABC --client-secret-stdin',
    "diazo config profile create local --base-url http://127.0.0.1:8787 --client-id diazo-sandbox",
  ],
  run: async (ctx, [name]: string[], opts: CreateOpts) => {
    const clientSecret = opts.clientSecretStdin
      ? await secretFromStdin(ctx)
      : await secretFromTerminal(ctx, name);
    await ctx.emit(await runProfileCreate({ ...opts, name, clientSecret }, ctx));
  },
};

/** `config profile ...`: named credential profiles. */
const PROFILE: CommandDecl = {
  name: "profile",
  description: "manage named credential profiles",
  examples: ["diazo config profile create work --client-id ID --use", "diazo config profile current"],
  commands: [
    PROFILE_CREATE,
    {
      name: "list",
      aliases: ["ls"],
      description: "list profiles",
      examples: ["diazo config profile list"],
      run: async (ctx) => {
        await ctx.emit(await runProfileList({}, ctx), {
          columns: ["name", "active", "client_id", "base_url", "has_secret"],
        });
      },
    },
    {
      name: "use",
      description: "make a profile the active one",
      args: [{ spec: "<name>", description: "profile name", complete: "profile" }],
      examples: ["diazo config profile use work"],
      run: async (ctx, [name]: string[]) => {
        await ctx.emit(await runProfileUse({ name }, ctx));
      },
    },
    {
      name: "current",
      description: "print the profile in use and why (flag, env, .env, config or default)",
      examples: ["diazo config profile current"],
      run: async (ctx) => {
        const chosen = { name: ctx.run.profile, source: ctx.run.profileSource };
        await ctx.emit(await runProfileCurrent({ chosen }, ctx));
      },
    },
    {
      name: "delete",
      aliases: ["rm"],
      description: "delete a profile",
      args: [{ spec: "<name>", description: "profile name", complete: "profile" }],
      examples: ["diazo config profile delete old --yes"],
      run: async (ctx, [name]: string[]) => {
        const deleted = await runProfileDelete({ name, confirm: (q) => ctx.confirmOrCancel(q) }, ctx);
        if (deleted) await ctx.emit(deleted);
      },
    },
    ...TRANSFER,
  ],
};

/** The config family. */
export const CONFIG: CommandDecl = {
  name: "config",
  description: "profiles and settings",
  examples: ["diazo config profile current", "diazo config set timeout 120", "diazo help config"],
  commands: [
    PROFILE,
    {
      name: "list",
      aliases: ["ls"],
      description: "every setting and profile field with the value in effect and where it comes from",
      examples: ["diazo config list", "diazo config list --profile work -o json"],
      run: async (ctx) => {
        const { output, timeout, concurrency } = ctx.flags;
        await ctx.emit(await runConfigList({ flags: { output, timeout, concurrency }, env: ctx.env }, ctx), {
          columns: ["key", "value", "source"],
        });
      },
    },
    {
      name: "get",
      description: "print a setting or a field of the active profile",
      args: [{ spec: "<key>", description: KEY_HELP }],
      options: [{ flags: "--show-secret", description: "print client_secret unmasked" }],
      examples: ["diazo config get output", "diazo config get client_id --profile work"],
      run: async (ctx, [key]: string[], opts: { showSecret?: boolean }) => {
        await ctx.emit(await runGet({ key, showSecret: opts.showSecret }, ctx));
      },
    },
    {
      name: "set",
      description: "change a setting or a field of the active profile",
      args: [
        { spec: "<key>", description: KEY_HELP },
        {
          spec: "<value>",
          description:
            'the new value: a format for output, seconds for timeout, a comma-separated list for scopes, a URL for base_url and callback_url, an id or a name for hub and project; "" removes the key',
        },
      ],
      examples: [
        "diazo config set output json",
        "diazo config set base_url http://127.0.0.1:8787",
        "diazo config set scopes bucket:read,data:read",
        "diazo config set project 'Riverside Tower'",
      ],
      run: async (ctx, [key, value]: string[]) => {
        await ctx.emit(value === "" ? await runUnset({ key }, ctx) : await runSet({ key, value }, ctx));
      },
    },
    {
      name: "unset",
      description: "remove a setting or a field of the active profile (the next source down applies)",
      args: [{ spec: "<key>", description: KEY_HELP }],
      examples: ["diazo config unset output", "diazo config unset base_url --profile work"],
      run: async (ctx, [key]: string[]) => {
        await ctx.emit(await runUnset({ key }, ctx));
      },
    },
  ],
};
