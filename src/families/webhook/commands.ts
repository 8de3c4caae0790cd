/**
 * `diazo webhook ...`: the app's webhooks (2-legged) — list, create, delete — and the local checks
 * of both ends of a callback: `events` (the catalog), `test` (a sample delivery to a receiver) and
 * `verify` (a received payload's signature). Declared as data (command/decl.ts)
 * over ./verbs.ts, ./write_verbs.ts, ./catalog.ts and ./check.ts, each loaded by the commands that
 * run it (a listing loads no write code and no signature checking).
 */
import { DATA_CENTRES, parseDataCentre } from "../../aps/regions.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import type { Ctx } from "../../command/context.ts";
import { collect, positiveNumber } from "../../command/command.ts";
import type { CommandDecl, OptionDecl } from "../../command/decl.ts";

const HOOK_COLUMNS = ["hookId", "system", "event", "status", "callbackUrl", "scopeText", "createdDate"];

/** Hidden: the `webhook test` budget in ms instead of the 5-second advice (tests use it not to wait 5 s). */
const BUDGET_ENV = "DIAZO_WEBHOOK_TEST_BUDGET_MS";

/** `--region`: the platform region of the hooks. */
const REGION: OptionDecl = {
  flags: "--region <region>",
  description: `the platform region of the hooks (${DATA_CENTRES.join(", ")})`,
  parse: parseDataCentre,
  complete: "region",
};

/**
 * The hook's secret from the environment variable `name` (as `serve --http-secret-env`): a secret in
 * argv is in every user's process list and in the shell's history, so `--secret` is refused.
 */
function secretFromEnv(ctx: Ctx, name: string | undefined, inArgv: boolean): string {
  const how =
    "Put it in an environment variable and name it: WEBHOOK_SECRET=... diazo webhook verify --secret-env WEBHOOK_SECRET";
  if (inArgv) {
    throw usageError(
      "--secret would put the hook's secret in argv (the process list, the shell's history)",
      how,
    );
  }
  if (name === undefined) throw usageError("no secret to check the signature with: --secret-env NAME", how);
  const secret = ctx.env[name];
  if (!secret) {
    throw usageError(
      `the environment variable ${name} is not set`,
      `Set ${name} to the hook's secret (the value given to \`webhook create --secret-stdin\`).`,
    );
  }
  return secret;
}

/** The secret piped on stdin (never argv); a usage error when there is none. */
async function secretFromStdin(ctx: Ctx): Promise<string> {
  const secret = (await ctx.io.stdin.readText()).trim();
  if (secret === "") {
    throw usageError(
      "no secret on stdin",
      'Pipe it in: printf %s "$SECRET" | diazo webhook create ... --secret-stdin',
    );
  }
  return secret;
}

/** The `webhook test` budget from the hidden environment variable, if set. */
function budgetMs(ctx: Ctx): number | undefined {
  const raw = ctx.env[BUDGET_ENV];
  if (raw === undefined || raw === "") return undefined;
  return positiveNumber(BUDGET_ENV, true)(raw);
}

/** The options `webhook list` is given. */
interface ListOpts {
  system?: string;
  event?: string;
  region?: string;
  status?: "active" | "inactive";
  limit?: number;
}

/** `webhook list`. */
const LIST: CommandDecl = {
  name: "list",
  aliases: ["ls"],
  description: "list the app's hooks (of every system, one system or one event), following every page",
  tool: "webhook_list",
  options: [
    { flags: "--system <system>", description: "only hooks of this system, e.g. data" },
    {
      flags: "--event <event>",
      description: "only hooks of this event, e.g. dm.version.added (implies its system)",
    },
    REGION,
    { flags: "--status <status>", description: "only hooks in this state", choices: ["active", "inactive"] },
    { flags: "--limit <n>", description: "stop after n hooks", parse: positiveNumber("--limit", true) },
  ],
  examples: [
    "diazo webhook list",
    "diazo webhook list --event dm.version.added --region EMEA",
    "diazo webhook list --status inactive -o json --query '[].hookId'",
  ],
  run: async (ctx, _args, opts: ListOpts) => {
    const { inactiveRemedy, runWebhookList } = await import("./verbs.ts");
    const rows = await runWebhookList(opts, ctx);
    await ctx.emit(rows, { columns: HOOK_COLUMNS });
    for (const h of rows.filter((r) => r.status === "inactive")) ctx.warn(inactiveRemedy(h));
  },
};

