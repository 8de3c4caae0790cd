/**
 * A minimal HTTP/1.1 client with the shape of `fetch` (so that the Http client's retries, timeouts
 * and logging apply), for every request whose body is in memory:
 * - large request bodies (storage part PUTs) go straight from the caller's buffer to the socket:
 *   `fetch` copies a body several times and frees the copies lazily, which multiplies memory by the
 *   number of parts in flight;
 * - API calls skip Deno's `fetch`, `Headers`, `Response` and streams, which Deno loads on first use
 *   at about 8 ms of a run's start-up; answers come back as wire.ts objects, read whole or, for a
 *   streamed answer (`diazo api`, downloads), read off the connection as they are asked for.
 * Connections are kept alive and reused per origin.
 */

import { byteStringOf, concatBytes } from "../core/bytes.ts";
import type { Deadline, StopSignal } from "../core/deadline.ts";
import { type ByteSink, byteSink, type CappedInit, fetchInit } from "./body_limit.ts";
import { bodyFraming, type Decoded, decoded, framed } from "./raw_body.ts";
import type { BodyReader } from "./stream_body.ts";
import { isIdempotent } from "./retry.ts";
import { headerPairs, type WireAnswer, wireHeaders, wireResponse } from "./wire.ts";
import { type UrlParts, urlParts } from "./url_text.ts";

const CRLF = "\r\n";
const MAX_HEADER_BYTES = 64 * 1024;
const IDLE_PER_ORIGIN = 16;
/**
 * A request that is not safe to send twice (POST, PATCH) reuses only a connection idle for less
 * than this: far below the keep-alive timeouts of servers (5 s and up), so the server has not closed
 * it meanwhile, and a failure is never retried on a new connection (which could act twice).
 */
const FRESH_IDLE_MS = 2000;

/** A connection of the pool, with what was read past the previous answer. */
export interface Connection {
  conn: Deno.Conn;
  /** Bytes read past the end of the previous answer (none with a well-behaved server). */
  leftover: Uint8Array;
  /** When it went back to the pool (performance.now()). */
  idleSince?: number;
  /** Whether the current answer has begun to arrive (then a failure is the answer's, not a stale connection's). */
  answering?: boolean;
  /**
   * When the request's deadline passes (performance.now()): checked at each read, so that an answer
   * arriving as fast as it is read cannot outrun a timer that has no turn to fire.
   */
  endsAt?: number;
}

const idle = new Map<string, Connection[]>();

/** True when a proxy is configured: requests then go through fetch, which knows how to use it. */
export function proxyConfigured(env: Record<string, string | undefined>): boolean {
  return ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"].some((n) =>
    env[n]
  );
}

/** A pooled connection to `url`'s origin idle for less than `maxIdleMs`, or a new one (`fresh`: always new). */
async function open(
  url: UrlParts,
  fresh: boolean,
  maxIdleMs: number,
): Promise<Connection & { reused: boolean }> {
  const pool = fresh ? undefined : idle.get(url.origin);
  for (let reused = pool?.pop(); reused; reused = pool?.pop()) {
    if (performance.now() - (reused.idleSince ?? 0) < maxIdleMs) return { ...reused, reused: true };
    reused.conn.close();
  }
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const conn = url.protocol === "https:"
    ? await Deno.connectTls({ hostname, port })
    : await Deno.connect({ hostname, port });
  return { conn, leftover: new Uint8Array(0), reused: false };
}

/**
 * A connection for a request to `url` (pooled unless `fresh`), or undefined when fetch must send it:
 * Deno.connect tries only the first address a name resolves to (say an IPv6 one that does not
 * answer, or ::1 for localhost when the server listens on 127.0.0.1), and fetch tries each of them.
 * Aborting the signal rejects with its reason.
 */
export async function connect(
  url: UrlParts,
  fresh: boolean,
  maxIdleMs: number,
  signal?: StopSignal,
): Promise<(Connection & { reused: boolean }) | undefined> {
  try {
    return await untilAborted(open(url, fresh, maxIdleMs), signal);
  } catch (e) {
    if (signal?.aborted) throw signal.reason ?? e;
    if (isIpLiteral(url.hostname)) throw e;
    return undefined;
  }
}

