/**
 * Streamed GETs (downloads) over the raw HTTP/1.1 transport (raw_transport.ts): the answer's body
 * is a byte stream read from the socket straight into the reader's own buffer (a BYOB reader), so a
 * download costs one read and one write per buffer and no allocation per chunk. Through `fetch`'s
 * body the same bytes cost about 40% more CPU, which on a 2-core machine is what a download shares
 * with its SHA-1. Other methods, and hosts `Deno.connect` cannot reach, go by fetch.
 */
import {
  bodyFraming,
  connect,
  type Connection,
  decompressorFor,
  readHead,
  release,
  requestHead,
  urlText,
  writeAll,
} from "./raw_transport.ts";
import { urlParts } from "./url_text.ts";
import { wireStreamResponse } from "./wire.ts";
import { type CappedInit, fetchInit } from "./body_limit.ts";

/** The read size when the reader brings no buffer of its own. */
const AUTO_CHUNK = 256 * 1024;

/** Where a chunked body is: in a size line, in a chunk's data, in the CRLF after it, or in trailers. */
type ChunkState = { at: "size" } | { at: "data"; left: number } | { at: "crlf" } | { at: "trailers" };

/**
 * A GET with its answer's body streamed from the connection (see the module's note); any other
 * request is fetch's. Aborting the signal closes the connection, also while the body is read. A
 * pooled connection the server closed meanwhile is replaced once, before any answer arrived.
 */
