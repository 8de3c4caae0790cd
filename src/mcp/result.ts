/**
 * Tool results: structured content plus the same JSON as text, failures as `isError` results with the
 * catalog's message and hint, and lists capped in size with a cursor to the rest.
 */
import { DiazoError, toDiazoError } from "../core/errors.ts";
import { phrased, TOOL_SURFACE } from "../core/field_error.ts";
import { knownSecrets, redact } from "../core/redact.ts";
import type { ListPage } from "../http/list.ts";
import type { CallToolResult } from "./sdk.ts";
import { TOOL_HINTS } from "./tool_hints.ts";

/**
 * Largest JSON text of one answer. Assistants refuse tool output above ~25,000 tokens (Claude Code);
 * 60,000 characters stay well below that.
 */
export const MAX_RESULT_CHARS = 60_000;

/** A successful result: `value` as structured content and as JSON text. */
export function toolResult(value: Record<string, unknown>): CallToolResult {
  const text = JSON.stringify(value);
  if (text.length > MAX_RESULT_CHARS) {
    throw new DiazoError("failure", {
      params: {
        detail: `the answer is too large (${text.length} characters, at most ${MAX_RESULT_CHARS})`,
        hint: "Ask for less: a smaller limit, an object_id, or a narrower prefix.",
      },
    });
  }
  return { content: [{ type: "text", text }], structuredContent: value };
}

/** The catalog error a failure stands for; anything else is an unexpected failure. */
export function asDiazoError(e: unknown): DiazoError {
  return toDiazoError(e, "The server's log (started with debug) has the details; report it if it persists.");
}

/**
 * A failure as a result the model can act on: `isError`, the catalog's message and hint, and the
 * same as JSON (`{"error":{code,message,hint,status}}`, as the CLI prints with `-o json`).
 * No structured content: it would have to match the success schema.
 */
export function errorResult(e: unknown): CallToolResult {
  const de = asDiazoError(e);
  const secrets = knownSecrets();
  const words = phrased(de, TOOL_SURFACE);
  const toolHint = TOOL_HINTS[de.code]?.replace(/\{(\w+)\}/g, (_, k: string) => String(de.params[k] ?? ""));
  const message = redact(words.message, secrets);
  const hint = redact(toolHint ?? words.hint, secrets);
  const error = { code: de.code, message, hint, status: de.status ?? null };
  return {
    isError: true,
    content: [
      { type: "text", text: `error: ${message}\nhint: ${hint}` },
      { type: "text", text: JSON.stringify({ error }) },
    ],
  };
}

/** A list answer: the items, how many, and whether and how to continue. */
export interface ListAnswer<T> {
  [key: string]: unknown;
  items: T[];
  count: number;
  has_more: boolean;
  next_cursor?: string;
  truncated?: boolean;
}

/**
 * Turns a fetched page into a list answer whose JSON stays under `budget` characters: items that do
 * not fit are left to the next cursor (at least one item is always kept).
 */
export function listAnswer<T>(
  page: Pick<ListPage<unknown>, "nextCursor" | "cursorAfter">,
  items: T[],
  budget = MAX_RESULT_CHARS - 2_000,
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
    has_more: next !== undefined,
    ...(next !== undefined ? { next_cursor: next } : {}),
    ...(truncated ? { truncated: true } : {}),
  };
}