/** True for a host given as an IP address (no name to resolve to other addresses). */
function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}

/** The connection being opened, or the signal's reason once it aborts (Deno.connect takes no signal). */
function untilAborted<T extends { conn: Deno.Conn }>(
  opening: Promise<T>,
  signal?: StopSignal,
): Promise<T> {
  if (!signal) return opening;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    opening.then((c) => {
      signal.removeEventListener("abort", onAbort);
      if (!signal.aborted) return resolve(c);
      try {
        c.conn.close(); // opened after the abort: nobody will use it
      } catch { /* closed */ }
    }, (e) => {
      signal.removeEventListener("abort", onAbort);
      reject(e);
    });
  });
}

/** The address of a request as text (a string, a URL or a Request). */
export function urlText(input: string | URL | Request): string {
  return typeof input === "string" ? input : (input as Request).url ?? (input as URL).href;
}

/** Puts a connection whose answer was read whole back in its origin's pool. */
export function release(origin: string, c: Connection) {
  const pool = idle.get(origin) ?? [];
  if (pool.length >= IDLE_PER_ORIGIN) return c.conn.close();
  pool.push({ ...c, idleSince: performance.now() });
  idle.set(origin, pool);
}

/** Writes all of `bytes` to the connection. */
export async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await conn.write(bytes.subarray(off));
}

/** Reads from the connection into `into`, serving leftover bytes first; null at end of stream. */
async function readSome(c: Connection, into: Uint8Array): Promise<Uint8Array | null> {
  if (c.endsAt !== undefined && performance.now() > c.endsAt) {
    throw new DOMException("attempt timed out", "TimeoutError");
  }
  if (c.leftover.length > 0) {
    const out = c.leftover;
    c.leftover = new Uint8Array(0);
    c.answering = true;
    return out;
  }
  const n = await c.conn.read(into);
  if (n === null) return null;
  c.answering = true;
  return into.subarray(0, n); // valid until the next read: raw_body.ts copies what it keeps
}

/** The end of the answer's head: an empty line, ended by CRLF or by a bare LF (which fetch accepts too). */
function headerEnd(buf: Uint8Array): number {
  for (let i = 1; i < buf.length; i++) {
    if (buf[i] === 10 && (buf[i - 1] === 10 || (buf[i - 1] === 13 && buf[i - 2] === 10))) return i + 1;
  }
  return -1;
}

/** An answer's status line and headers. */
export interface Head {
  status: number;
  statusText: string;
  headers: Headers;
  /** Whether the server keeps the connection open after this answer. */
  keepAlive: boolean;
}

function parseHead(text: string): Head {
  const [statusLine, ...lines] = text.split(/\r?\n/).filter((l) => l !== "");
  const m = /^HTTP\/1\.([01]) (\d{3}) ?(.*)$/.exec(statusLine ?? "");
  if (!m) {
    throw new TypeError(`malformed HTTP status line: ${JSON.stringify((statusLine ?? "").slice(0, 80))}`);
  }
  const pairs: [string, string][] = [];
  for (const line of lines) {
    const last = pairs.at(-1);
    // A folded line (obs-fold) continues the previous value; it is not a header of its own.
    if (/^[ \t]/.test(line) && last) last[1] = `${last[1]} ${line.trim()}`.trim();
    else if (line.indexOf(":") > 0) {
      const i = line.indexOf(":");
      pairs.push([line.slice(0, i).trim(), line.slice(i + 1).trim()]);
    }
  }
  const headers = wireHeaders(pairs);
  const connection = (headers.get("connection") ?? "").toLowerCase().split(",").map((t) => t.trim());
  // HTTP/1.0 closes after each answer unless it says keep-alive; HTTP/1.1 keeps it unless it says close.
  const keepAlive = !connection.includes("close") && (m[1] === "1" || connection.includes("keep-alive"));
  return { status: Number(m[2]), statusText: m[3], headers, keepAlive };
}

