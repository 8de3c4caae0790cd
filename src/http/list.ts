/**
 * The answer of a list verb: one page of items and opaque cursors, so that the tool server pages
 * (limit + cursor) while the CLI asks for no limit and gets every page in one answer.
 */
import type { PageResult } from "./pagination.ts";

export { invalidCursor } from "./pagination.ts";

/** One page of a list: its items, the cursor of the rest, and a cursor after any item kept. */
export type ListPage<T> = PageResult<T>;

/** What a list verb takes: at most `limit` items (every one when absent) from `cursor` (the start when absent). */
export interface ListOptions {
  limit?: number;
  cursor?: string;
}

/** The same page with every item turned by `f` (cursors count items, so they stay valid). */
export function mapPage<T, U>(page: ListPage<T>, f: (item: T) => U): ListPage<U> {
  return { items: page.items.map(f), nextCursor: page.nextCursor, cursorAfter: page.cursorAfter };
}
