/**
 * Following a redirect (http.ts decides whether: only to the same origin, README.md "Safety"). The
 * next request is the one fetch itself would send after the answer, not the first request again.
 */

import { DiazoError } from "../core/errors.ts";
import { urlParts } from "./url_text.ts";

/**
 * The one rule of where diazo follows the platform (a redirect, a list's next link): only to the
 * origin it asked, else a request_failed error before anything is sent to `to`. `what` says what
 * pointed there ("the answer redirects", "the list's next link points").
 */
export function refuseForeign(from: string, to: string, status: number, what: string): void {
  const target = urlParts(to);
  if (target.origin === urlParts(from).origin) return;
  // No `status`: the refusal is diazo's, not an answer a caller would restate (families/api/answer.ts).
  throw new DiazoError("request_failed", {
    params: { status, detail: `${what} to another host (${target.host}), which diazo does not follow` },
  });
}

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
