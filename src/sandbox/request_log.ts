/**
 * The request log of the control API: what reached the emulated platform, without headers, tokens
 * or secrets, and without bodies but the JSON:API documents of data management writes (which carry
 * none), capped so that a long run cannot exhaust memory.
 */

import type { ServiceStore } from "./store.ts";

/** One recorded request. `status` 0 means the connection was dropped without an answer. */
export interface RequestLogEntry {
  seq: number;
  /** ISO 8601, wall clock. */
  time: string;
  method: string;
  /** The path as served, repeated slashes collapsed. */
  path: string;
  /** The path as the client sent it, when that differs (e.g. `//authentication/v2/token`). */
  sent_path?: string;
  query: Record<string, string>;
  status: number;
  duration_ms: number;
  client_id?: string;
  /** The scopes of the token the request carried, space-separated. */
  scope?: string;
  /** The `grant_type` of a token-endpoint call (never its codes, tokens or secrets). */
  grant_type?: string;
  fault_id?: string;
  /** The parsed body of a request sent as `application/vnd.api+json` (a JSON:API write), or of a construction-cloud JSON write (account administration, issues...). */
  body?: unknown;
}

/** A bounded log that keeps the newest entries; a reset empties it, and it is not in the state dump. */
export interface RequestLog extends ServiceStore {
  /** Appends an entry, numbering it; the oldest entry goes when the log is full. */
  add(entry: Omit<RequestLogEntry, "seq">): RequestLogEntry;
  /** Entries oldest first, optionally only those whose path starts with `pathPrefix`. */
  list(pathPrefix?: string): RequestLogEntry[];
  /** The newest `n` entries, newest first. */
  recent(n: number): RequestLogEntry[];
  /** Forgets every entry (numbering continues). */
  clear(): void;
  readonly size: number;
}

/** Default number of entries kept. */
export const REQUEST_LOG_CAP = 200_000;

/** Query parameters whose values are credentials and never recorded. */
const SECRET_PARAMS = new Set([
  "access_token",
  "client_secret",
  "code",
  "code_verifier",
  "refresh_token",
  "token",
  "assertion",
  "id_token",
  "password",
  "x-amz-signature",
]);

/** The query of `url` as a record, with credential values replaced by `[redacted]`. */
export function redactedQuery(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    if (k in query) continue;
    query[k] = SECRET_PARAMS.has(k.toLowerCase()) ? "[redacted]" : v;
  }
  return query;
}

/** Creates an empty log holding at most `cap` entries (a ring buffer). */
export function createRequestLog(cap = REQUEST_LOG_CAP): RequestLog {
  let ring: RequestLogEntry[] = [];
  let head = 0; // index of the oldest entry once the ring is full
  let seq = 0;
  const clear = () => {
    ring = [];
    head = 0;
  };
  const ordered = () => (ring.length < cap ? ring : [...ring.slice(head), ...ring.slice(0, head)]);
  return {
    add(entry) {
      const full = { seq: ++seq, ...entry };
      if (ring.length < cap) {
        ring.push(full);
      } else {
        ring[head] = full;
        head = (head + 1) % cap;
      }
      return full;
    },
    list(pathPrefix) {
      const all = ordered();
      return pathPrefix ? all.filter((e) => e.path.startsWith(pathPrefix)) : [...all];
    },
    recent(n) {
      const out: RequestLogEntry[] = [];
      const last = ring.length < cap ? ring.length - 1 : (head - 1 + cap) % cap;
      for (let i = 0; i < Math.min(n, ring.length); i++) {
        out.push(ring[(last - i + ring.length) % ring.length]);
      }
      return out;
    },
    clear,
    reset: clear,
    snapshot: () => ({}),
    get size() {
      return ring.length;
    },
  };
}
