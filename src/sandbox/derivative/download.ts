/**
 * Answers with a derivative file from disk: whole, or one byte range (`Range: bytes=a-b`) as 206,
 * streamed rather than read into memory.
 */

import type { OutputFile } from "./store.ts";

/** The inclusive byte range of a `Range` header for a file of `size` bytes; "invalid" when unsatisfiable. */
export function parseRange(
  header: string | null,
  size: number,
): { start: number; end: number } | "invalid" | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return "invalid";
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "invalid";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start > end || start >= size ? "invalid" : { start, end };
}

async function rangeStream(path: string, start: number, end: number): Promise<ReadableStream<Uint8Array>> {
  const file = await Deno.open(path);
  await file.seek(start, Deno.SeekMode.Start);
  let left = end - start + 1;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (left <= 0) {
        file.close();
        controller.close();
        return;
      }
      const buf = new Uint8Array(Math.min(64 * 1024, left));
      const n = await file.read(buf);
      if (n === null) {
        file.close();
        controller.error(new Error("derivative file ended early"));
        return;
      }
      left -= n;
      controller.enqueue(buf.subarray(0, n));
    },
    cancel: () => file.close(),
  });
}

/** The answer carrying `file` (honouring a `Range` header); `headOnly` leaves the body out. */
export async function fileResponse(
  file: OutputFile,
  req: Request,
  extra: Record<string, string> = {},
  headOnly = false,
): Promise<Response> {
  const headers = new Headers({
    "content-type": file.mime,
    "accept-ranges": "bytes",
    etag: `"${file.etag}"`,
    ...extra,
  });
  const range = parseRange(req.headers.get("range"), file.size);
  if (range === "invalid") {
    headers.set("content-range", `bytes */${file.size}`);
    return new Response(null, { status: 416, headers });
  }
  const { start, end } = range ?? { start: 0, end: file.size - 1 };
  headers.set("content-length", String(Math.max(0, end - start + 1)));
  if (range) headers.set("content-range", `bytes ${start}-${end}/${file.size}`);
  const status = range ? 206 : 200;
  if (headOnly || !file.path || file.size === 0) return new Response(null, { status, headers });
  return new Response(await rangeStream(file.path, start, end), { status, headers });
}
