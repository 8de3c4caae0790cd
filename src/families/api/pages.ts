/**
 * `diazo api --paginate`: every page of a list, whichever of the platform's pagination schemes the
 * first page uses (http/pagination.ts), or HQ v1's bare arrays paged by offset. Apart from ./verbs.ts
 * so that a single request loads none of the paging.
 */
import type { Http, HttpResponse, RequestSpec } from "../../http/http.ts";
import { type PageScheme, paginate } from "../../http/pagination.ts";

/** What a paged `api` answers: the first page's status and headers, every item, and the pages read. */
export interface PagedAnswer {
  status: number;
  data: unknown;
  headers?: Headers;
  pages: number;
}

/** Which pagination scheme a first page uses, from its fields; undefined when it is not a list page. */
export function detectScheme(page: unknown): PageScheme | undefined {
  if (!page || typeof page !== "object" || Array.isArray(page)) return undefined;
  const p = page as Record<string, unknown>;
  if (Array.isArray(p.items)) return "oss";
  if (Array.isArray(p.results) && p.pagination && typeof p.pagination === "object") return "acc";
  if (Array.isArray(p.data) && "paginationToken" in p) return "da";
  if (Array.isArray(p.data) && p.links && typeof p.links === "object") return "dm";
  return undefined;
}

/** A client that answers `first` from `answer` once (the first page, already read), else sends. */
function withFirstPage(http: Http, answer: HttpResponse<unknown>): Http {
  let used = false;
  return {
    baseUrl: http.baseUrl,
    warn: http.warn,
    request<T>(spec: RequestSpec) {
      if (!used) {
        used = true;
        return Promise.resolve(answer as HttpResponse<T>);
      }
      return http.request<T>(spec);
    },
  };
}

/** An HQ list's pages after `first`: the offset moved by each page's length, until a short or empty page. */
async function offsetPages(
  http: Http,
  spec: RequestSpec,
  first: unknown[],
  status: number,
): Promise<PagedAnswer> {
  const items = [...first];
  const size = Number(spec.query?.limit) || first.length;
  let offset = Number(spec.query?.offset ?? 0) || 0;
  let last = first;
  let pages = 1;
  while (last.length > 0 && last.length >= size) {
    offset += last.length;
    const res = await http.request<unknown>({
      ...spec,
      query: { ...spec.query, offset: String(offset) },
      responseType: "json",
    });
    last = Array.isArray(res.data) ? res.data : [];
    items.push(...last);
    pages++;
  }
  return { status, data: items, pages };
}

/**
 * `api --paginate`: the first page of `spec`, then every page after it that its scheme names; `hq`
 * when `spec` is an HQ v1 path, whose lists are bare arrays paged by offset.
 */
export async function allPages(http: Http, spec: RequestSpec, hq: boolean): Promise<PagedAnswer> {
  const first = await http.request<unknown>({ ...spec, responseType: "json" });
  if (hq && Array.isArray(first.data)) {
    return { ...await offsetPages(http, spec, first.data, first.status), headers: first.headers };
  }
  const scheme = detectScheme(first.data);
  if (!scheme) return { status: first.status, data: first.data, pages: 1, headers: first.headers };
  const items: unknown[] = [];
  const included = new Map<string, unknown>();
  let pages = 0;
  const onPage = (page: Record<string, unknown>) => {
    pages++;
    if (scheme === "dm" && Array.isArray(page.included)) {
      for (const resource of page.included) included.set(resourceKey(resource, included.size), resource);
    }
  };
  for await (const item of paginate<unknown>(withFirstPage(http, first), spec, scheme, { onPage })) {
    items.push(item);
  }
  // A JSON:API list's pages carry related resources in `included` (e.g. each item's tip version):
  // they come back beside the items, as one document, rather than being dropped.
  const data = included.size > 0 ? { data: items, included: [...included.values()] } : items;
  return { status: first.status, data, pages, headers: first.headers };
}

/** A JSON:API resource's identity (type and id), so that one included by several pages is kept once. */
function resourceKey(resource: unknown, fallback: number): string {
  const r = resource as { type?: unknown; id?: unknown } | null;
  return typeof r?.type === "string" && typeof r?.id === "string" ? `${r.type}\u0000${r.id}` : `#${fallback}`;
}
