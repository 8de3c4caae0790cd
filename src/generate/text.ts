/** Byte-level helpers of the generators: fixed-width numbers, comment padding, ~1 MiB chunks. */

/** Size of the chunks the generators yield. */
export const CHUNK_BYTES = 1 << 20;

/** One piece of a file: ASCII text or bytes. */
export type Piece = string | Uint8Array;

/** A coordinate as exactly 7 characters ("123.456"): every generated coordinate lies in [100, 1000). */
export function coord(x: number): string {
  const clamped = Math.min(999.999, Math.max(100, x));
  return clamped.toFixed(3);
}

/** Text that fills padding; it holds no comment terminator of any format. */
const FILLER = "padding to the requested size. ";

function filler(length: number, offset: number): string {
  let s = "";
  while (s.length < length + offset) s += FILLER;
  return s.slice(offset, offset + length);
}

/** How a format writes a comment line. */
export interface CommentStyle {
  /** Text before the comment's text, e.g. "# ". */
  open: string;
  /** Text after it, ending the line, e.g. "\n". */
  close: string;
  /** The first comment's text, always written whole. */
  lead: string;
}

/** Longest comment text per line. */
const MAX_COMMENT_TEXT = 100;

/** Bytes of the smallest comment block of a style (its lead line). */
export function minimumComment(style: CommentStyle): number {
  return style.open.length + style.lead.length + style.close.length;
}

/**
 * Comment lines of exactly `total` bytes (at least `minimumComment(style)`): the lead line, then as
 * many filler lines as needed, each no longer than ~100 characters of text.
 */
export function commentBlock(total: number, style: CommentStyle): string {
  const overhead = style.open.length + style.close.length;
  const first = overhead + style.lead.length;
  if (total < first) throw new RangeError(`comment block of ${total} bytes is below ${first}`);
  const rest = total - first;
  if (rest <= overhead) {
    // Too little for a line of its own: lengthen the lead line instead.
    return style.open + style.lead + filler(rest, 0) + style.close;
  }
  const out = [style.open + style.lead + style.close];
  const lines = Math.ceil(rest / (overhead + MAX_COMMENT_TEXT));
  let text = rest - lines * overhead; // >= lines, since MAX_COMMENT_TEXT > overhead
  for (let k = 0; k < lines; k++) {
    const len = Math.ceil(text / (lines - k));
    out.push(style.open + filler(len, k % FILLER.length) + style.close);
    text -= len;
  }
  return out.join("");
}

/**
 * Joins pieces into chunks of `chunkBytes` (the last may be shorter). Text must be ASCII, so that
 * one character is one byte. Each yielded chunk is a new buffer the consumer may keep.
 */
export function* chunked(pieces: Iterable<Piece>, chunkBytes = CHUNK_BYTES): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  let buf = new Uint8Array(chunkBytes);
  let at = 0;
  for (const piece of pieces) {
    const length = piece.length;
    let from = 0;
    while (from < length) {
      const n = Math.min(length - from, chunkBytes - at);
      if (typeof piece === "string") {
        const part = from === 0 && n === length ? piece : piece.slice(from, from + n);
        encoder.encodeInto(part, buf.subarray(at, at + n));
      } else {
        buf.set(n === length ? piece : piece.subarray(from, from + n), at);
      }
      at += n;
      from += n;
      if (at === chunkBytes) {
        yield buf;
        buf = new Uint8Array(chunkBytes);
        at = 0;
      }
    }
  }
  if (at > 0) yield buf.subarray(0, at);
}

/** `bytes` repeated until it is at least `minBytes` long (whole repetitions). */
export function repeatTo(bytes: Uint8Array, minBytes: number): Uint8Array {
  const times = Math.max(1, Math.ceil(minBytes / bytes.length));
  const out = new Uint8Array(bytes.length * times);
  for (let k = 0; k < times; k++) out.set(bytes, k * bytes.length);
  return out;
}

/** `count` tiles of `tileBytes` each, cycling through `run` (whole tiles of that size). */
export function* cycleTiles(run: Uint8Array, tileBytes: number, count: number): Generator<Uint8Array> {
  const perRun = run.length / tileBytes;
  let left = count;
  while (left >= perRun) {
    yield run;
    left -= perRun;
  }
  if (left > 0) yield run.subarray(0, left * tileBytes);
}
