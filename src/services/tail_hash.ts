/**
 * SHA-1 of a file that another handle is still appending to, computed in a worker thread so that
 * hashing overlaps the transfer instead of competing with it on the main thread.
 */

/** The worker's source: tails the file, hashing what is there, until told the writer is done. */
const WORKER_SOURCE = `
import { createHash } from "node:crypto";
let writerDone = false;
let stopped = false;
self.onmessage = async (e) => {
  if (e.data.done) { writerDone = true; return; }
  if (e.data.stop) { stopped = true; return; }
  try {
    const hash = createHash("sha1");
    const buf = new Uint8Array(4 * 1024 * 1024);
    let size = 0;
    const f = await Deno.open(e.data.file, { read: true });
    try {
      for (;;) {
        if (stopped) return;
        const n = await f.read(buf);
        if (n !== null) {
          hash.update(buf.subarray(0, n));
          size += n;
        } else if (writerDone) {
          break;
        } else {
          await new Promise((r) => setTimeout(r, 2));
        }
      }
    } finally {
      f.close();
    }
    self.postMessage({ size, sha1: hash.digest("hex") });
  } catch (err) {
    self.postMessage({ error: String(err?.message ?? err) });
  }
};`;

let workerUrl: string | undefined;

/** A running tail hash: `finish` once the writer closed the file; `abandon` on failure. */
export interface TailHash {
  finish(): Promise<{ size: number; sha1: string }>;
  abandon(): void;
}

/** Starts hashing `file` as it grows. */
export function startTailHash(file: string): TailHash {
  workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
  const worker = new Worker(workerUrl, { type: "module" });
  const result = new Promise<{ size: number; sha1: string }>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent) => {
      if (e.data.error) reject(new Error(`hashing ${file}: ${e.data.error}`));
      else resolve(e.data);
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      reject(new Error(`hashing ${file}: ${e.message}`));
    };
  });
  result.catch(() => {}).finally(() => worker.terminate());
  worker.postMessage({ file });
  return {
    finish() {
      worker.postMessage({ done: true });
      return result;
    },
    abandon() {
      worker.postMessage({ stop: true });
      worker.terminate();
    },
  };
}
