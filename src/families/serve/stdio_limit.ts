/**
 * A bound on one stdio message: the SDK's stdio transport closes itself, and with it the
 * server, when a line passes its 10 MiB buffer. This filter sits between stdin and the transport: a
 * line longer than the limit is dropped as it streams by (never held whole), refused with a JSON-RPC
 * error, and the lines after it are served as usual.
 */
import { Buffer } from "node:buffer";
import { PassThrough, type Readable } from "node:stream";

/** The longest message accepted over stdio, bytes (below the SDK's own 10 MiB buffer). */
export const MAX_STDIO_MESSAGE_BYTES = 8 * 1024 * 1024;

/** What the filter tells about a refused line: its size so far and the id found at its start, if any. */
export interface OversizedLine {
  bytes: number;
  id: string | number | null;
}

/** How much of a refused line's start is kept to find its `id`. */
const HEAD_BYTES = 512;

/** The JSON-RPC id near the start of a message's text, when it is written there (as clients do). */
export function leadingId(head: string): string | number | null {
  const m = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")/.exec(head);
  if (!m) return null;
  return m[1].startsWith('"') ? JSON.parse(m[1]) as string : Number(m[1]);
}

/**
 * A stream of the lines of `input` at most `max` bytes long (newlines kept); each longer line is
 * dropped and reported to `onOversized` once its end is read.
 */
export function limitLines(
  input: Readable,
  onOversized: (line: OversizedLine) => void,
  max = MAX_STDIO_MESSAGE_BYTES,
): PassThrough {
  const out = new PassThrough();
  let pending: Buffer[] = [];
  let size = 0;
  let dropping: { bytes: number; head: string } | undefined;
  const take = (piece: Buffer) => {
    if (dropping) {
      dropping.bytes += piece.length;
      return;
    }
    size += piece.length;
    if (size <= max) return void pending.push(piece);
    const head = Buffer.concat([...pending, piece]).subarray(0, HEAD_BYTES).toString("utf8");
    dropping = { bytes: size, head };
    pending = [];
  };
  const endLine = () => {
    if (dropping) onOversized({ bytes: dropping.bytes, id: leadingId(dropping.head) });
    else out.write(Buffer.concat([...pending, Buffer.from("\n")]));
    pending = [];
    size = 0;
    dropping = undefined;
  };
  input.on("data", (chunk: Buffer | string) => {
    let data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10)) {
      take(data.subarray(0, nl));
      endLine();
      data = data.subarray(nl + 1);
    }
    if (data.length > 0) take(data);
  });
  input.on("end", () => {
    if (size > 0 && !dropping) out.write(Buffer.concat(pending));
    out.end();
  });
  input.on("error", (e) => out.destroy(e));
  return out;
}