/** The options `webhook create` is given. */
interface CreateOpts {
  url: string;
  event: string;
  system?: string;
  scope?: string[];
  secretStdin?: true;
  autoReactivate?: true;
  region?: string;
}

/** `webhook create`. */
const CREATE: CommandDecl = {
  name: "create",
  description: "create a hook: the platform POSTs each event of that kind in the scope to the URL",
  options: [
    {
      flags: "--url <url>",
      description:
        "the callback: public, HTTPS in production; the platform waits 7 s for its 2xx (answer within 5 s)",
      required: true,
    },
    {
      flags: "--event <event>",
      description: "event kind, e.g. dm.version.added (see `diazo webhook events`)",
      required: true,
    },
    {
      flags: "--system <system>",
      description: "the event's system (default: the one that has the event), e.g. data",
    },
    {
      flags: "--scope <key=value>",
      description: "what to watch, e.g. folder=<folder urn> or workflow=<id>",
      parse: collect(),
    },
    {
      flags: "--secret-stdin",
      description: "read a secret from stdin: callbacks then carry x-adsk-signature",
    },
    {
      flags: "--auto-reactivate",
      description: "let the platform reactivate the hook after it became inactive",
    },
    REGION,
  ],
  examples: [
    "diazo webhook create --url https://example.com/aps --event dm.version.added --scope folder=urn:adsk.wipprod:fs.folder:co.abc",
    "diazo webhook create --url https://example.com/aps --event extraction.finished --scope workflow=nightly",
    'printf %s "$SECRET" | diazo webhook create --url https://example.com/aps --event dm.version.added --scope folder=<urn> --secret-stdin',
  ],
  run: async (ctx, _args, opts: CreateOpts) => {
    const secret = opts.secretStdin ? await secretFromStdin(ctx) : undefined;
    const { runWebhookCreate } = await import("./write_verbs.ts");
    const hook = await runWebhookCreate({
      url: opts.url,
      event: opts.event,
      system: opts.system,
      scope: opts.scope ?? [],
      region: opts.region,
      secret,
      autoReactivate: opts.autoReactivate,
    }, ctx);
    await ctx.emit(hook, {
      action: `Created hook ${hook.hookId} (${hook.event}, ${hook.scopeText})${secret ? ", signed" : ""}`,
    });
  },
};

/** `webhook delete`. */
const DELETE: CommandDecl = {
  name: "delete",
  aliases: ["rm"],
  description: "delete a hook (the remedy for an inactive one: delete and recreate it)",
  tool: "webhook_delete",
  args: [{
    spec: "<hook-id>",
    description: "the hook's id, as `webhook list` shows it",
    toolDescription: "The hookId webhook_list shows.",
  }],
  options: [
    { flags: "--event <event>", description: "the hook's event kind", required: true },
    { flags: "--system <system>", description: "the hook's system (default: the one that has the event)" },
    REGION,
  ],
  examples: [
    "diazo webhook delete 0f60f6a0-996c-11e7-abf3-51d68cff984c --system data --event dm.version.added --yes",
  ],
  run: async (ctx, [hookId]: string[], opts: { event: string; system?: string; region?: string }) => {
    if (!await ctx.confirmOrCancel(`Delete hook ${hookId}?`)) return;
    const { runWebhookDelete } = await import("./write_verbs.ts");
    const deleted = await runWebhookDelete({ hookId, ...opts }, ctx);
    await ctx.emit(deleted, { action: `Deleted hook ${hookId} (${deleted.system} ${deleted.event})` });
  },
};

