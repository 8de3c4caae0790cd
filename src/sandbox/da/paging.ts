/**
 * Design Automation's page objects: `{paginationToken, data}`; the next page is
 * the same URL with `?page=<paginationToken>`, and the last page has `paginationToken: null`.
 */

import type { RequestContext } from "../context.ts";
import { daError } from "../errors.ts";
import { json } from "../respond.ts";

/** Items per page of every Design Automation list. */
export const DA_PAGE_SIZE = 10;

function encodePageToken(offset: number): string {
  return btoa(JSON.stringify({ offset })).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodePageToken(token: string): number | undefined {
  try {
    const { offset } = JSON.parse(atob(token.replace(/-/g, "+").replace(/_/g, "/")));
    return Number.isInteger(offset) && offset >= 0 ? offset : undefined;
  } catch {
    return undefined;
  }
}

/** One page of `items` as the `page` query parameter selects it. */
export function page(items: readonly unknown[], ctx: RequestContext): Response {
  const token = ctx.url.searchParams.get("page");
  const offset = token === null ? 0 : decodePageToken(token);
  if (offset === undefined) throw daError(400, `Invalid pagination token '${token}'`);
  const end = offset + DA_PAGE_SIZE;
  return json(200, {
    paginationToken: end < items.length ? encodePageToken(end) : null,
    data: items.slice(offset, end),
  });
}