export async function rawStreamFetch(
  input: string | URL | Request,
  init: CappedInit = {},
): Promise<Response> {
  const url = urlParts(urlText(input));
  const method = (init.method ?? "GET").toUpperCase();
  const noBody = init.body === undefined || init.body === null;
  if (method !== "GET" || !noBody || (url.protocol !== "http:" && url.protocol !== "https:")) {
    return await fetch(input, fetchInit(init));
  }
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const headBytes = requestHead(url, method, init.headers, 0);
  for (let fresh = false;; fresh = true) {
    const c = await connect(url, fresh, Infinity, signal);
    if (!c) return await fetch(input, fetchInit(init)); // nothing was sent: fetch sends the request
    const onAbort = () => c.conn.close();
    signal?.addEventListener("abort", onAbort, { once: true });
    const done = (reusable: boolean) => {
      signal?.removeEventListener("abort", onAbort);
      if (reusable && !signal?.aborted) release(url.origin, { conn: c.conn, leftover: c.leftover });
      else closeQuietly(c.conn);
    };
    try {
      await writeAll(c.conn, headBytes);
      const { head, rest, noBody: empty } = await readHead(c, method);
      let body = bodyStream(
        c,
        empty ? { chunked: false, length: 0 } : bodyFraming(head),
        rest,
        (ok) => done(ok && head.keepAlive),
      );
      // The body as sent before its content coding, as fetch gives it (a coding other than gzip or
      // deflate fails, and the connection is closed below).
      const decompressor = decompressorFor(head.headers.get("content-encoding"));
      if (decompressor) {
        body = body.pipeThrough(decompressor as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
      }
      const { status, statusText, headers } = head;
      return wireStreamResponse({ status, statusText, headers, body, url: url.href });
    } catch (e) {
      signal?.removeEventListener("abort", onAbort);
      closeQuietly(c.conn);
      if (signal?.aborted) throw signal.reason ?? e;
      if (c.reused && !c.answering) continue;
      throw e;
    }
  }
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}

/** The bytes of an answer's body from the socket: those already read past its head first. */
interface BodySource {
  /** Up to `max` bytes into `view`; 0 at the socket's end. */
  readInto(view: Uint8Array, max: number): Promise<number>;
  /** A line of chunked framing (without its line end); fails at the socket's end. */
  line(): Promise<string>;
  /** Bytes read past the body's end (none from a well-behaved server). */
  unread(): Uint8Array;
}

function bodySource(c: Connection, rest: Uint8Array): BodySource {
  let pending: Uint8Array = rest;
  return {
    async readInto(view, max) {
      const room = Math.min(view.length, max);
      if (pending.length > 0) {
        const n = Math.min(room, pending.length);
        view.set(pending.subarray(0, n));
        pending = pending.subarray(n);
        return n;
      }
      return (await c.conn.read(view.subarray(0, room))) ?? 0;
    },
    async line() {
      for (let end = pending.indexOf(10);; end = pending.indexOf(10)) {
        if (end >= 0) {
          const text = new TextDecoder().decode(pending.subarray(0, end)).replace(/\r$/, "");
          pending = pending.subarray(end + 1);
          return text;
        }
        if (pending.length > 8192) throw new TypeError("malformed chunked answer");
        const buf = new Uint8Array(4096);
        const n = await c.conn.read(buf);
        if (n === null) throw new TypeError("connection closed in a chunked answer");
        const joined = new Uint8Array(pending.length + n);
        joined.set(pending);
        joined.set(buf.subarray(0, n), pending.length);
        pending = joined;
      }
    },
    unread: () => pending,
  };
}

/** Reads a chunked body: each call fills `view` with data bytes; 0 once the last chunk and trailers are read. */
function chunkedReader(source: BodySource): (view: Uint8Array) => Promise<number> {
  let at: ChunkState = { at: "size" };
  return async (view) => {
    for (;;) {
      if (at.at === "size") {
        const text = (await source.line()).split(";")[0].trim();
        if (!/^[0-9a-f]{1,12}$/i.test(text)) throw new TypeError("malformed chunk size");
        const n = parseInt(text, 16);
        at = n === 0 ? { at: "trailers" } : { at: "data", left: n };
      } else if (at.at === "data") {
        const n = await source.readInto(view, at.left);
        if (n === 0) throw new TypeError("connection closed in a chunked answer");
        at = at.left - n === 0 ? { at: "crlf" } : { at: "data", left: at.left - n };
        return n;
      } else if (at.at === "crlf") {
        if ((await source.line()) !== "") throw new TypeError("malformed chunked answer");
        at = { at: "size" };
      } else if ((await source.line()) === "") return 0;
    }
  };
}

/**
 * The body as a byte stream: reads from the socket into the reader's view, never past the body's
 * end (`done(true)` then, or `done(false)` when it fails, is cancelled or ends with the connection).
 */
function bodyStream(
  c: Connection,
  framing: { chunked: boolean; length?: number },
  rest: Uint8Array,
  done: (reusable: boolean) => void,
): ReadableStream<Uint8Array> {
  const source = bodySource(c, rest);
  const chunked = framing.chunked ? chunkedReader(source) : undefined;
  let left = framing.length; // bytes of a delimited body still to come
  let finished = false;
  const finish = (reusable: boolean) => {
    if (finished) return;
    finished = true;
    const unread = source.unread();
    c.leftover = reusable ? unread.slice() : new Uint8Array(0);
    done(reusable && unread.length === 0);
  };
  return new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: AUTO_CHUNK,
    async pull(controller: ReadableByteStreamController) {
      const request = controller.byobRequest!;
      const view = new Uint8Array(request.view!.buffer, request.view!.byteOffset, request.view!.byteLength);
      try {
        let n: number;
        if (chunked) n = await chunked(view);
        else if (left !== undefined) {
          n = left === 0 ? 0 : await source.readInto(view, left);
          if (n === 0 && left > 0) throw new TypeError("connection closed in the middle of the answer");
          left -= n;
        } else n = await source.readInto(view, view.length); // delimited by the connection's end
        if (n > 0) request.respond(n);
        if (n === 0 || (!chunked && left === 0)) {
          finish(left !== undefined || chunked !== undefined);
          controller.close();
          if (n === 0) request.respond(0);
        }
      } catch (e) {
        finish(false);
        controller.error(e);
      }
    },
    cancel() {
      finish(false);
    },
  });
}
