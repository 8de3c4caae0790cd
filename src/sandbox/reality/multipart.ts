/**
 * A streaming reader of `multipart/form-data` request bodies: text fields are collected, file parts
 * are written straight to disk as they arrive, so that a request carrying twenty 100 MiB photos never
 * sits in memory (the sandbox keeps objects on disk, not in memory).
 */

/** A file part written to disk. */
export interface StoredPart {
  /** The form field name, e.g. `file[0]`. */
  field: string;
  /** The file name the client gave. */
  filename: string;
  /** Where its bytes were written. */
  path: string;
  size: number;
}

/** What a multipart body held. */
export interface MultipartBody {
  fields: Map<string, string>;
  files: StoredPart[];
}

const HEADER_END = new Uint8Array([13, 10, 13, 10]);
/** Text fields larger than this are refused (they are ids, types and URLs). */
const MAX_FIELD_BYTES = 64 * 1024;

/** The boundary of a `multipart/form-data` content type, or undefined when it is not one. */
export function multipartBoundary(contentType: string | null): string | undefined {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return undefined;
  const m = /boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** Index of `needle` in `hay` from `from`, or -1. */
function indexOf(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  for (
    let i = hay.indexOf(first, from);
    i >= 0 && i <= hay.length - needle.length;
    i = hay.indexOf(first, i + 1)
  ) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The name and file name of a part from its headers. */
function disposition(headerText: string): { name: string; filename?: string } | undefined {
  const line = headerText.split("\r\n").find((l) => /^content-disposition\s*:/i.test(l));
  if (!line) return undefined;
  const name = /\bname="([^"]*)"/i.exec(line)?.[1];
  const filename = /\bfilename="([^"]*)"/i.exec(line)?.[1];
  return name === undefined ? undefined : { name, ...(filename !== undefined ? { filename } : {}) };
}

/**
 * Reads `body` (a multipart stream with `boundary`), writing each file part to a new file made by
 * `newFile()`. Throws an Error with a short reason on a malformed body (the caller answers 400).
 */
// long: one state machine over the stream (preamble, headers, body) reads clearer whole
export async function readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  newFile: () => string,
): Promise<MultipartBody> {
  const enc = new TextEncoder();
  const first = enc.encode(`--${boundary}`);
  const delimiter = enc.encode(`\r\n--${boundary}`);
  const out: MultipartBody = { fields: new Map(), files: [] };
  let buf: Uint8Array = new Uint8Array(0);
  let state: "preamble" | "headers" | "body" | "done" = "preamble";
  let part: { name: string; filename?: string } | undefined;
  let file: Deno.FsFile | undefined;
  let stored: StoredPart | undefined;
  let text: Uint8Array[] = [];
  let textSize = 0;
  const emit = async (bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    if (file && stored) {
      stored.size += bytes.length;
      let done = 0;
      while (done < bytes.length) done += await file.write(bytes.subarray(done));
    } else {
      textSize += bytes.length;
      if (textSize > MAX_FIELD_BYTES) throw new Error(`field '${part?.name}' is too large`);
      text.push(bytes.slice());
    }
  };
  const endPart = () => {
    if (file && stored) {
      file.close();
      out.files.push(stored);
    } else if (part) {
      const all = text.reduce(concat, new Uint8Array(0));
      out.fields.set(part.name, new TextDecoder().decode(all));
    }
    file = undefined;
    stored = undefined;
    part = undefined;
    text = [];
    textSize = 0;
  };
  try {
    for await (const chunk of body) {
      buf = concat(buf, chunk);
      for (;;) {
        if (state === "preamble") {
          const at = indexOf(buf, first);
          if (at < 0) break;
          buf = buf.subarray(at + first.length);
          state = "headers";
        } else if (state === "headers") {
          if (buf.length >= 2 && buf[0] === 45 && buf[1] === 45) { // "--": the closing delimiter
            state = "done";
            break;
          }
          const end = indexOf(buf, HEADER_END);
          if (end < 0) {
            if (buf.length > MAX_FIELD_BYTES) throw new Error("part headers are too large");
            break;
          }
          const headerText = new TextDecoder().decode(buf.subarray(0, end));
          buf = buf.subarray(end + HEADER_END.length);
          part = disposition(headerText.replace(/^\r\n/, ""));
          if (!part) throw new Error("a part has no Content-Disposition name");
          if (part.filename !== undefined) {
            const path = newFile();
            file = await Deno.open(path, { write: true, createNew: true });
            stored = { field: part.name, filename: part.filename, path, size: 0 };
          }
          state = "body";
        } else if (state === "body") {
          const at = indexOf(buf, delimiter);
          if (at >= 0) {
            await emit(buf.subarray(0, at));
            endPart();
            buf = buf.subarray(at + delimiter.length);
            state = "headers";
            continue;
          }
          // Keep a tail that may hold the start of the delimiter; the rest is part data.
          const keep = Math.min(buf.length, delimiter.length - 1);
          await emit(buf.subarray(0, buf.length - keep));
          buf = buf.slice(buf.length - keep);
          break;
        } else {
          break;
        }
      }
      if (state === "done") break;
    }
    if (state !== "done") throw new Error("the body ended before the closing boundary");
    return out;
  } catch (e) {
    file?.close();
    for (const f of out.files) await Deno.remove(f.path).catch(() => {});
    if (stored) await Deno.remove(stored.path).catch(() => {});
    throw e;
  }
}
