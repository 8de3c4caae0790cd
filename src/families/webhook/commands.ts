/**
 * `diazo webhook ...`: the app's webhooks (2-legged) — list, create, delete — and the local checks
 * of both ends of a callback: `events` (the catalog), `test` (a sample delivery to a receiver) and
 * `verify` (a received payload's signature). A thin commander adapter over ops/webhook*.ts.
 */
import { Option } from "@commander-js/extra-typings";
import { DATA_CENTRES, parseDataCentre } from "../../aps/regions.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import {
  inactiveRemedy,
  runWebhookCreate,
  runWebhookDelete,
  runWebhookEvents,
  runWebhookList,
} from "./verbs.ts";
import { CALLBACK_BUDGET_MS, runWebhookTest, runWebhookVerify } from "./check.ts";
import type { Ctx } from "../../command/context.ts";
import { type AnyCommand, collect, type ContextFactory, examples, positiveNumber } from "../../command/command.ts";

const HOOK_COLUMNS = ["hookId", "system", "event", "status", "callbackUrl", "scopeText", "createdDate"];

/** Hidden: the `webhook test` budget in ms instead of the 5-second advice (tests use it not to wait 5 s). */
const BUDGET_ENV = "DIAZO_WEBHOOK_TEST_BUDGET_MS";

const regionOption = () =>
  new Option("--region <region>", `the platform region of the hooks (${DATA_CENTRES.join(", ")})`).argParser(
    parseDataCentre,
  );

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

function budgetMs(ctx: Ctx): number | undefined {
  const raw = ctx.env[BUDGET_ENV];
  if (raw === undefined || raw === "") return undefined;
  return positiveNumber(BUDGET_ENV, true)(raw);
}

function addList(webhook: AnyCommand, makeCtx: ContextFactory): void {
  const list = webhook.command("list").alias("ls")
    .description("list the app's hooks (of every system, one system or one event), following every page")
    .option("--system <system>", "only hooks of this system, e.g. data")
    .option("--event <event>", "only hooks of this event, e.g. dm.version.added (implies its system)")
    .addOption(regionOption())
    .addOption(
      new Option("--status <status>", "only hooks in this state").choices(["active", "inactive"] as const),
    )
    .option("--limit <n>", "stop after n hooks", positiveNumber("--limit", true))
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const rows = await runWebhookList(opts, ctx);
      await ctx.emit(rows, { columns: HOOK_COLUMNS });
      for (const h of rows.filter((r) => r.status === "inactive")) ctx.warn(inactiveRemedy(h));
    });
  examples(list, [
    "diazo webhook list",
    "diazo webhook list --event dm.version.added --region EMEA",
    "diazo webhook list --status inactive -o json --query '[].hookId'",
  ]);
}

function addCreate(webhook: AnyCommand, makeCtx: ContextFactory): void {
  const create = webhook.command("create")
    .description("create a hook: the platform POSTs each event of that kind in the scope to the URL")
    .requiredOption(
      "--url <url>",
      "the callback: public, HTTPS in production; the platform waits 7 s for its 2xx (answer within 5 s)",
    )
    .requiredOption("--event <event>", "event kind, e.g. dm.version.added (see `diazo webhook events`)")
    .option("--system <system>", "the event's system (default: the one that has the event), e.g. data")
    .option("--scope <key=value>", "what to watch, e.g. folder=<folder urn> or workflow=<id>", collect())
    .option("--secret-stdin", "read a secret from stdin: callbacks then carry x-adsk-signature")
    .option("--auto-reactivate", "let the platform reactivate the hook after it became inactive")
    .addOption(regionOption())
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const secret = opts.secretStdin ? await secretFromStdin(ctx) : undefined;
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
    });
  examples(create, [
    "diazo webhook create --url https://example.com/aps --event dm.version.added --scope folder=urn:adsk.wipprod:fs.folder:co.abc",
    "diazo webhook create --url https://example.com/aps --event extraction.finished --scope workflow=nightly",
    'printf %s "$SECRET" | diazo webhook create --url https://example.com/aps --event dm.version.added --scope folder=<urn> --secret-stdin',
  ]);
}

