/**
 * JSON:API plumbing of the data management emulator: documents,
 * its usual refusals, `page[number]`/`page[limit]` pagination with absolute `first/prev/next` links, and
 * `filter[...]` parameters.
 */

import { dmError, JSON_API_TYPE, type SandboxError } from "../errors.ts";

/** Largest and default `page[limit]`. */
export const MAX_PAGE_LIMIT = 200;

/** A serialised resource object. */
export interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  links?: Record<string, unknown>;
}

/** A JSON:API answer. */
export function jsonApi(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": JSON_API_TYPE } });
}

/** 404 in the platform's shape. */
export function dmNotFound(detail: string): SandboxError {
  return dmError(404, "NOT_FOUND", "Not Found", detail);
}

/** 400 in the platform's shape. */
export function dmBadInput(detail: string): SandboxError {
  return dmError(400, "BAD_INPUT", "Bad Input", detail);
}

/** The request's own URL on the address the client used, as `links.self`. */
export function selfHref(url: URL, baseUrl: string): string {
  return `${baseUrl}${url.pathname}${url.search}`;
}

/** A JSON:API document for `data` (and `included`) answering the request at `url`. */
export function document(
  url: URL,
  baseUrl: string,
  data: unknown,
  extra: { included?: Resource[]; links?: Record<string, unknown> } = {},
): Record<string, unknown> {
  return {
    jsonapi: { version: "1.0" },
    links: { self: { href: selfHref(url, baseUrl) }, ...extra.links },
    data,
    ...(extra.included ? { included: extra.included } : {}),
  };
}

/** One page of a collection and its `first/prev/next` links (present only when there are several pages). */
export interface Paged<T> {
  items: T[];
  links: Record<string, { href: string }>;
}

function pageInt(url: URL, name: string): number | undefined | "bad" {
  const text = url.searchParams.get(name);
  if (text === null) return undefined;
  return /^\d+$/.test(text) ? Number(text) : "bad";
}

/** Cuts the page the request asks for out of `all`; throws 400 for bad page parameters. */
export function paginate<T>(all: readonly T[], url: URL, baseUrl: string): Paged<T> {
  const number = pageInt(url, "page[number]");
  const limit = pageInt(url, "page[limit]");
  if (number === "bad") throw dmBadInput("page[number] must be an integer >= 0");
  if (limit === "bad" || (limit !== undefined && (limit < 1 || limit > MAX_PAGE_LIMIT))) {
    throw dmBadInput(`page[limit] must be an integer between 1 and ${MAX_PAGE_LIMIT}`);
  }
  const size = limit ?? MAX_PAGE_LIMIT;
  const n = number ?? 0;
  const items = all.slice(n * size, (n + 1) * size);
  const links: Record<string, { href: string }> = {};
  if (all.length > size || n > 0) {
    const href = (page: number) => {
      const q = new URLSearchParams(url.searchParams);
      q.set("page[number]", String(page));
      return { href: `${baseUrl}${url.pathname}?${q}` };
    };
    links.first = href(0);
    if (n > 0) links.prev = href(Math.min(n - 1, Math.max(0, Math.ceil(all.length / size) - 1)));
    if ((n + 1) * size < all.length) links.next = href(n + 1);
  }
  return { items, links };
}

/** The value at a dotted path of an object, e.g. `extension.type`. */
function at(value: unknown, path: string): unknown {
  let v = value;
  for (const key of path.split(".")) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** The `filter[<field>]` parameters of a request: field -> accepted values (comma-separated = any of). */
export function filtersOf(url: URL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of url.searchParams) {
    const m = /^filter\[([^\]]+)\]$/.exec(k);
    if (m) out.set(m[1], [...(out.get(m[1]) ?? []), ...v.split(",").map((s) => s.trim())]);
  }
  return out;
}

/**
 * Keeps the resources matching every filter: `type` and `id` compare with the resource's own
 * fields, anything else with the attribute at that dotted path (e.g. `extension.type`, `name`).
 */
export function applyFilters(resources: readonly Resource[], filters: Map<string, string[]>): Resource[] {
  return resources.filter((r) =>
    [...filters].every(([field, values]) => {
      const actual = field === "type" || field === "id" ? r[field] : at(r.attributes, field);
      return actual !== undefined && actual !== null && values.includes(String(actual));
    })
  );
}
