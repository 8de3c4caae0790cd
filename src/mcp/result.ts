/**
 * Tool results: structured content beside a one-line text summary (the whole JSON as text only for a
 * client of a protocol before structured content), failures as one `isError` text with the catalog's
 * message and hint, and lists capped in size with a cursor to the rest.
 */
import { DiazoError, toDiazoError } from "../core/errors.ts";
import { phrased, TOOL_SURFACE } from "../core/field_error.ts";
import { knownSecrets, redact } from "../core/redact.ts";
import type { ListPage } from "../http/list.ts";
import type { CallToolResult } from "./sdk.ts";
import { type FieldsPlace, LIST_SOURCE, type ListSource } from "./fields.ts";
import { TOOL_HINTS } from "./tool_hints.ts";

/**
 * Largest JSON text of one answer. Assistants refuse tool output above ~25,000 tokens (Claude Code);
 * 60,000 characters stay well below that.
 */
export const MAX_RESULT_CHARS = 60_000;

/** The first protocol version with structured tool results. */
export const STRUCTURED_SINCE = "2025-06-18";

/**
 * A successful result: `value` as structured content, and as text a one-line summary (`summary`) or,
 * for a client that cannot read structured content, the same JSON.
 */
export function toolResult(value: Record<string, unknown>, summary = true): CallToolResult {
  const text = JSON.stringify(value);
  if (text.length > MAX_RESULT_CHARS) {
    throw new DiazoError("failure", {
      params: {
        detail: `the answer is too large (${text.length} characters, at most ${MAX_RESULT_CHARS})`,
        hint: "Ask for less: a smaller limit, an object_id, or a narrower prefix.",
      },
    });
  }
  return { content: [{ type: "text", text: summary ? summaryOf(value) : text }], structuredContent: value };
}

const SUMMARY_CHARS = 300;

/** One line that says what an answer holds; the answer itself is the structured content. */
export function summaryOf(value: Record<string, unknown>): string {
  if (Array.isArray(value.items)) {
    const names = value.items.slice(0, 5).map((i) => labelOf(i)).filter(Boolean);
    const more = value.has_more === true ? `; has_more: true, next_cursor: ${value.next_cursor}` : "";
    const total = typeof value.total === "number" ? ` of ${value.total}` : "";
    const line = `${value.items.length}${total} items${
      names.length ? ` (${names.join(", ")}${value.items.length > names.length ? ", ..." : ""})` : ""
    }${more}. The items are in the structured content.`;
    return line.length > SUMMARY_CHARS + 200 ? line.slice(0, SUMMARY_CHARS + 200) + "…" : line;
  }
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === null || typeof v === "object") continue;
    parts.push(`${k}: ${String(v)}`);
  }
  const line = parts.join(", ") || Object.keys(value).join(", ");
  return (line.length > SUMMARY_CHARS ? line.slice(0, SUMMARY_CHARS) + "…" : line) +
    ". The whole answer is in the structured content.";
}

function labelOf(item: unknown): string {
  if (typeof item !== "object" || item === null) return String(item);
  const r = item as Record<string, unknown>;
  const label = r.name ?? r.title ?? r.bucketKey ?? r.objectKey ?? r.hookId ?? r.id ?? r.objectid;
  return typeof label === "string" || typeof label === "number" ? String(label).slice(0, 60) : "";
}

/** The catalog error a failure stands for; anything else is an unexpected failure. */
export function asDiazoError(e: unknown): DiazoError {
  return toDiazoError(e, "The server's log (started with debug) has the details; report it if it persists.");
}

/**
 * A failure as a result the model can act on: `isError` and one text of the catalog's message, hint,
 * code and HTTP status (when there is one). No structured content: it would have to match the success
 * schema.
 */
export function errorResult(e: unknown): CallToolResult {
  const de = asDiazoError(e);
  const secrets = knownSecrets();
  const words = phrased(de, TOOL_SURFACE);
  const toolHint = TOOL_HINTS[de.code]?.replace(/\{(\w+)\}/g, (_, k: string) => String(de.params[k] ?? ""));
  const message = redact(words.message, secrets);
  const hint = redact(toolHint ?? words.hint, secrets);
  const status = de.status === undefined ? "" : ` (HTTP ${de.status})`;
  return {
    isError: true,
    content: [{ type: "text", text: `error: ${message}\nhint: ${hint}\ncode: ${de.code}${status}` }],
  };
}

/** A list answer: the items, how many, the whole list's size where the platform says, and how to continue. */
export interface ListAnswer<T> {
  [key: string]: unknown;
  items: T[];
  count: number;
  total?: number;
  has_more: boolean;
  next_cursor?: string;
  truncated?: boolean;
}

/**
 * Turns a fetched page into a list answer whose JSON stays under `budget` characters: items that do
 * not fit are left to the next cursor (at least one item is always kept). The answer carries its page
 * and records for the kernel (fields.ts), which applies the caller's `fields` and fits it again;
 * `place` says where the records are and where their fields go.
 */
export function listAnswer<T>(
  page: Pick<ListPage<unknown>, "nextCursor" | "cursorAfter" | "total"> & { items?: unknown[] },
  items: T[],
  budget = MAX_RESULT_CHARS - 2_000,
  place: FieldsPlace = {},
): ListAnswer<T> {
  const answer = fit(page, items, budget);
  const records = place.sources ??
    (Array.isArray(page.items) && page.items.length === items.length ? page.items : items);
  const source: ListSource = {
    items: items as Record<string, unknown>[],
    sources: records.map((r) => (typeof r === "object" && r !== null ? r as Record<string, unknown> : {})),
    under: place.under,
    redo: (other) => fit(page, other, budget),
  };
  Object.defineProperty(answer, LIST_SOURCE, { value: source, enumerable: true, configurable: true });
  return answer;
}

function fit<T>(
  page: Pick<ListPage<unknown>, "nextCursor" | "cursorAfter" | "total">,
  items: T[],
  budget: number,
): ListAnswer<T> {
  let size = 0;
  let kept = 0;
  for (const item of items) {
    size += JSON.stringify(item).length + 1;
    if (kept > 0 && size > budget) break;
    kept++;
  }
  const truncated = kept < items.length;
  const next = truncated ? page.cursorAfter(kept) : page.nextCursor;
  return {
    items: items.slice(0, kept),
    count: kept,
    ...(page.total !== undefined ? { total: page.total } : {}),
    has_more: next !== undefined,
    ...(next !== undefined ? { next_cursor: next } : {}),
    ...(truncated ? { truncated: true } : {}),
  };
}
