/**
 * The answer of a list verb: one page of items and opaque cursors, so that the tool server pages
 * (limit + cursor) while the CLI asks for no limit and gets every page in one answer.
 */
import { base64urlOf } from "../core/bytes.ts";
import { invalidCursor, type PageResult } from "./pagination.ts";

export { invalidCursor };

/** One page of a list: its items, the cursor of the rest, and a cursor after any item kept. */
export type ListPage<T> = PageResult<T>;

/** What a list verb takes: at most `limit` items (every one when absent) from `cursor` (the start when absent). */
export interface ListOptions {
  limit?: number;
  cursor?: string;
}

/** The same page with every item turned by `f` (cursors count items, so they stay valid). */
export function mapPage<T, U>(page: ListPage<T>, f: (item: T) => U): ListPage<U> {
  return { ...page, items: page.items.map(f) };
}

/**
 * One page of a list its verb reads from the start only (the platform gives no cursor, or the verb
 * filters as it reads): up to `limit` items after the cursor's offset, read as `read(offset + limit + 1)`
 * so that one more item says whether the list goes on. Nothing is dropped: every item is on exactly one
 * page. `list` names the list and its filters; a cursor of another list (or filters) is refused.
 */
export async function pageFromStart<T>(
  read: (upTo: number) => Promise<T[]>,
  opts: { limit: number; cursor?: string },
  list: string,
): Promise<ListPage<T>> {
  const key = listKey(list);
  const offset = opts.cursor === undefined ? 0 : offsetOf(opts.cursor, key);
  const rows = await read(offset + opts.limit + 1);
  const items = rows.slice(offset, offset + opts.limit);
  const at = (n: number) => base64urlOf(new TextEncoder().encode(JSON.stringify({ l: key, o: offset + n })));
  const nextCursor = rows.length > offset + opts.limit ? at(items.length) : undefined;
  return { items, nextCursor, cursorAfter: (n) => n >= items.length ? nextCursor : at(n) };
}

/**
 * One page of a list the platform pages itself (by offset or its own continuation token): `fetch` reads
 * it from the platform's own cursor (pagination.ts `fetchPage`, the paging the CLI follows), so page N
 * costs one request, not N. The opaque cursor wraps the platform's with `list` (its name and filters):
 * a cursor of another list (or filters) is refused.
 */
export async function pageByCursor<T>(
  fetch: (cursor: string | undefined) => Promise<ListPage<T>>,
  opts: { cursor?: string },
  list: string,
): Promise<ListPage<T>> {
  const key = listKey(list);
  const inner = opts.cursor === undefined ? undefined : innerOf(opts.cursor, key);
  const page = await fetch(inner);
  const wrap = (c: string | undefined) =>
    c === undefined ? undefined : base64urlOf(new TextEncoder().encode(JSON.stringify({ l: key, c })));
  return { ...page, nextCursor: wrap(page.nextCursor), cursorAfter: (n) => wrap(page.cursorAfter(n)) };
}

/** A short fingerprint of a list's name and filters (FNV-1a, 32 bits). */
function listKey(list: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < list.length; i++) h = Math.imul(h ^ list.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

function offsetOf(cursor: string, key: string): number {
  const parsed = parsedCursor(cursor);
  const o = parsed?.o;
  if (parsed?.l !== key || typeof o !== "number" || !Number.isInteger(o) || o < 0) throw invalidCursor();
  return o;
}

function innerOf(cursor: string, key: string): string {
  const parsed = parsedCursor(cursor);
  if (parsed?.l !== key || typeof parsed.c !== "string") throw invalidCursor();
  return parsed.c;
}

function parsedCursor(cursor: string): { l?: unknown; o?: unknown; c?: unknown } {
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
  } catch {
    throw invalidCursor();
  }
}
