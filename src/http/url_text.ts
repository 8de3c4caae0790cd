/**
 * Absolute http(s) URLs read and written as text when they are already in the form `URL` would give
 * them, and through `URL` otherwise, so that every result is `URL`'s. The first `URL` and
 * `URLSearchParams` of a run cost 8.0 million instructions of `bucket list` (ARCHITECTURE.md,
 * "Start-up"), and the platform's addresses and diazo's own requests are nearly always in that form
 * already.
 */

/** The parts of an absolute URL the HTTP client reads (a `URL` has them too). */
export interface UrlParts {
  readonly href: string;
  readonly protocol: string;
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
  readonly origin: string;
  readonly pathname: string;
  readonly search: string;
}

const LABEL = "[a-z0-9](?:[a-z0-9-]*[a-z0-9])?";
/**
 * A URL `URL` leaves as it is (but for the `/` of an empty path): lower-case http(s) scheme and host
 * name, an explicit port, a path and a query of characters it never escapes; nothing it would decode,
 * resolve, encode or drop.
 */
const NORMAL = new RegExp(
  `^(https?):\\/\\/(${LABEL}(?:\\.${LABEL})*)(?::([1-9][0-9]{0,4}))?` +
    `(\\/[A-Za-z0-9\\-._~!$&'()*+,;=:@%\\/]*)?(\\?[A-Za-z0-9\\-._~!$&()*+,;=:@%\\/?]+)?$`,
);
/** A dotted-quad IPv4 address as `URL` writes it. */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
/** A `.` or `..` segment (also percent-encoded), which `URL` resolves. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;
/** Query names and values `URLSearchParams` writes as they are. */
const PLAIN_PARAM = /^[A-Za-z0-9*\-._]*$/;

/** The parts of `text` when `URL` would keep it as it is; undefined when `URL` must read it. */
function normalParts(text: string): UrlParts | undefined {
  const m = NORMAL.exec(text);
  if (!m) return undefined;
  const [, scheme, hostname, port = "", pathname = "/", search = ""] = m;
  const lastLabel = hostname.slice(hostname.lastIndexOf(".") + 1);
  // A numeric last label makes the host an IPv4 address, which URL rewrites unless dotted-quad;
  // an `xn--` label is checked as punycode.
  if (/^(?:\d+|0x[0-9a-f]*)$/.test(lastLabel) && !IPV4.test(hostname)) return undefined;
  if (/(?:^|\.)xn--/.test(hostname) || DOT_SEGMENT.test(pathname)) return undefined;
  if (port && (Number(port) > 65535 || port === (scheme === "https" ? "443" : "80"))) return undefined;
  const protocol = `${scheme}:`;
  const host = port ? `${hostname}:${port}` : hostname;
  const origin = `${protocol}//${host}`;
  // Without a path, URL writes `/`.
  return { href: `${origin}${pathname}${search}`, protocol, host, hostname, port, origin, pathname, search };
}

/** The parts of the absolute URL `text`, as `new URL(text)` has them; throws as it does. */
export function urlParts(text: string): UrlParts {
  return normalParts(text) ?? new URL(text);
}

/** `text` as `new URL(text).href` writes it; throws as `URL` does. */
export function normalUrl(text: string): string {
  return normalParts(text)?.href ?? new URL(text).href;
}

/**
 * `text` as `URLSearchParams` writes a name or value (application/x-www-form-urlencoded: letters,
 * digits and `*-._` as they are, a space as `+`, every other character as the percent-encoded bytes of
 * its UTF-8); undefined for a lone surrogate, which only `URL` turns into U+FFFD.
 */
function formEncoded(text: string): string | undefined {
  if (PLAIN_PARAM.test(text)) return text;
  if (!text.isWellFormed()) return undefined;
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

/** The name or value a query's `text` reads as (`+` a space), when `URLSearchParams` writes it back as it is. */
function formDecoded(text: string): string | undefined {
  if (PLAIN_PARAM.test(text)) return text;
  try {
    const decoded = decodeURIComponent(text.replace(/\+/g, " "));
    return formEncoded(decoded) === text ? decoded : undefined;
  } catch {
    return undefined; // a malformed escape, which URL reads its own way
  }
}

/** `url` with each defined `query` parameter set (replacing one present), as `URLSearchParams.set` writes it. */
export function withQuery(
  url: string,
  query: Readonly<Record<string, string | number | boolean | undefined>> = {},
): string {
  const pairs = Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]);
  if (pairs.length === 0) return normalUrl(url);
  const parts = normalParts(url);
  if (parts && parts.search === "") {
    const written = pairs.map(([k, v]) => [formEncoded(k), formEncoded(v)]);
    if (written.every(([k, v]) => k !== undefined && v !== undefined)) {
      return `${parts.href}?${written.map(([k, v]) => `${k}=${v}`).join("&")}`;
    }
  }
  const out = new URL(url);
  for (const [k, v] of pairs) out.searchParams.set(k, v);
  return out.toString();
}

/** `url` with its query parameters sorted by name (`URLSearchParams.sort`): one text for one request. */
export function sortedQueryUrl(url: string): string {
  const parts = normalParts(url);
  if (parts?.search === "") return parts.href;
  const pairs = parts?.search.slice(1).split("&").map((p) => p.split("="));
  const names = pairs?.map((p) =>
    p.length === 2 && formDecoded(p[1]) !== undefined ? formDecoded(p[0]) : undefined
  );
  if (parts && pairs && names?.every((n) => n !== undefined)) {
    const sorted = pairs.map((p, i) => ({ p, i, name: names[i]! })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : a.i - b.i
    );
    return `${parts.origin}${parts.pathname}?${sorted.map(({ p }) => p.join("=")).join("&")}`;
  }
  const out = new URL(url);
  out.searchParams.sort();
  return out.toString();
}

/**
 * The names of the query parameters of the absolute URL `text`, as `new URL(text).searchParams` has
 * them (each once).
 */
export function queryNames(text: string): Set<string> {
  const parts = normalParts(text);
  if (parts) {
    const names = new Set<string>();
    for (const pair of parts.search.slice(1).split("&")) {
      if (pair === "") continue;
      const at = pair.indexOf("=");
      const name = at < 0 ? pair : pair.slice(0, at);
      if (!PLAIN_PARAM.test(name)) return new Set(new URL(text).searchParams.keys());
      names.add(name);
    }
    return names;
  }
  return new Set(new URL(text).searchParams.keys());
}
