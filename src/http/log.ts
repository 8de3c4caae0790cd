/** The Http client's traffic log (`--debug`): request and answer lines, headers and bodies redacted. */
import { knownSecrets, redact, redactHeaders } from "../core/redact.ts";

const LOG_BODY_LIMIT = 2048;
/** Only this much of a body is scanned for secrets before the log cuts it to LOG_BODY_LIMIT. */
const LOG_SCAN_LIMIT = 64 * 1024;

/** Logs a request line, its headers (credentials masked) and a JSON or form body. */
export function logRequest(
  log: (line: string) => void,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: { json?: unknown; form?: Record<string, string> },
): void {
  log(`> ${method} ${url}`);
  for (const [k, v] of Object.entries(redactHeaders(headers))) log(`>   ${k}: ${v}`);
  if (body.json !== undefined) log(`> ${clip(JSON.stringify(body.json))}`);
  else if (body.form) log(`> ${clip(new URLSearchParams(body.form).toString())}`);
}

/** Logs an answer's headers, credentials masked. */
export function logResponseHeaders(log: (line: string) => void, headers: Headers): void {
  for (const [k, v] of Object.entries(redactHeaders(headers))) log(`<   ${k}: ${v}`);
}

/** A body for the log: redacted before it is cut, so that a secret straddling the cut is still found whole. */
export function clip(text: string): string {
  const scanned = redact(text.slice(0, LOG_SCAN_LIMIT), knownSecrets());
  if (scanned.length <= LOG_BODY_LIMIT) return scanned;
  return `${scanned.slice(0, LOG_BODY_LIMIT)}… (${text.length - LOG_BODY_LIMIT} more characters)`;
}

/** "200 OK", or the bare status when the answer has no reason phrase. */
export function statusLine(res: Response): string {
  return res.statusText ? `${res.status} ${res.statusText}` : String(res.status);
}