/** `webhook events`. */
const EVENTS: CommandDecl = {
  name: "events",
  description: "list the systems and event kinds hooks can watch, with their scope key (local, no login)",
  tool: "webhook_events",
  options: [{ flags: "--system <system>", description: "only this system's events" }],
  examples: ["diazo webhook events", "diazo webhook events --system derivative -o json"],
  run: async (ctx, _args, opts: { system?: string }) => {
    const { runWebhookEvents } = await import("./catalog.ts");
    await ctx.emit(runWebhookEvents(opts), { columns: ["system", "event", "scope", "service"] });
  },
};

/** `webhook test`. */
const TEST: CommandDecl = {
  name: "test",
  description:
    "send a sample event to a receiver as the platform would (no login); pass = HTTP 200 within 5 s, " +
    "the advice that leaves a margin under the platform's 7 s window",
  args: [{ spec: "<url>", description: "the receiver's URL" }],
  options: [
    { flags: "--event <event>", description: "the sample's event kind", default: "dm.version.added" },
    {
      flags: "--secret-stdin",
      description: "sign the sample with a secret read from stdin (x-adsk-signature)",
    },
  ],
  examples: [
    "diazo webhook test https://example.com/aps/callback",
    'printf %s "$SECRET" | diazo webhook test http://localhost:3000/hook --secret-stdin --event extraction.finished',
  ],
  run: async (ctx, [url]: string[], opts: { event: string; secretStdin?: true }) => {
    const secret = opts.secretStdin ? await secretFromStdin(ctx) : undefined;
    const { CALLBACK_BUDGET_MS, runWebhookTest } = await import("./check.ts");
    const report = await runWebhookTest({ url, event: opts.event, secret, budgetMs: budgetMs(ctx) }, ctx);
    const line = `${url} answered ${
      report.status ? `HTTP ${report.status}` : "nothing"
    } in ${report.latency_ms} ms`;
    await ctx.emit(report, { columns: ["url", "status", "latency_ms", "ok", "signed", "detail"] });
    if (report.ok && report.detail) ctx.warn(`${line}: ${report.detail}`);
    if (report.ok) return;
    ctx.info(`${line}: ${report.detail} (budget ${report.budget_ms ?? CALLBACK_BUDGET_MS} ms)`);
    throw new DiazoError("webhook_unreachable", { status: report.status || undefined });
  },
};

/** `webhook verify`. */
const VERIFY: CommandDecl = {
  name: "verify",
  description: "check the x-adsk-signature of a payload a receiver got (the body on stdin)",
  options: [
    {
      flags: "--secret-env <NAME>",
      description: "the environment variable holding the hook's secret (the secret never goes in argv)",
    },
    { flags: "--secret <secret>", description: "", hidden: true },
    {
      flags: "--signature <value>",
      description:
        "the x-adsk-signature header (sha1hash=...); stdin is then the body alone, else a request with headers",
    },
  ],
  examples: [
    'diazo webhook verify --secret-env WEBHOOK_SECRET --signature "$SIG" < body.json',
    "diazo webhook verify --secret-env WEBHOOK_SECRET < request-with-headers.txt",
  ],
  run: async (ctx, _args, opts: { secretEnv?: string; secret?: string; signature?: string }) => {
    const secret = secretFromEnv(ctx, opts.secretEnv, opts.secret !== undefined);
    const input = ctx.io.stdin.readBytes
      ? await ctx.io.stdin.readBytes()
      : new TextEncoder().encode(await ctx.io.stdin.readText());
    const { runWebhookVerify } = await import("./check.ts");
    const report = await runWebhookVerify({ secret, input, signature: opts.signature });
    if (!report.valid) {
      throw new DiazoError("failure", {
        params: {
          detail: "Signature does not match the payload",
          hint:
            "Check the secret, and pass the body exactly as received (bytes unchanged, not re-serialised JSON).",
        },
      });
    }
    await ctx.emit(report, { action: `Signature valid (${report.bytes} bytes)` });
  },
};

/** The webhook family. */
export const WEBHOOK: CommandDecl = {
  name: "webhook",
  description: "webhooks: hooks that POST platform events to a callback URL, and checks of both ends",
  examples: [
    "diazo webhook events",
    "diazo webhook list",
    "diazo webhook test https://example.com/aps/callback",
  ],
  commands: [LIST, CREATE, DELETE, EVENTS, TEST, VERIFY],
};
