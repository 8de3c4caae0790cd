/**
 * The object journal of a data dir: one JSON line per object put or removed, appended before the
 * request that made the change is answered, and rewritten whole (to a new file, then renamed) when
 * the sandbox starts or the objects were replaced at once. A line the process died while writing is
 * the last one and is skipped; an object whose data files are not whole is dropped.
 */

import { join } from "node:path";
import { objectsDir } from "../oss/object_files.ts";
import type { OssStore, StoredObject } from "../oss/store.ts";

/** One line: an object as it is now, or (without `o`) its removal. */
interface JournalLine {
  b: string;
  k: string;
  o?: StoredObject;
}

/** The journal file of a state directory. */
export function journalPath(stateDir: string): string {
  return join(stateDir, "objects.jsonl");
}

/** The journal's lines; `tail.torn` tells whether the last had no newline (the process died writing it). */
async function* lines(path: string, tail: { torn: boolean }): AsyncGenerator<string> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw e;
  }
  let rest = "";
  for await (const chunk of file.readable.pipeThrough(new TextDecoderStream())) {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop()!;
    yield* parts;
  }
  tail.torn = rest !== "";
}

function whole(obj: StoredObject): boolean {
  // Synchronous: the sandbox does not serve yet, and 100,000 pending stats cost memory it keeps.
  for (let i = 0; i < obj.files.length; i++) {
    try {
      if (Deno.statSync(obj.files[i]).size !== obj.fileSizes[i]) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * Reads the journal into the store's objects (of buckets that exist), keeping only objects whose
 * files are whole; removes object folders nothing refers to. True when the journal holds exactly
 * these objects, one whole line each, so it need not be written anew.
 */
export async function replayJournal(oss: OssStore, stateDir: string): Promise<boolean> {
  oss.objects.clear();
  const tail = { torn: false };
  let exact = true;
  for await (const text of lines(journalPath(stateDir), tail)) {
    let line: JournalLine;
    try {
      line = JSON.parse(text);
    } catch {
      exact = false;
      continue;
    }
    let bucket = oss.objects.get(line.b);
    if (line.o) {
      if (!bucket) oss.objects.set(line.b, bucket = { byKey: new Map() });
      if (bucket.byKey.has(line.k)) exact = false;
      // One string for the key and the record's objectKey, not two.
      line.o.objectKey = line.k;
      bucket.byKey.set(line.k, line.o);
    } else {
      exact = false;
      bucket?.byKey.delete(line.k);
    }
  }
  if (tail.torn) exact = false;
  const used = new Set<string>();
  for (const [bucketKey, bucket] of oss.objects) {
    if (!oss.buckets.has(bucketKey)) {
      oss.objects.delete(bucketKey);
      exact = false;
      continue;
    }
    for (const [key, obj] of bucket.byKey) {
      if (whole(obj)) used.add(obj.storeId);
      else {
        bucket.byKey.delete(key);
        exact = false;
      }
    }
  }
  try {
    for await (const e of Deno.readDir(objectsDir(oss))) {
      if (!used.has(e.name)) await Deno.remove(join(objectsDir(oss), e.name), { recursive: true });
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return exact;
}

/** Writes the journal anew from the store's objects: to a new file, renamed over the old one. */
export async function rewriteJournal(oss: OssStore, stateDir: string): Promise<void> {
  const tmp = journalPath(stateDir) + ".new";
  const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  try {
    let batch: string[] = [];
    for (const [b, bucket] of oss.objects) {
      for (const [k, o] of bucket.byKey) {
        batch.push(JSON.stringify({ b, k, o } satisfies JournalLine));
        if (batch.length === 1000) {
          await writeAll(file, encoder.encode(batch.join("\n") + "\n"));
          batch = [];
        }
      }
    }
    if (batch.length) await writeAll(file, encoder.encode(batch.join("\n") + "\n"));
  } finally {
    file.close();
  }
  await Deno.rename(tmp, journalPath(stateDir));
}

/** Writes all of `data` to an open file. */
export async function writeAll(file: Deno.FsFile, data: Uint8Array): Promise<void> {
  for (let off = 0; off < data.length;) off += await file.write(data.subarray(off));
}

/** Appends the objects at these keys as they are now (or their removal) to the journal. */
export async function appendJournal(
  oss: OssStore,
  stateDir: string,
  keys: Iterable<[string, string]>,
): Promise<void> {
  const out: string[] = [];
  for (const [b, k] of keys) {
    const o = oss.objects.get(b)?.byKey.get(k);
    out.push(JSON.stringify(o ? { b, k, o } : { b, k }));
  }
  if (!out.length) return;
  const file = await Deno.open(journalPath(stateDir), { append: true, create: true });
  try {
    await writeAll(file, new TextEncoder().encode(out.join("\n") + "\n"));
  } finally {
    file.close();
  }
}
