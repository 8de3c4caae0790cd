/**
 * The platform's pagination schemes (ARCHITECTURE.md, "How a request travels") as async iterators over items,
 * so that list commands follow every page unless `--limit` stops them.
 */

import type { DiazoError } from "../core/errors.ts";
import { fieldError } from "../core/field_error.ts";
import { base64urlOf } from "../core/bytes.ts";
import { buildUrl, type Http, type RequestSpec } from "./http.ts";
import { refuseForeign } from "./redirect.ts";
import { queryNames, sortedQueryUrl } from "./url_text.ts";

/**
 * oss: `items` + absolute `next` · dm (JSON:API): `data` + `links.next(.href)` · acc: `results` +
 * `pagination {limit, offset, totalResults, nextUrl}` · da: `data` + `paginationToken` → `page` ·
 * webhooks: `data` + `links.next` (a path or URL carrying `pageState`).
 */
export type PageScheme = "oss" | "dm" | "acc" | "da" | "webhooks";

type Page = Record<string, unknown>;

/**
 * Yields the items of every page in order; `limit` stops after that many without another fetch.
 * `onPage` sees each page's whole body before its items (e.g. a JSON:API page's `included`).
 */
export async function* paginate<T>(
  http: Http,
  spec: RequestSpec,
  scheme: PageScheme,
  opts: { limit?: number; onPage?: (page: Record<string, unknown>) => void } = {},
): AsyncGenerator<T> {
  const limit = opts.limit;
  if (limit !== undefined && limit <= 0) return;
  const guard = pageGuard(http, spec);
  let current: RequestSpec | undefined = { ...pageSized(spec, limit), responseType: "json" };
  let count = 0;
  for (let n = 1; current; n++) {
    guard.visit(current);
    const res = await http.request<unknown>(current);
    const page: Page = isObject(res.data) ? res.data : {};
    const items = itemsOf(page, scheme);
    if (!guard.fresh(n, items)) return;
    opts.onPage?.(page);
    for (const item of items) {
      yield item as T;
      count++;
      if (limit !== undefined && count >= limit) return;
    }
    // An empty page ends the list even when a next link is (wrongly) present.
    if (items.length === 0) return;
    current = guard.next(n, nextRequest(page, scheme, spec, current), res.url);
  }
}

/** The query names the platform's lists read as their page size: `limit` (OSS, ACC), `page[limit]` (JSON:API). */
const PAGE_SIZE_NAMES = ["limit", "page[limit]"];

/**
 * `spec` asking for pages of at most `limit` items: a list cut at 5 items asks for 5, not for the
 * page size its request names (100 issues, 200 folders), so that the items it will not show are
 * neither sent nor read. For a list's first request only: a later page's size is its next link's.
 */
function pageSized(spec: RequestSpec, limit: number | undefined): RequestSpec {
  if (limit === undefined || !spec.query) return spec;
  for (const name of PAGE_SIZE_NAMES) {
    const size = Number(spec.query[name]);
    if (Number.isInteger(size) && size > limit) return { ...spec, query: { ...spec.query, [name]: limit } };
  }
  return spec;
}

/** After how many pages, and items, a list that goes on says so (and again at each multiple). */
export const LONG_LIST_PAGES = 1000;
/** See LONG_LIST_PAGES. */
export const LONG_LIST_ITEMS = 100_000;

/**
 * The one guard of a list's pages, for `paginate` and `fetchPage`: a page whose items repeat an
 * earlier page's whole (a server that loops) ends the list with a warning, and so does a next link
 * back to a page already read; a next link to another host is refused as a redirect there is
 * (redirect.ts); a list that goes on says so every LONG_LIST_PAGES pages or LONG_LIST_ITEMS items.
 */
function pageGuard(http: Http, spec: RequestSpec) {
  const seen = new Set<string>();
  const prints = new Set<string>();
  let items = 0;
  let toldItems = 0;
  return {
    /** Records a page's request as read. */
    visit(request: RequestSpec): void {
      seen.add(requestKey(http, request));
    },
    /** False (with a warning) when page `n`'s items repeat an earlier page's; says when the list is long. */
    fresh(n: number, pageItems: unknown[]): boolean {
      const print = pageItems.length > 0 ? fingerprint(pageItems) : "";
      if (print && prints.has(print)) {
        http.warn?.(
          `warning: page ${n} of ${
            pathOf(spec)
          } repeats an earlier page; stopped there (its items are not listed twice)`,
        );
        return false;
      }
      prints.add(print);
      items += pageItems.length;
      const itemMark = Math.floor(items / LONG_LIST_ITEMS);
      if (n % LONG_LIST_PAGES === 0 || itemMark > toldItems) {
        toldItems = itemMark;
        http.warn?.(
          `notice: ${pathOf(spec)} has given ${n} pages (${items} items) and goes on; ` +
            "--limit <n> stops a list after n items",
        );
      }
      return true;
    },
    /** The request of the page after page `n` (read from `from`), unless it was read already. */
    next(n: number, next: RequestSpec | undefined, from: string): RequestSpec | undefined {
      if (!next) return undefined;
      const key = requestKey(http, next);
      refuseForeign(from, key, 200, "the list's next link points");
      if (!seen.has(key)) return next;
      http.warn?.(`warning: page ${n} of ${pathOf(spec)} links back to an earlier page; the list ends there`);
      return undefined;
    },
  };
}

