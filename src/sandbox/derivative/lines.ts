/**
 * Streaming text helpers for the model readers: lines of a byte stream with bounded memory, and a
 * stream that puts already-read bytes back in front of the rest.
 */
import { concatBytes } from "../../core/bytes.ts";

import { CorruptModelError } from "./model.ts";

/** Longest line a text reader accepts; a longer one means the input is not that text format. */
export const MAX_LINE_LENGTH = 1 << 20;

/** What `forEachLine` saw. */
export interface LineStats {
  lines: number;
  /** False when the last line had no line ending (a truncated file often ends that way). */
  endsWithNewline: boolean;
}

/** Options of `forEachLine`. */
export interface LineOptions {
  /** A NUL character anywhere makes the input corrupt (text formats never hold one). */
  rejectBinary?: boolean;
  maxLineLength?: number;
}

/**
 * Calls `onLine` for each line of the UTF-8 `stream` (without `\n` or `\r\n`), holding one chunk
 * at a time. `onLine` may return `false` to stop reading.
 */
export async function forEachLine(
  stream: ReadableStream<Uint8Array>,
  onLine: (line: string, lineNumber: number) => void | boolean,
  opts: LineOptions = {},
): Promise<LineStats> {
  const maxLine = opts.maxLineLength ?? MAX_LINE_LENGTH;
  const decoder = new TextDecoder();
  let rest = "";
  let lines = 0;
  let stopped = false;
  const emit = (line: string) => {
    lines++;
    const end = line.endsWith("\r") ? line.length - 1 : line.length;
    if (onLine(end === line.length ? line : line.slice(0, end), lines) === false) stopped = true;
  };
  const take = (text: string) => {
    if (opts.rejectBinary && text.includes("\0")) {
      throw new CorruptModelError(`binary data found near line ${lines + 1}`);
    }
    let all = rest + text;
    let pos = 0;
    for (let nl = all.indexOf("\n", pos); nl >= 0 && !stopped; nl = all.indexOf("\n", pos)) {
      emit(all.slice(pos, nl));
      pos = nl + 1;
    }
    all = all.slice(pos);
    if (all.length > maxLine) {
      throw new CorruptModelError(`line ${lines + 1} is longer than ${maxLine} characters`);
    }
    rest = all;
  };
  const reader = stream.getReader();
  try {
    while (!stopped) {
      const { done, value } = await reader.read();
      if (done) break;
      take(decoder.decode(value, { stream: true }));
    }
    if (!stopped) take(decoder.decode());
  } finally {
    if (stopped) await reader.cancel().catch(() => {});
    else reader.releaseLock();
  }
  const endsWithNewline = rest === "";
  if (!stopped && rest !== "") emit(rest);
  return { lines, endsWithNewline };
}

/** Reads at least `count` bytes from the front of `stream` (fewer only when it ends first). */
export async function peekBytes(
  stream: ReadableStream<Uint8Array>,
  count: number,
): Promise<{ head: Uint8Array; stream: ReadableStream<Uint8Array> }> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let have = 0;
  let ended = false;
  while (have < count) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    parts.push(value);
    have += value.length;
  }
  const head = concatBytes(parts);
  const rebuilt = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head.length > 0) controller.enqueue(head);
      if (ended) controller.close();
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (why) => reader.cancel(why),
  });
  return { head, stream: rebuilt };
}
