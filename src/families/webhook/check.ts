/**
 * Checking both ends of a callback without the platform: `webhook test` posts a sample event to a
 * receiver as the platform would (envelope, `x-adsk-delivery-id`, and `x-adsk-signature` when a
 * secret is given) and judges its answer by the advice to receivers (HTTP 200 within 5 s, a margin
 * under the platform's 7 s window);
 * `webhook verify` checks the signature of a payload a receiver got.
 */
import {
  DELIVERY_ID_HEADER,
  SIGNATURE_HEADER,
  signWebhookBody,
  verifyWebhookBody,
} from "../../aps/webhook_signature.ts";
import { checkWebhookEvent, RECEIVER_ADVICE_MS } from "../../aps/webhook_events.ts";
import { usageError } from "../../core/errors.ts";
import { byteStringOf } from "../../core/bytes.ts";
import { postCallback } from "./api.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { checkCallbackUrl } from "./write_verbs.ts";

/** `webhook test`'s budget: the 5-second advice to receivers, under the platform's 7 s window. */
export const CALLBACK_BUDGET_MS = RECEIVER_ADVICE_MS;

const SAMPLE_TIME = "2026-01-01T00:00:00+0000";
const SAMPLE_FOLDER = "urn:adsk.wipprod:fs.folder:co.diazo-webhook-test";

/** The event-specific part of a sample callback, shaped as the platform's. */
function samplePayload(event: string): Record<string, unknown> {
  if (event.startsWith("extraction.")) {
    return {
      TimeStamp: Date.parse("2026-01-01T00:00:00Z"),
      URN: "dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6ZGlhem8tdGVzdC9tb2RlbC5pZmM",
      EventType: event === "extraction.finished" ? "EXTRACTION_FINISHED" : "EXTRACTION_UPDATED",
      Payload: { status: "success", scope: "diazo-webhook-test" },
    };
  }
  return {
    ext: "ifc",
    name: "model.ifc",
    source: "urn:adsk.wipprod:fs.file:vf.diazo-webhook-test?version=1",
    version: "1",
    sizeInBytes: 1024,
    state: "CONTENT_AVAILABLE",
    createdTime: SAMPLE_TIME,
    modifiedTime: SAMPLE_TIME,
    parentFolderUrn: SAMPLE_FOLDER,
    ancestors: [{ urn: SAMPLE_FOLDER, name: "Project Files" }],
  };
}

/** The whole sample body: the platform's envelope around the sample payload. */
export function sampleCallback(system: string, event: string, url: string): Record<string, unknown> {
  const hookId = "00000000-0000-0000-0000-000000000000";
  const payload = samplePayload(event);
  return {
    version: "1.0",
    resourceUrn: (payload.source ?? payload.URN) as string,
    hook: {
      system,
      event,
      hookId,
      tenant: SAMPLE_FOLDER,
      callbackUrl: url,
      createdBy: "diazo-webhook-test",
      createdDate: SAMPLE_TIME,
      creatorType: "Application",
      scope: system === "derivative" ? { workflow: "diazo-webhook-test" } : { folder: SAMPLE_FOLDER },
      urn: `urn:adsk.webhooks:events.hook:${hookId}`,
      status: "active",
      __self__: `/systems/${system}/events/${event}/hooks/${hookId}`,
    },
    payload,
  };
}

/** What `webhook test` found. */
export interface WebhookTestReport {
  url: string;
  event: string;
  /** HTTP status of the answer; 0 when there was none. */
  status: number;
  latency_ms: number;
  budget_ms: number;
  /** True when the receiver answered 2xx within the budget. */
  ok: boolean;
  signed: boolean;
  delivery_id: string;
  /** Why it failed, or what to fix although it passed (a 2xx other than 200). */
  detail?: string;
}