/** The path a list was asked for, for a warning (no query: it may carry a cursor). */
function pathOf(spec: RequestSpec): string {
  return /^https?:\/\//i.test(spec.path) ? new URL(spec.path).pathname : spec.path;
}

/**
 * A short fingerprint of a page's items: their count and its first and last item's identity (its
 * `id`, or `objectKey`, `bucketKey` or `hookId`; a string item itself; else its JSON). A page that
 * repeats an earlier one repeats those; two different pages that share them repeat items, which a
 * list never does. Only two items are read, so a page of 100 large records costs what a page of one
 * does. A short text is kept as it is: hashing it in a JavaScript loop, once per page, had V8 compile
 * the loop in the background at a cost of millions of instructions a run (ARCHITECTURE.md
 * "Start-up"); a longer one (items without an identity) is hashed (FNV-1a), so that a long list's
 * guard keeps a few bytes per page.
 */
function fingerprint(items: unknown[]): string {
  const text = `${items.length}:${JSON.stringify(identityOf(items[0]))}\n${
    JSON.stringify(identityOf(items[items.length - 1]))
  }`;
  if (text.length <= MAX_PLAIN_PRINT) return text;
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `${items.length}#${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}`;
}

/** A fingerprint up to this many characters is kept as it is (two ids and a count fit). */
const MAX_PLAIN_PRINT = 128;

/** The fields that name an item in the platform's lists, in the order they are tried. */
const IDENTITY_FIELDS = ["id", "objectKey", "bucketKey", "hookId"] as const;

/** What names `item` in its list: a string item itself, else its first identity field, else the item. */
function identityOf(item: unknown): unknown {
  if (item === null || typeof item !== "object") return item;
  const record = item as Record<string, unknown>;
  for (const field of IDENTITY_FIELDS) {
    if (typeof record[field] === "string") return `${field}=${record[field]}`;
  }
  return item;
}

/** One page of a list for a caller that pages itself (a tool server): items and opaque cursors. */
export interface PageResult<T> {
  items: T[];
  /** Resumes after the last item returned; undefined when the list has ended. */
  nextCursor?: string;
  /** A cursor that resumes after the first `n` items returned, for a caller that keeps fewer. */
  cursorAfter(n: number): string | undefined;
  /** How many items the whole list holds, where the platform says (`pagination.totalResults`). */
  total?: number;
}

/**
 * Up to `limit` items from where `cursor` points (the start of the list when absent), following
 * next links as needed. A cursor is opaque to callers and only valid for the same endpoint as `spec`.
 */
export async function fetchPage<T>(
  http: Http,
  spec: RequestSpec,
  scheme: PageScheme,
  opts: { cursor?: string; limit: number },
): Promise<PageResult<T>> {
  const start = opts.cursor ? decodeCursor(http, spec, opts.cursor) : { request: spec, skip: 0 };
  const items: T[] = [];
  const origins: { request: RequestSpec; index: number }[] = [];
  const guard = pageGuard(http, spec);
  // A cursor's request keeps its page size: its page number or skip count is counted in it.
  const first = opts.cursor ? start.request : pageSized(start.request, opts.limit);
  let current: RequestSpec | undefined = { ...first, responseType: "json" };
  let skip = start.skip;
  let nextCursor: string | undefined;
  let total: number | undefined;
  for (let n = 1; current && items.length < opts.limit; n++) {
    guard.visit(current);
    const res = await http.request<unknown>(current);
    const page: Page = isObject(res.data) ? res.data : {};
    total ??= totalOf(page);
    const pageItems = itemsOf(page, scheme);
    if (!guard.fresh(n, pageItems)) break;
    const next: RequestSpec | undefined = pageItems.length === 0
      ? undefined
      : nextRequest(page, scheme, spec, current);
    for (let i = skip; i < pageItems.length && items.length < opts.limit; i++) {
      items.push(pageItems[i] as T);
      origins.push({ request: current, index: i });
    }
    const last = origins.at(-1);
    if (items.length >= opts.limit && last && last.request === current && last.index + 1 < pageItems.length) {
      nextCursor = encodeCursor(current, last.index + 1);
      break;
    }
    current = guard.next(n, next, res.url);
    skip = 0;
    if (items.length >= opts.limit && current) nextCursor = encodeCursor(current, 0);
  }
  return {
    items,
    nextCursor,
    cursorAfter: (n) => n >= items.length ? nextCursor : encodeCursor(origins[n].request, origins[n].index),
    ...(total !== undefined ? { total } : {}),
  };
}

