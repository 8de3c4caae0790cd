/**
 * The webhook writes (`diazo webhook create`, `delete`): systems and events are checked against the
 * catalog (aps/webhook_events.ts) before any request. Apart from ./verbs.ts so that a listing loads
 * none of this.
 */
import { checkWebhookEvent, type WebhookSystem } from "../../aps/webhook_events.ts";
import { dmFolderId } from "../../aps/dm_ids.ts";
import { DiazoError, isDiazoError, usageError } from "../../core/errors.ts";
import { fieldError } from "../../core/field_error.ts";
import { isLoopbackHost } from "../../http/origin.ts";
import { createHook, deleteHook, getHook, patchHook } from "./api.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { type HookRow, withScopeText } from "./verbs.ts";

/** Parses `--scope key=value` pairs for `sys`: its scope key is required, other keys are refused. */
export function parseHookScope(sys: WebhookSystem, pairs: readonly string[]): Record<string, string> {
  const example = `${sys.scopeKey}=<${sys.scopeKey === "folder" ? "folder urn" : sys.scopeKey}>`;
  const bad = (problem: string) =>
    fieldError({
      field: "scope",
      problem,
      help: `Hooks of system '${sys.system}' are scoped by ${sys.scopeKey}: give {scope} ${example}.`,
    });
  const scope: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const key = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (at <= 0 || value === "") throw bad(`invalid {scope} '${pair}': expected key=value`);
    if (key !== sys.scopeKey) throw bad(`invalid {scope} key '${key}' for system '${sys.system}'`);
    scope[key] = key === "folder" ? dmFolderId(value, "scope") : value;
  }
  if (scope[sys.scopeKey] === undefined) throw bad(`{scope} ${sys.scopeKey}=... is required`);
  return scope;
}

/** A callback URL from input: absolute http(s), else a usage error; plain http off this machine warns. */
export function checkCallbackUrl(url: string, warn: (line: string) => void): string {
  const help = "Pass the receiver's absolute URL, e.g. https://example.com/aps/callback.";
  if (!URL.canParse(url)) throw fieldError({ field: "url", problem: `invalid callback URL '${url}'`, help });
  const { protocol, hostname } = new URL(url);
  if (protocol !== "https:" && protocol !== "http:") {
    throw fieldError({
      field: "url",
      problem: `invalid callback URL '${url}': only http and https are supported`,
      help,
    });
  }
  if (protocol === "http:" && !isLoopbackHost(hostname)) {
    warn(`${url} is not HTTPS: the platform requires HTTPS callbacks in production`);
  }
  return url;
}

/** What `webhook create` takes. */
export interface WebhookCreateOptions {
  url: string;
  event: string;
  system?: string;
  scope: readonly string[];
  region?: string;
  /** The hook's own secret: callbacks then carry `x-adsk-signature`. */
  secret?: string;
  autoReactivate?: boolean;
}

/**
 * `webhook create`: a hook for one event; with a secret it is set on the hook at once, and the hook
 * is deleted again when that fails (nothing half-made). Answers the hook as the platform shows it.
 */
export async function runWebhookCreate(opts: WebhookCreateOptions, deps: OpsDeps): Promise<HookRow> {
  const callbackUrl = checkCallbackUrl(opts.url, deps.warn);
  const { system, event } = checkWebhookEvent(opts.event, opts.system);
  const scope = parseHookScope(system, opts.scope);
  if (system.sandboxOnly) {
    deps.warn(
      `${event} is an event of diazo's sandbox only: the platform has no '${system.system}' webhooks ` +
        `(a work item calls the onComplete URL it was given instead)`,
    );
  }
  if (opts.secret !== undefined && opts.secret.trim() === "") {
    throw usageError("the secret is empty", "Pipe a secret of 32-64 letters and digits on stdin.");
  }
  const http = await deps.http();
  const hookId = await createHook(http, {
    system: system.system,
    event,
    callbackUrl,
    scope,
    region: opts.region,
    ...(opts.autoReactivate !== undefined ? { autoReactivateHook: opts.autoReactivate } : {}),
  });
  const ref = { system: system.system, event, hookId, region: opts.region };
  if (opts.secret !== undefined) {
    try {
      await patchHook(http, ref, { token: opts.secret.trim() });
    } catch (e) {
      await deleteHook(http, ref).catch(() => {});
      throw e;
    }
  }
  return withScopeText(await getHook(http, ref));
}

const HOOKS_LISTED = { command: "diazo webhook list", tool: "webhook_list" };

/** The system and event of a hook named for deletion, its id checked: a field error before any request. */
export function checkHookRef(
  opts: { hookId: string; event: string; system?: string },
): { system: WebhookSystem; event: string } {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(opts.hookId)) {
    throw fieldError({
      field: "hook_id",
      problem: `invalid hook id '${opts.hookId}'`,
      help: "Use the hookId {step} shows, e.g. 05f10350-991a-11e7-8cd7-91969336b9c2.",
      next: HOOKS_LISTED,
    });
  }
  return checkWebhookEvent(opts.event, opts.system);
}

/** `webhook delete`: deletes one hook, named by its system, event and id. */
export async function runWebhookDelete(
  opts: { hookId: string; event: string; system?: string; region?: string },
  deps: OpsDeps,
): Promise<{ hookId: string; system: string; event: string; deleted: true }> {
  const { system, event } = checkHookRef(opts);
  const ref = { system: system.system, event, hookId: opts.hookId, region: opts.region };
  try {
    await deleteHook(await deps.http(), ref);
  } catch (e) {
    if (!isDiazoError(e) || e.code !== "not_found") throw e;
    const what = `hook ${opts.hookId} (${system.system} ${event}${opts.region ? `, ${opts.region}` : ""})`;
    const hint = "A hook is named by its system, event and id, in its region: see {step} with that region.";
    const step = { command: "diazo webhook list --region <region>", tool: "webhook_list" };
    throw new DiazoError("dm_not_found", {
      status: e.status,
      body: e.body,
      params: { what, hint: hint.replace("{step}", `\`${step.command}\``) },
      field: { field: "hook_id", problem: `Not found: ${what}`, help: hint, next: step },
    });
  }
  return { hookId: opts.hookId, system: system.system, event, deleted: true };
}