/** `webhook test <url>`: one sample delivery (no retry, no login) judged by the 200-within-5-s rule. */
export async function runWebhookTest(
  opts: { url: string; event?: string; secret?: string; budgetMs?: number },
  deps: OpsDeps,
): Promise<WebhookTestReport> {
  const url = checkCallbackUrl(opts.url, deps.warn);
  const { system, event } = checkWebhookEvent(opts.event ?? "dm.version.added");
  const budget = opts.budgetMs ?? CALLBACK_BUDGET_MS;
  const body = JSON.stringify(sampleCallback(system.system, event, url));
  const deliveryId = crypto.randomUUID();
  const headers: Record<string, string> = { [DELIVERY_ID_HEADER]: deliveryId };
  if (opts.secret !== undefined) headers[SIGNATURE_HEADER] = await signWebhookBody(opts.secret, body);
  const http = await deps.http({ auth: "none" });
  const answer = await postCallback(http, url, body, headers, budget);
  const ok = answer.error === undefined && answer.status >= 200 && answer.status < 300;
  const late = answer.latencyMs > budget;
  const detail = answer.error !== undefined
    ? (answer.status ? `answered HTTP ${answer.status}` : answer.error)
    : late
    ? `answered after ${answer.latencyMs} ms (more than ${budget} ms)`
    : answer.status !== 200
    ? `answered HTTP ${answer.status}: the platform expects 200`
    : undefined;
  return {
    url,
    event,
    status: answer.status,
    latency_ms: answer.latencyMs,
    budget_ms: budget,
    ok: ok && !late,
    signed: opts.secret !== undefined,
    delivery_id: deliveryId,
    ...(detail !== undefined ? { detail } : {}),
  };
}

/**
 * A received callback: its body and, when the input was a whole HTTP message, its signature header.
 * The body is the exact bytes after the blank line (the head is read one byte per character, as
 * header bytes are); the bytes are never decoded, so a body in any encoding verifies.
 */
export function splitReceived(input: Uint8Array): { body: Uint8Array; signature?: string } {
  const head = byteStringOf(input.subarray(0, Math.min(input.length, 64 * 1024)));
  const firstLine = head.slice(0, head.search(/\r?\n|$/));
  const looksLikeHeaders = /^[A-Z]+ \S+ HTTP\/\d/.test(firstLine) || /^[A-Za-z][\w-]*:\s/.test(firstLine);
  const gap = /\r?\n\r?\n/.exec(head);
  if (!looksLikeHeaders || !gap) return { body: input };
  const lines = head.slice(0, gap.index).split(/\r?\n/);
  const line = lines.find((l) => l.toLowerCase().startsWith(`${SIGNATURE_HEADER}:`));
  const signature = line?.slice(line.indexOf(":") + 1).trim();
  return { body: input.subarray(gap.index + gap[0].length), ...(signature ? { signature } : {}) };
}

/** What `webhook verify` found. */
export interface WebhookVerifyReport {
  valid: boolean;
  signature: string;
  bytes: number;
}

/**
 * `webhook verify`: whether `signature` is the platform's signature of the exact bytes of `input`
 * with `secret`. Without `signature`, `input` may be a whole HTTP message whose
 * `x-adsk-signature` header is used; with it, `input` is the body, never read as headers.
 */
export async function runWebhookVerify(
  opts: { secret: string; input: Uint8Array; signature?: string },
): Promise<WebhookVerifyReport> {
  if (opts.secret === "") {
    throw usageError("the secret is empty", "Set the variable named by --secret-env to the hook's secret.");
  }
  const received = opts.signature !== undefined ? { body: opts.input } : splitReceived(opts.input);
  const signature = opts.signature ?? received.signature;
  if (signature === undefined) {
    throw usageError(
      "no signature to check",
      `Pass --signature 'sha1hash=...' (the ${SIGNATURE_HEADER} header), or pipe the whole request with its headers.`,
    );
  }
  if (received.body.length === 0) {
    throw usageError("no payload on stdin", "Pipe the body the receiver got, unchanged.");
  }
  const valid = await verifyWebhookBody(opts.secret, received.body, signature);
  return { valid, signature, bytes: received.body.length };
}