function addDelete(webhook: AnyCommand, makeCtx: ContextFactory): void {
  const del = webhook.command("delete").alias("rm")
    .description("delete a hook (the remedy for an inactive one: delete and recreate it)")
    .argument("<hook-id>", "the hook's id, as `webhook list` shows it")
    .requiredOption("--event <event>", "the hook's event kind")
    .option("--system <system>", "the hook's system (default: the one that has the event)")
    .addOption(regionOption())
    .action(async (hookId, opts, cmd) => {
      const ctx = makeCtx(cmd);
      if (!await ctx.confirmOrCancel(`Delete hook ${hookId}?`)) return;
      const deleted = await runWebhookDelete({ hookId, ...opts }, ctx);
      await ctx.emit(deleted, { action: `Deleted hook ${hookId} (${deleted.system} ${deleted.event})` });
    });
  examples(del, [
    "diazo webhook delete 0f60f6a0-996c-11e7-abf3-51d68cff984c --system data --event dm.version.added --yes",
  ]);
}

function addChecks(webhook: AnyCommand, makeCtx: ContextFactory): void {
  const test = webhook.command("test")
    .description(
      "send a sample event to a receiver as the platform would (no login); pass = HTTP 200 within 5 s, " +
        "the advice that leaves a margin under the platform's 7 s window",
    )
    .argument("<url>", "the receiver's URL")
    .option("--event <event>", "the sample's event kind", "dm.version.added")
    .option("--secret-stdin", "sign the sample with a secret read from stdin (x-adsk-signature)")
    .action(async (url, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const secret = opts.secretStdin ? await secretFromStdin(ctx) : undefined;
      const report = await runWebhookTest({ url, event: opts.event, secret, budgetMs: budgetMs(ctx) }, ctx);
      const line = `${url} answered ${
        report.status ? `HTTP ${report.status}` : "nothing"
      } in ${report.latency_ms} ms`;
      await ctx.emit(report, { columns: ["url", "status", "latency_ms", "ok", "signed", "detail"] });
      if (report.ok && report.detail) ctx.warn(`${line}: ${report.detail}`);
      if (report.ok) return;
      ctx.info(`${line}: ${report.detail} (budget ${report.budget_ms ?? CALLBACK_BUDGET_MS} ms)`);
      throw new DiazoError("webhook_unreachable", { status: report.status || undefined });
    });
  examples(test, [
    "diazo webhook test https://example.com/aps/callback",
    'printf %s "$SECRET" | diazo webhook test http://localhost:3000/hook --secret-stdin --event extraction.finished',
  ]);

  const verify = webhook.command("verify")
    .description("check the x-adsk-signature of a payload a receiver got (the body on stdin)")
    .option(
      "--secret-env <NAME>",
      "the environment variable holding the hook's secret (the secret never goes in argv)",
    )
    .addOption(new Option("--secret <secret>").hideHelp())
    .option(
      "--signature <value>",
      "the x-adsk-signature header (sha1hash=...); stdin is then the body alone, else a request with headers",
    )
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const secret = secretFromEnv(ctx, opts.secretEnv, opts.secret !== undefined);
      const input = ctx.io.stdin.readBytes
        ? await ctx.io.stdin.readBytes()
        : new TextEncoder().encode(await ctx.io.stdin.readText());
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
    });
  examples(verify, [
    'diazo webhook verify --secret-env WEBHOOK_SECRET --signature "$SIG" < body.json',
    "diazo webhook verify --secret-env WEBHOOK_SECRET < request-with-headers.txt",
  ]);
}

/** Registers the webhook family. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const webhook = program.command("webhook")
    .description("webhooks: hooks that POST platform events to a callback URL, and checks of both ends");
  examples(webhook, [
    "diazo webhook events",
    "diazo webhook list",
    "diazo webhook test https://example.com/aps/callback",
  ]);
  addList(webhook, makeCtx);
  addCreate(webhook, makeCtx);
  addDelete(webhook, makeCtx);
  const events = webhook.command("events")
    .description("list the systems and event kinds hooks can watch, with their scope key (local, no login)")
    .option("--system <system>", "only this system's events")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(runWebhookEvents(opts), { columns: ["system", "event", "scope", "service"] });
    });
  examples(events, ["diazo webhook events", "diazo webhook events --system derivative -o json"]);
  addChecks(webhook, makeCtx);
}