/**
 * Reads an answer's head (skipping interim ones, as fetch does) and the bytes read past it; `noBody`
 * says the answer has no body whatever its headers (a HEAD, 204, 304).
 */
export async function readHead(
  c: Connection,
  method: string,
  scratch: Uint8Array = new Uint8Array(64 * 1024),
): Promise<{ head: Head; rest: Uint8Array; noBody: boolean }> {
  let buf: Uint8Array = new Uint8Array(0);
  let head: Head;
  for (;;) {
    let end = headerEnd(buf);
    while (end < 0) {
      const chunk = await readSome(c, scratch);
      if (chunk === null) throw new TypeError("connection closed before the answer's headers");
      buf = concatBytes([buf, chunk]);
      end = headerEnd(buf);
      if (end < 0 ? buf.length > MAX_HEADER_BYTES : end > MAX_HEADER_BYTES) {
        throw new TypeError("answer headers too large");
      }
    }
    // Header values are bytes: decoded one code unit per byte, as fetch does (UTF-8 would differ).
    head = parseHead(byteStringOf(buf.subarray(0, end)));
    buf = buf.subarray(end);
    // An interim answer (100 Continue, 103 Early Hints) precedes the real one, as fetch skips it.
    if (head.status >= 200 || head.status === 101) break;
  }
  const noBody = method === "HEAD" || head.status === 204 || head.status === 304 || head.status < 200;
  return { head, rest: buf, noBody };
}

/** Bytes read at once off the connection of a streamed answer (downloads, `diazo api`). */
const STREAM_READ_BYTES = 1024 * 1024;

/** Closes a connection that may be closed already. */
function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}

/**
 * Reads one answer: whole, its body at most `init.maxBodyBytes` decoded bytes for a 2xx answer and
 * `maxErrorBytes` for any other (cut then: the rest is left unread and the connection closed, so an
 * endless, huge or inflating answer is never held), or, with `init.stream`, a 2xx answer's head and
 * a reader of its body. The connection goes back to the pool once its answer was read whole and the
 * server keeps it, else it is closed; `done` runs then.
 */
async function readAnswer(
  c: Connection,
  origin: string,
  method: string,
  init: CappedInit,
  done: () => void,
): Promise<Omit<WireAnswer, "url">> {
  const scratch = new Uint8Array(init.stream ? STREAM_READ_BYTES : 64 * 1024);
  const { head, rest, noBody } = await readHead(c, method, scratch);
  const framing = noBody ? { chunked: false, length: 0 } : bodyFraming(head.headers);
  const src = { buf: rest, more: () => readSome(c, scratch) };
  const body = decoded(noBody ? null : head.headers.get("content-encoding"), framed(src, framing));
  const reusable = head.keepAlive && (framing.chunked || framing.length !== undefined);
  const finish = (whole: boolean) => {
    if (whole && reusable) release(origin, { conn: c.conn, leftover: src.buf.slice() });
    else closeQuietly(c.conn);
    done();
  };
  const { status, statusText, headers } = head;
  const ok = status >= 200 && status < 300;
  if (init.stream && ok) {
    c.endsAt = undefined; // past its head a stream has no deadline but silence (http/idle.ts)
    const reader = streamed(body, finish, init.signal ?? undefined);
    return { status, statusText, headers, body: new Uint8Array(0), reader };
  }
  const cap = ok ? init.maxBodyBytes ?? Infinity : init.maxErrorBytes ?? init.maxBodyBytes ?? Infinity;
  const { sink, whole } = await readWhole(body, cap);
  finish(whole);
  return { status, statusText, headers, body: sink, cut: !whole };
}

/** A body read whole up to `cap` decoded bytes: the sink, and whether it was read to its end. */
async function readWhole(body: Decoded, cap: number): Promise<{ sink: ByteSink; whole: boolean }> {
  const sink = byteSink(cap);
  for (let piece = await body.next(); piece; piece = await body.next()) {
    if (!sink.push(piece)) {
      await body.stop();
      return { sink, whole: false };
    }
  }
  return { sink, whole: true };
}

/**
 * A 2xx answer's body handed on as it comes: `finish` once it ends (true: read whole, the
 * connection may carry another request) or is cancelled or fails (false: the connection is closed).
 */
