/**
 * The files of the object store: where objects and upload parts live under the data dir, and
 * streaming writes, reads and hashing with bounded memory.
 */

import type { Hash } from "node:crypto";
import { join } from "node:path";

const READ_CHUNK = 1024 * 1024;
const HASH_CHUNK = 4 * 1024 * 1024;

/** Directory of the objects' data: one subdirectory per stored object version. */
export function objectsDir(oss: { dataDir: string }): string {
  return join(oss.dataDir, "objects");
}

/** Directory of the upload sessions' parts: one subdirectory per session. */
export function uploadsDir(oss: { dataDir: string }): string {
  return join(oss.dataDir, "uploads");
}

/** Removes a file or directory tree, ignoring failure (e.g. when it is already gone). */
export async function removeQuietly(path: string): Promise<void> {
  await Deno.remove(path, { recursive: true }).catch(() => {});
}

/** Streams bytes into a new file, passing each chunk to `onChunk`; returns the byte count. */
export async function streamToFile(
  path: string,
  body: ReadableStream<Uint8Array> | Uint8Array | null,
  onChunk?: (chunk: Uint8Array) => void,
): Promise<number> {
  const source = body instanceof Uint8Array ? ReadableStream.from([body]) : body ?? ReadableStream.from([]);
  let size = 0;
  const counting = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, out) {
      size += chunk.byteLength;
      onChunk?.(chunk);
      out.enqueue(chunk);
    },
  });
  const file = await Deno.open(path, { write: true, createNew: true });
  try {
    await source.pipeThrough(counting).pipeTo(file.writable);
  } catch (e) {
    await removeQuietly(path);
    throw e;
  }
  return size;
}

/** Feeds a file's bytes to `hash`. */
export async function hashFile(hash: Hash, path: string): Promise<void> {
  // One large reused buffer: hashing is then bound by SHA-1, not by per-chunk overhead. No larger
  // than the file: a fresh 4 MiB per small part made batches of small files GC-bound.
  using file = await Deno.open(path);
  const buf = new Uint8Array(Math.min(HASH_CHUNK, (await file.stat()).size + 1));
  for (let n = await file.read(buf); n !== null; n = await file.read(buf)) hash.update(buf.subarray(0, n));
}

/** The bytes `from`..`to` (inclusive) of an open file, in chunks. */
export async function* fileRange(file: Deno.FsFile, from: number, to: number): AsyncGenerator<Uint8Array> {
  await file.seek(from, Deno.SeekMode.Start);
  for (let left = to - from + 1; left > 0;) {
    const buf = new Uint8Array(Math.min(READ_CHUNK, left));
    const n = await file.read(buf);
    if (n === null) throw new Error("a data file ended early");
    left -= n;
    yield n === buf.length ? buf : buf.subarray(0, n);
  }
}
