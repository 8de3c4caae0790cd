/**
 * A long list's json output written piece by piece (command/context.ts `emit` with `longList`), the same
 * text as core/output.ts renders whole. Loaded only when a result carries such a list.
 */
import { isPlainObject } from "./output_cells.ts";

/**
 * `JSON.stringify(record, null, 2) + "\n"` (the json format) in pieces, the list under `key` one item at a time: a
 * list of 200,000 items as one string (and its bytes) costs ~100 MB at once.
 */
export function* jsonPieces(record: unknown, key: string): Generator<string> {
  const list = isPlainObject(record) ? record[key] : undefined;
  if (!isPlainObject(record) || !Array.isArray(list) || list.length === 0) {
    yield JSON.stringify(record ?? null, null, 2) + "\n";
    return;
  }
  const marker = JSON.stringify("\0list\0");
  const whole = JSON.stringify({ ...record, [key]: "\0list\0" }, null, 2);
  const at = whole.indexOf(marker);
  yield whole.slice(0, at) + "[\n";
  for (let i = 0; i < list.length; i++) {
    // Strings in JSON hold no raw line breaks: every "\n" here is the layout's.
    const item = (JSON.stringify(list[i] ?? null, null, 2) ?? "null").replaceAll("\n", "\n    ");
    yield (i > 0 ? ",\n    " : "    ") + item;
  }
  yield "\n  ]" + whole.slice(at + marker.length) + "\n";
}

/** Joins small pieces into chunks of about 64 KiB (one write each). */
export function* batched(pieces: Iterable<string>, size = 65536): Generator<string> {
  let chunk = "";
  for (const piece of pieces) {
    chunk += piece;
    if (chunk.length >= size) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}
