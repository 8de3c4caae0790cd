/**
 * An answer's body as the raw transport (raw_transport.ts) reads it off its connection: its framing
 * (a length, chunks, or the connection's end) and its content coding taken off piece by piece, as
 * the reader asks for the next piece. The same reading serves an answer read whole up to a cap and
 * one handed on as it comes (`diazo api`, downloads): nothing is read before it is asked for.
 */
import { byteStringOf, concatBytes } from "../core/bytes.ts";

/** Bytes read off a connection but not used yet, and how to read more (null at its end). */
export interface Source {
  buf: Uint8Array;
  /** The next bytes of the connection; valid until the next call (its buffer is read into again). */
  more(): Promise<Uint8Array | null>;
}

/** The next piece of a body (valid until the next call), or undefined once the body is whole. */
export type Pieces = () => Promise<Uint8Array | undefined>;

/** A body's decoded pieces, and how to stop reading it early. */
export interface Decoded {
  next: Pieces;
  /** Stops the decoding (a body left unread: its connection is closed by the caller). */
  stop(): Promise<void>;
}

/** The answer's length: repeated identical values ("2, 2", from two headers) are one, as fetch reads them. */
export function contentLength(value: string): number {
  const values = [...new Set(value.split(",").map((v) => v.trim()))];
  if (values.length !== 1 || !/^\d{1,15}$/.test(values[0])) {
    throw new TypeError(`malformed content-length ${JSON.stringify(value.slice(0, 40))}`);
  }
  return Number(values[0]);
}

/** How an answer's body is delimited, from its headers: its length, chunks, or the end of the connection. */
export function bodyFraming(headers: Headers): { chunked: boolean; length?: number } {
  if (/chunked/i.test(headers.get("transfer-encoding") ?? "")) return { chunked: true };
  const length = headers.get("content-length");
  return { chunked: false, ...(length !== null ? { length: contentLength(length) } : {}) };
}

/** The longest line of chunked framing (a size with its extensions, or a trailer). */
const MAX_CHUNK_LINE = 8 * 1024;
/** What is handed to a decompressor at once: a deflate stream inflates at most ~1,032 times its size. */
const INFLATE_STEP = 4 * 1024;

/** The body's bytes as sent (its framing taken off), piece by piece. */
export function framed(src: Source, framing: { chunked: boolean; length?: number }): Pieces {
  return framing.chunked ? chunked(src) : delimited(src, framing.length);
}

/** More bytes into `src.buf` (what it held is copied first: the buffer is read into again); fails at the end with `what`. */
async function fill(src: Source, what: string): Promise<void> {
  const kept = src.buf.slice();
  const chunk = await src.more();
  if (chunk === null) throw new TypeError(what);
  src.buf = kept.length === 0 ? chunk : concatBytes([kept, chunk]);
}

/** A body of `length` bytes, or up to the connection's end. */
function delimited(src: Source, length: number | undefined): Pieces {
  let left = length ?? Infinity;
  return async () => {
    if (left === 0) return undefined;
    if (src.buf.length === 0) {
      const chunk = await src.more();
      if (chunk === null) {
        if (length !== undefined) throw new TypeError("connection closed in the middle of the answer");
        left = 0; // delimited by the connection's end
        return undefined;
      }
      src.buf = chunk;
    }
    const take = src.buf.subarray(0, Math.min(left, src.buf.length));
    src.buf = src.buf.subarray(take.length);
    left -= take.length;
    return take;
  };
}

/** One line of chunked framing, at most MAX_CHUNK_LINE bytes (an endless line fails). */
async function chunkLine(src: Source): Promise<string> {
  for (;;) {
    const end = src.buf.indexOf(10);
    if (end >= 0) {
      const line = byteStringOf(src.buf.subarray(0, end)).replace(/\r$/, "");
      src.buf = src.buf.subarray(end + 1);
      return line;
    }
    if (src.buf.length > MAX_CHUNK_LINE) throw new TypeError("malformed chunked answer: a line without end");
    await fill(src, "connection closed in a chunked answer");
  }
}

/** A chunked body, its trailers skipped. */
function chunked(src: Source): Pieces {
  let left = 0;
  let ended = false;
  let lineEnd = false; // the line end after a chunk, read at the next call (the piece stays valid till then)
  return async () => {
    if (ended) return undefined;
    if (lineEnd) {
      if ((await chunkLine(src)) !== "") throw new TypeError("malformed chunked answer");
      lineEnd = false;
    }
    if (left === 0) {
      const sizeText = (await chunkLine(src)).split(";")[0].trim();
      if (!/^[0-9a-f]{1,12}$/i.test(sizeText)) throw new TypeError("malformed chunk size");
      left = parseInt(sizeText, 16);
      if (left === 0) {
        while ((await chunkLine(src)) !== ""); // trailers end with an empty line
        ended = true;
        return undefined;
      }
    }
    if (src.buf.length === 0) await fill(src, "connection closed in a chunked answer");
    const take = src.buf.subarray(0, Math.min(left, src.buf.length));
    src.buf = src.buf.subarray(take.length);
    left -= take.length;
    lineEnd = left === 0;
    return take;
  };
}

/**
 * The body as sent before its content coding. A compressed body is inflated a few KiB of input at a
 * time, as its output is asked for, so a small body that inflates to gigabytes is never held: its
 * reader takes what it wants and stops. Any coding but gzip or deflate fails rather than passing on
 * bytes nobody can read (the raw transport sends no Accept-Encoding).
 */
export function decoded(coding: string | null, wire: Pieces): Decoded {
  const name = (coding ?? "").trim().toLowerCase();
  if (name === "" || name === "identity") return { next: wire, stop: () => Promise.resolve() };
  if (name !== "gzip" && name !== "x-gzip" && name !== "deflate") {
    throw new TypeError(`unsupported content encoding '${name.slice(0, 40)}'`);
  }
  const inflate = new DecompressionStream(name === "deflate" ? "deflate" : "gzip");
  const writer = inflate.writable.getWriter();
  const reader = inflate.readable.getReader();
  // Each write waits until its output was taken: the wire is read only as fast as the output is.
  const feed = (async () => {
    for (let piece = await wire(); piece; piece = await wire()) {
      for (let at = 0; at < piece.length; at += INFLATE_STEP) {
        await writer.write(piece.slice(at, at + INFLATE_STEP));
      }
    }
    await writer.close();
  })().catch((e) => writer.abort(e).catch(() => {}));
  return {
    async next() {
      const { done, value } = await reader.read();
      if (!done) return value;
      await feed;
      return undefined;
    },
    stop: () => reader.cancel().catch(() => {}),
  };
}