function streamed(body: Decoded, finish: (whole: boolean) => void, signal?: StopSignal): BodyReader {
  let over = false;
  const end = (whole: boolean) => {
    if (over) return;
    over = true;
    finish(whole);
  };
  return {
    async read() {
      if (over) return undefined;
      try {
        const piece = await body.next();
        if (!piece) end(true);
        return piece;
      } catch (e) {
        end(false);
        throw signal?.aborted ? signal.reason ?? e : e;
      }
    },
    async cancel() {
      if (over) return;
      end(false);
      await body.stop();
    },
  };
}

/** A request's head: its line, host, the caller's headers (but framing ones) and the body's length. */
export function requestHead(
  url: UrlParts,
  method: string,
  headers: HeadersInit | undefined,
  bodyLength: number,
) {
  const framing = new Set(["host", "content-length", "transfer-encoding", "connection"]);
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1${CRLF}host: ${url.host}${CRLF}`;
  for (const [k, v] of headerPairs(headers)) {
    if (/[\r\n]/.test(k + v)) throw new TypeError(`invalid header ${JSON.stringify(k)}`);
    if (!framing.has(k)) head += `${k}: ${v}${CRLF}`;
  }
  if (bodyLength > 0 || !["GET", "HEAD", "DELETE", "OPTIONS"].includes(method)) {
    head += `content-length: ${bodyLength}${CRLF}`;
  }
  return new TextEncoder().encode(head + CRLF);
}

/**
 * Sends one request with a byte or text body (or none) and returns the answer as a Response
 * (wire.ts): read whole, its body at most `init.maxBodyBytes` decoded bytes (`maxErrorBytes` for an
 * answer that is not 2xx; the response's `cut` says whether it was cut), or, with `init.stream`, a
 * 2xx answer's body as it comes (the response's `reader`; the deadline then holds until its head).
 * Aborting the signal, or its deadline passing, closes the connection. An idle connection the
 * server closed meanwhile is retried once on a new one, for requests safe to send twice.
 */
export async function rawFetch(input: string | URL | Request, init: CappedInit = {}): Promise<Response> {
  const url = urlParts(urlText(input));
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`unsupported URL ${url.protocol}`);
  }
  const method = (init.method ?? "GET").toUpperCase();
  const body = init.body === undefined || init.body === null
    ? new Uint8Array(0)
    : init.body instanceof Uint8Array
    ? init.body
    : typeof init.body === "string"
    ? new TextEncoder().encode(init.body)
    : undefined;
  if (!body) throw new TypeError("rawFetch sends only byte or text bodies");
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const headBytes = requestHead(url, method, init.headers, body.length);
  const idempotent = isIdempotent(method);
  for (let fresh = false;; fresh = true) {
    const c = await connect(url, fresh, idempotent ? Infinity : FRESH_IDLE_MS, signal);
    if (!c) return await fetch(input, fetchInit(init)); // nothing was sent: fetch sends the request
    const onAbort = () => c.conn.close();
    signal?.addEventListener("abort", onAbort, { once: true });
    c.endsAt = (signal as Partial<Deadline> | undefined)?.endsAt;
    let sent = false;
    let streaming = false;
    try {
      await writeAll(c.conn, headBytes);
      sent = true;
      if (body.length > 0) await writeAll(c.conn, body);
      const answer = await readAnswer(
        c,
        url.origin,
        method,
        init,
        () => signal?.removeEventListener("abort", onAbort),
      );
      streaming = answer.reader !== undefined;
      return wireResponse({ ...answer, url: url.href });
    } catch (e) {
      closeQuietly(c.conn);
      if (signal?.aborted) throw signal.reason ?? e;
      // An idle connection the server closed meanwhile fails at once, before any answer: a new one for
      // a request that is safe to send twice, or that the server cannot have received (its first write
      // failed). A malformed answer is the server's: it is not asked again.
      if (c.reused && !c.answering && (idempotent || !sent)) continue;
      throw e;
    } finally {
      if (!streaming) signal?.removeEventListener("abort", onAbort);
    }
  }
}
