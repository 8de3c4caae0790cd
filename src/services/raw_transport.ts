/**
 * A minimal HTTP/1.1 client for sending large request bodies (storage part PUTs) straight from a
 * caller's buffer to the socket. `fetch` copies a body several times and frees the copies lazily,
 * which multiplies memory by the number of parts in flight; writing the buffer to the connection
 * keeps memory at the part buffers themselves. Connections are kept alive and reused per origin.
 * It has the shape of `fetch` so that the Http client's retries, timeouts and logging apply.
 */

import { concatBytes } from "../core/bytes.ts";

const CRLF = "\r\n";
const MAX_HEADER_BYTES = 64 * 1024;
const IDLE_PER_ORIGIN = 16;

interface Connection {
  conn: Deno.Conn;
  /** Bytes read past the end of the previous answer (none with a well-behaved server). */
  leftover: Uint8Array;
}

const idle = new Map<string, Connection[]>();

/** True when a proxy is configured: requests then go through fetch, which knows how to use it. */
export function proxyConfigured(env: Record<string, string | undefined>): boolean {
  return ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"].some((n) =>
    env[n]
  );
}

async function open(url: URL, fresh: boolean): Promise<Connection & { reused: boolean }> {
  const reused = fresh ? undefined : idle.get(url.origin)?.pop();
  if (reused) return { ...reused, reused: true };
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const conn = url.protocol === "https:"
    ? await Deno.connectTls({ hostname, port })
    : await Deno.connect({ hostname, port });
  return { conn, leftover: new Uint8Array(0), reused: false };
}

function release(origin: string, c: Connection) {
  const pool = idle.get(origin) ?? [];
  if (pool.length >= IDLE_PER_ORIGIN) return c.conn.close();
  pool.push(c);
  idle.set(origin, pool);
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await conn.write(bytes.subarray(off));
}

/** Reads from the connection, serving leftover bytes first; null at end of stream. */
async function readSome(c: Connection, into: Uint8Array): Promise<Uint8Array | null> {
  if (c.leftover.length > 0) {
    const out = c.leftover;
    c.leftover = new Uint8Array(0);
    return out;
  }
  const n = await c.conn.read(into);
  return n === null ? null : into.slice(0, n);
}

function headerEnd(buf: Uint8Array): number {
  for (let i = 3; i < buf.length; i++) {
    if (buf[i] === 10 && buf[i - 1] === 13 && buf[i - 2] === 10 && buf[i - 3] === 13) return i + 1;
  }
  return -1;
}

interface Head {
  status: number;
  statusText: string;
  headers: Headers;
}

function parseHead(text: string): Head {
  const [statusLine, ...lines] = text.split(CRLF).filter((l) => l !== "");
  const m = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine ?? "");
  if (!m) {
    throw new TypeError(`malformed HTTP status line: ${JSON.stringify((statusLine ?? "").slice(0, 80))}`);
  }
  const headers = new Headers();
  for (const line of lines) {
    const i = line.indexOf(":");
    if (i > 0) headers.append(line.slice(0, i).trim(), line.slice(i + 1).trim());
  }
  return { status: Number(m[1]), statusText: m[2], headers };
}

