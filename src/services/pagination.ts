/**
 * The platform's pagination schemes (DESIGN.md §5) as async iterators over items, so that list
 * commands follow every page unless `--limit` stops them.
 */

import { buildUrl, type Http, type RequestSpec } from "./http.ts";

/**
 * oss: `items` + absolute `next` · dm (JSON:API): `data` + `links.next(.href)` · acc: `results` +
 * `pagination {limit, offset, totalResults, nextUrl}` · da: `data` + `paginationToken` → `page` ·
 * webhooks: `data` + `links.next` (a path or URL carrying `pageState`).
 */
export type PageScheme = "oss" | "dm" | "acc" | "da" | "webhooks";

type Page = Record<string, unknown>;

/** Yields the items of every page in order; `limit` stops after that many without another fetch. */
export async function* paginate<T>(
  http: Http,
  spec: RequestSpec,
  scheme: PageScheme,
  opts: { limit?: number } = {},
): AsyncGenerator<T> {
  const limit = opts.limit;
  if (limit !== undefined && limit <= 0) return;
  const seen = new Set<string>();
  let current: RequestSpec | undefined = { ...spec, responseType: "json" };
  let count = 0;
  while (current) {
    seen.add(requestKey(http, current));
    const res = await http.request<unknown>(current);
    const page: Page = isObject(res.data) ? res.data : {};
    const items = itemsOf(page, scheme);
    for (const item of items) {
      yield item as T;
      count++;
      if (limit !== undefined && count >= limit) return;
    }
    // An empty page ends the list even when a next link is (wrongly) present.
    if (items.length === 0) return;
    const next = nextRequest(page, scheme, spec, current);
    current = next && !seen.has(requestKey(http, next)) ? next : undefined;
  }
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
  const url = new URL(link, "http://relative.invalid");
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(first.query ?? {})) {
    if (v !== undefined && !url.searchParams.has(k)) query[k] = String(v);
  }
  const path = absolute ? link : `${link.startsWith("/") ? "" : "/"}${link}`;
  return { ...first, responseType: "json", path, query };
}

function requestKey(http: Http, spec: RequestSpec): string {
  const url = new URL(buildUrl(http.baseUrl, spec.path, spec.query));
  url.searchParams.sort();
  return url.toString();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
