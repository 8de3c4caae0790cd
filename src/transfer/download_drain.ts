/**
 * The bytes of a streamed download into its part file: read into one reused buffer, hashed and
 * written piece by piece (download.ts decides what to fetch and checks the result).
 */
import type { Hash } from "node:crypto";
import type { BodyReader } from "../http/stream_body.ts";

/** A SHA-1 hash, fed the first `length` bytes of `file` when one is given (a resumed part file). */
export async function sha1Of(file: string | undefined, length: number): Promise<Hash> {
  const { createHash } = await import("node:crypto");
  const hash = createHash("sha1");
  if (file === undefined) return hash;
  using f = await Deno.open(file, { read: true });
  const buf = new Uint8Array(READ_SIZE);
  for (let left = length; left > 0;) {
    const n = await f.read(buf.subarray(0, Math.min(buf.length, left)));
    if (n === null) throw new Error(`${file} ended before ${length} bytes`);
    hash.update(buf.subarray(0, n));
    left -= n;
  }
  return hash;
}

/** Bytes of a part file read and hashed per step (as a streamed download's, http/stream_body.ts). */
const READ_SIZE = 1024 * 1024;

/** Where a download's bytes go: a file, or standard output; each write is done when it returns. */
export interface ByteSink {
  writeSync(bytes: Uint8Array): number;
}

/**
 * Reads `body` piece by piece (each piece in the reader's reused buffer), hashing and writing each
 * before the next read: the bytes are in the CPU's cache once, and no worker reads the file back
 * (measured: a 2-core machine shares its CPU between this, the hash and the server).
 */
export async function drainInto(
  body: BodyReader,
  out: ByteSink,
  hash: Hash,
  written: { size: number; lastShown: number },
  o: { expectedSize?: number; onProgress?: (done: number, total: number | undefined) => void },
): Promise<void> {
  for (let bytes = await body.read(); bytes; bytes = await body.read()) {
    hash.update(bytes);
    for (let off = 0; off < bytes.length;) off += out.writeSync(bytes.subarray(off));
    written.size += bytes.length;
    const now = performance.now();
    if (o.onProgress && now - written.lastShown >= 100) {
      written.lastShown = now;
      o.onProgress(written.size, o.expectedSize);
    }
  }
}