/** Reads one answer; says whether the connection may carry another request. */
async function readAnswer(
  c: Connection,
  method: string,
): Promise<{ head: Head; body: Uint8Array; reusable: boolean }> {
  const scratch = new Uint8Array(64 * 1024);
  let buf: Uint8Array = new Uint8Array(0);
  let end = -1;
  while (end < 0) {
    const chunk = await readSome(c, scratch);
    if (chunk === null) throw new TypeError("connection closed before the answer's headers");
    buf = concatBytes([buf, chunk]);
    if (buf.length > MAX_HEADER_BYTES) throw new TypeError("answer headers too large");
    end = headerEnd(buf);
  }
  const head = parseHead(new TextDecoder().decode(buf.subarray(0, end)));
  let rest: Uint8Array = buf.subarray(end);
  const noBody = method === "HEAD" || head.status === 204 || head.status === 304 || head.status < 200;
  const length = head.headers.get("content-length");
  const chunked = /chunked/i.test(head.headers.get("transfer-encoding") ?? "");
  const closes = /close/i.test(head.headers.get("connection") ?? "");
  let body: Uint8Array;
  let reusable = !closes;
  if (noBody) body = new Uint8Array(0);
  else if (chunked) ({ body, rest } = await readChunked(c, rest, scratch));
  else if (length !== null) {
    const n = Number(length);
    while (rest.length < n) {
      const chunk = await readSome(c, scratch);
      if (chunk === null) throw new TypeError("connection closed in the middle of the answer");
      rest = concatBytes([rest, chunk]);
    }
    body = rest.subarray(0, n);
    rest = rest.subarray(n);
  } else {
    for (let chunk = await readSome(c, scratch); chunk !== null; chunk = await readSome(c, scratch)) {
      rest = concatBytes([rest, chunk]);
    }
    body = rest;
    rest = new Uint8Array(0);
    reusable = false;
  }
  c.leftover = rest.slice();
  return { head, body, reusable };
}

async function readChunked(
  c: Connection,
  start: Uint8Array,
  scratch: Uint8Array,
): Promise<{ body: Uint8Array; rest: Uint8Array }> {
  let buf: Uint8Array = start;
  const parts: Uint8Array[] = [];
  const more = async () => {
    const chunk = await readSome(c, scratch);
    if (chunk === null) throw new TypeError("connection closed in a chunked answer");
    buf = concatBytes([buf, chunk]);
  };
  for (;;) {
    let lineEnd = buf.indexOf(10);
    while (lineEnd < 0) {
      await more();
      lineEnd = buf.indexOf(10);
    }
    const size = parseInt(new TextDecoder().decode(buf.subarray(0, lineEnd)).split(";")[0].trim(), 16);
    if (!Number.isFinite(size)) throw new TypeError("malformed chunk size");
    buf = buf.subarray(lineEnd + 1);
    if (size === 0) {
      // Trailers end with an empty line.
      for (;;) {
        let e = buf.indexOf(10);
        while (e < 0) {
          await more();
          e = buf.indexOf(10);
        }
        const line = buf.subarray(0, e);
        buf = buf.subarray(e + 1);
        if (line.length <= 1) break;
      }
      return { body: concatBytes(parts), rest: buf };
    }
    while (buf.length < size + 2) await more();
    parts.push(buf.slice(0, size));
    buf = buf.subarray(size + 2);
  }
}

/**
 * Sends one request with a byte body and returns the answer as a Response (its body read whole:
 * storage answers to PUTs are small). Aborting the signal closes the connection.
 */
export async function rawFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
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
  const headers = new Headers(init.headers);
  headers.set("host", url.host);
  headers.set("content-length", String(body.length));
  headers.delete("transfer-encoding");
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1${CRLF}`;
  for (const [k, v] of headers) head += `${k}: ${v}${CRLF}`;
  const headBytes = new TextEncoder().encode(head + CRLF);
  for (let fresh = false;; fresh = true) {
    const c = await open(url, fresh);
    const onAbort = () => c.conn.close();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await writeAll(c.conn, headBytes);
      await writeAll(c.conn, body);
      const answer = await readAnswer(c, method);
      if (answer.reusable) release(url.origin, { conn: c.conn, leftover: c.leftover });
      else c.conn.close();
      return new Response(answer.body.length > 0 ? answer.body.slice() : null, {
        status: answer.head.status,
        statusText: answer.head.statusText,
        headers: answer.head.headers,
      });
    } catch (e) {
      try {
        c.conn.close();
      } catch { /* already closed */ }
      if (signal?.aborted) throw signal.reason ?? e;
      // An idle connection the server closed meanwhile fails at once: try once on a new one.
      if (c.reused) continue;
      throw e;
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }
}