/**
 * The size of the whole list where a page says it: `pagination.totalResults` (acc, and the offset
 * pages of the other construction APIs) or `meta.page.totalResults` (JSON:API checklists).
 */
export function totalOf(page: Record<string, unknown>): number | undefined {
  const pagination = isObject(page.pagination) ? page.pagination : undefined;
  const meta = isObject(page.meta) && isObject(page.meta.page) ? page.meta.page : undefined;
  const total = (pagination ?? meta)?.totalResults;
  return typeof total === "number" && Number.isInteger(total) && total >= 0 ? total : undefined;
}

/** The error of a cursor that no list of this kind answered. */
export function invalidCursor(): DiazoError {
  return fieldError({
    field: "cursor",
    problem: "invalid cursor",
    help: "Pass the next_cursor of the previous answer of the same list unchanged, or omit it to start over.",
  });
}

function encodeCursor(request: RequestSpec, skip: number): string {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) query[k] = String(v);
  const bytes = new TextEncoder().encode(JSON.stringify({ p: request.path, q: query, s: skip }));
  return base64urlOf(bytes);
}

/** The request and skip count a cursor names; only a page of the same endpoint on the same host is accepted. */
function decodeCursor(http: Http, spec: RequestSpec, cursor: string): { request: RequestSpec; skip: number } {
  const invalid = invalidCursor;
  let parsed: { p?: unknown; q?: unknown; s?: unknown };
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    parsed = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
  } catch {
    throw invalid();
  }
  const { p, q, s } = parsed ?? {};
  if (typeof p !== "string" || !isObject(q) || typeof s !== "number" || !Number.isInteger(s) || s < 0) {
    throw invalid();
  }
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) {
    if (typeof v !== "string") throw invalid();
    query[k] = v;
  }
  let target: URL;
  let expected: URL;
  try {
    target = new URL(buildUrl(http.baseUrl, p));
    expected = new URL(buildUrl(http.baseUrl, spec.path));
  } catch {
    throw invalid();
  }
  if (target.origin !== expected.origin || target.pathname !== expected.pathname) throw invalid();
  return { request: { ...spec, path: p, query }, skip: s };
}

function itemsOf(page: Page, scheme: PageScheme): unknown[] {
  const field = scheme === "oss" ? "items" : scheme === "acc" ? "results" : "data";
  const items = page[field];
  return Array.isArray(items) ? items : [];
}

/** The request of the page after `page`, or undefined on the last page. */
function nextRequest(
  page: Page,
  scheme: PageScheme,
  first: RequestSpec,
  current: RequestSpec,
): RequestSpec | undefined {
  switch (scheme) {
    case "oss":
      return followLink(first, page.next);
    case "dm": {
      const next = isObject(page.links) ? page.links.next : undefined;
      return followLink(first, isObject(next) ? next.href : next);
    }
    case "webhooks":
      return followLink(first, isObject(page.links) ? page.links.next : undefined);
    case "da": {
      const token = page.paginationToken;
      if (typeof token !== "string" || token === "") return undefined;
      return { ...first, responseType: "json", query: { ...first.query, page: token } };
    }
    case "acc": {
      const p = isObject(page.pagination) ? page.pagination : {};
      if (typeof p.nextUrl === "string" && p.nextUrl !== "") return followLink(first, p.nextUrl);
      const offset = Number(p.offset ?? 0);
      const size = Number(p.limit ?? 0);
      const total = Number(p.totalResults);
      if (!(size > 0) || !Number.isFinite(offset) || !Number.isFinite(total)) return undefined;
      if (offset + size >= total) return undefined;
      return { ...current, responseType: "json", query: { ...current.query, offset: offset + size } };
    }
  }
}

/**
 * A request for a next link (absolute URL or a path on the base URL). The first request's query
 * parameters that the link does not carry are kept (e.g. a region or a filter).
 */
function followLink(first: RequestSpec, link: unknown): RequestSpec | undefined {
  if (typeof link !== "string" || link.trim() === "") return undefined;
  const absolute = /^https?:\/\//i.test(link);
  const carried = queryNames(absolute ? link : resolvedLink(link));
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(first.query ?? {})) {
    if (v !== undefined && !carried.has(k)) query[k] = String(v);
  }
  const path = absolute ? link : `${link.startsWith("/") ? "" : "/"}${link}`;
  return { ...first, responseType: "json", path, query };
}

/** A relative next link as an absolute URL on a placeholder host, for its query (`URL` resolves it). */
function resolvedLink(link: string): string {
  const base = "http://relative.invalid";
  return link.startsWith("/") && !link.startsWith("//") ? `${base}${link}` : new URL(link, base).href;
}

function requestKey(http: Http, spec: RequestSpec): string {
  return sortedQueryUrl(buildUrl(http.baseUrl, spec.path, spec.query));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
