/**
 * How `diazo api` shows an answer as `gh api` does: `-i` prints the status line and the headers, and
 * a refusal names the method, the path, the status and the platform's own body (cut, with a note,
 * when it is long), so that what went wrong is on the one `error:` line.
 */
import { DiazoError, isDiazoError } from "../../core/errors.ts";
import { redactHeaders } from "../../core/redact.ts";

/** The reason phrases of the statuses the platform answers with (a Response from the raw transport has none). */
const REASONS: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  206: "Partial Content",
  301: "Moved Permanently",
  302: "Found",
  304: "Not Modified",
  307: "Temporary Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  409: "Conflict",
  410: "Gone",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** "404 Not Found", or the bare number for a status without a known phrase. */
export function statusText(status: number): string {
  return REASONS[status] ? `${status} ${REASONS[status]}` : String(status);
}

/** `-i`'s head: the status line, then each header as `Name: value` (credentials masked), then a blank line. */
export function headText(status: number, headers: Headers | undefined): string {
  const lines = [`HTTP/1.1 ${statusText(status)}`];
  const shown = headers ? redactHeaders(headers) : {};
  for (const name of Object.keys(shown).sort()) lines.push(`${capitalized(name)}: ${shown[name]}`);
  return lines.join("\n") + "\n\n";
}

function capitalized(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

/** How much of a refusal's body the error line quotes. */
export const ERROR_BODY_LIMIT = 500;

/** A body on one line: JSON compact, text with its runs of blanks and line breaks as one space. */
export function oneLineBody(body: unknown): string {
  if (body === undefined || body === null || body === "") return "(no body)";
  if (body instanceof Uint8Array) return `(${body.length} bytes)`;
  if (typeof body === "string") return body.replace(/\s+/g, " ").trim();
  return JSON.stringify(body);
}

/**
 * A refusal of `method path` restated with what the platform answered; the catalog's code, hint
 * and exit code stay. Anything that is not an HTTP answer (network, timeout, usage) passes as it is.
 */
export function apiFailure(e: unknown, method: string, path: string): unknown {
  if (!isDiazoError(e) || e.status === undefined) return e;
  const full = oneLineBody(e.body);
  const body = full.length > ERROR_BODY_LIMIT
    ? `${
      full.slice(0, ERROR_BODY_LIMIT)
    }… (cut at ${ERROR_BODY_LIMIT} of ${full.length} characters; -i prints the whole answer)`
    : full;
  return new DiazoError(e.code, {
    params: e.params,
    status: e.status,
    body: e.body,
    headers: e.headers,
    message: `${method} ${path}: HTTP ${statusText(e.status)}: ${body}`,
    cause: e,
  });
}
