/**
 * `fields` of every list tool, in one place: a list answer's items are compact (the keys its item
 * schema declares), and `fields` adds more of each item's record, or all of it with ["*"]. A list
 * tool's answer (result.ts `listAnswer`) carries its page and records under LIST_SOURCE; `defineTool`
 * (tool.ts) applies the caller's `fields` to it after the tool ran, then fits it to the size budget.
 */
import { fieldError } from "../core/field_error.ts";
import { suggest } from "../core/suggest.ts";

/** Where the records of a list answer's items come from and where asked-for fields go. */
export interface FieldsPlace {
  /** The platform's record of each item (default: the page's items, else the items themselves). */
  sources?: readonly Record<string, unknown>[];
  /** The key of each item the fields go under (e.g. "attributes"); default: beside the item's own keys. */
  under?: string;
}

/** What a list answer keeps for the kernel: how to redo it with other items. */
export interface ListSource {
  items: readonly Record<string, unknown>[];
  sources: readonly Record<string, unknown>[];
  under?: string;
  /** The same answer for other items (same page, same budget). */
  redo(items: Record<string, unknown>[]): Record<string, unknown>;
}

/** The key a list answer carries its source under (a symbol: JSON and the protocol never see it). */
export const LIST_SOURCE: unique symbol = Symbol("diazo list source");

/**
 * `answer` with each item cut to `declared` keys (none cut when undefined) plus the `fields` of its
 * record; an unknown field is a usage error naming the fields the records have.
 */
export function applyFields(
  answer: Record<string | symbol, unknown>,
  declared: readonly string[] | undefined,
  fields: readonly string[] = [],
): Record<string, unknown> {
  const source = answer[LIST_SOURCE] as ListSource | undefined;
  if (!source) return answer;
  // The list's own keys are redone below; a tool's other keys (e.g. translate_tree's guid) stay.
  const {
    [LIST_SOURCE]: _,
    items: _i,
    count: _c,
    total,
    has_more: _h,
    next_cursor: _n,
    truncated: _t,
    ...rest
  } = answer;
  const all = fields.includes("*");
  if (!all && fields.length) checkFields(fields, source.sources);
  const items = source.items.map((item, i) => {
    const record = source.sources[i] ?? {};
    const compact = declared && !source.under ? pick(item, declared) : { ...item };
    const extra = all ? { ...record } : pick(record, fields);
    if (source.under) {
      const inner = item[source.under];
      const base = typeof inner === "object" && inner !== null ? inner as Record<string, unknown> : {};
      return Object.keys(extra).length || source.under in item
        ? { ...compact, [source.under]: { ...base, ...extra } }
        : compact;
    }
    return all ? { ...extra, ...compact } : { ...compact, ...extra };
  });
  return { ...rest, ...(total !== undefined ? { total } : {}), ...source.redo(items) };
}

function pick(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (record[k] !== undefined) out[k] = record[k];
  return out;
}

/** Refuses a field no record of the page has (a page without records accepts any). */
function checkFields(fields: readonly string[], sources: readonly Record<string, unknown>[]): void {
  if (sources.length === 0) return;
  const valid = [...new Set(sources.flatMap((s) => Object.keys(s)))].sort();
  for (const f of fields) {
    if (valid.includes(f)) continue;
    const close = suggest(f, valid);
    throw fieldError({
      field: "fields",
      problem: `unknown field '${f}'${close ? ` (did you mean '${close}'?)` : ""}`,
      help: `The items' records have: ${valid.join(", ")}; ["*"] gives all of them.`,
    });
  }
}
