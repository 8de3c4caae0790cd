/**
 * Following a redirect (http.ts decides whether: only to the same origin, README.md "Safety"). The
 * next request is the one fetch itself would send after the answer, not the first request again.
 */

/** The statuses fetch follows (the Fetch standard's redirect statuses). */
export const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The request fetch makes after a redirect (the Fetch standard's HTTP-redirect fetch): a GET without
 * body after a 303 (but to a GET or HEAD) or after a 301/302 to a POST, and no Authorization for
 * another origin.
 */
export function nextHop(
  url: string,
  status: number,
  location: string,
  init: { method: string; headers: Record<string, string>; body: BodyInit | undefined },
): { url: string; init: RequestInit } {
  const next = new URL(location, url);
  const headers = { ...init.headers };
  let { method, body } = init;
  if ((status === 303 && method !== "GET" && method !== "HEAD") || (status <= 302 && method === "POST")) {
    method = "GET";
    body = undefined;
    for (
      const k of [
        "content-type",
        "content-length",
        "content-encoding",
        "content-language",
        "content-location",
      ]
    ) {
      delete headers[k];
    }
  }
  if (next.origin !== new URL(url).origin) delete headers.authorization;
  return { url: next.href, init: { method, headers, body } };
}
