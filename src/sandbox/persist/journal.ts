/**
 * The object journal of a data dir: one JSON line per object put or removed, appended before the
 * request that made the change is answered, and rewritten whole (to a new file, then renamed) when
 * the sandbox starts or the objects were replaced at once. A line the process died while writing is
 * the last one and is skipped; an object whose data files are not whole is dropped. A line names its
 * object's files relative to `<data-dir>/objects/` (`<storeId>/1`); a file anywhere else refuses the
 * start with the line's number, so a journal edited by hand cannot make the sandbox serve other files.
 */

import { isAbsolute, join, normalize, sep as SEPARATOR } from "node:path";
import { DiazoError } from "../../core/errors.ts";
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
  // Not followed through a link: the sandbox writes plain files only.
  for (let i = 0; i < obj.files.length; i++) {
    try {
      const info = Deno.lstatSync(obj.files[i]);
      if (!info.isFile || info.size !== obj.fileSizes[i]) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** A name of one path segment: no separator, not `.` or `..`. */
const PLAIN_NAME = /^(?!\.\.?$)[^/\\]+$/;

/** The journal's form of an object: its files relative to the objects directory, with `/`. */
function journalObject(oss: OssStore, o: StoredObject): StoredObject {
  const root = objectsDir(oss) + SEPARATOR;
  const files = o.files.map((f) => f.startsWith(root) ? f.slice(root.length).replaceAll(SEPARATOR, "/") : f);
  return { ...o, files };
}

/** One journal line of the object at `b`/`k` (its removal when `o` is undefined). */
function journalLine(oss: OssStore, b: string, k: string, o: StoredObject | undefined): string {
  return JSON.stringify(o ? { b, k, o: journalObject(oss, o) } : { b, k } satisfies JournalLine);
}

/**
 * The absolute path of a journal line's file, inside `<objects>/<storeId>/`: relative as written
 * now, or absolute as earlier versions wrote it; undefined when it is anywhere else.
 */
function fileInStore(objects: string, storeId: string, file: unknown): string | undefined {
  if (typeof file !== "string" || file === "") return undefined;
  if (isAbsolute(file)) {
    const dir = join(objects, storeId) + SEPARATOR;
    const path = normalize(file);
    return path.startsWith(dir) && path.length > dir.length ? path : undefined;
  }
  const parts = file.split("/");
  if (parts[0] !== storeId || parts.length < 2 || !parts.every((p) => PLAIN_NAME.test(p))) return undefined;
  // Joined by Array.join, which makes one flat string: node:path's join left a string of pieces that the
  // first stat flattens, and with 100,000 objects the leftovers kept a replayed sandbox about 50 MiB
  // larger (232 against 179 MiB right after the start, BENCH_ONLY=sandbox).
  return [objects, ...parts].join(SEPARATOR);
}

/** The refusal of journal line `lineNumber` of `path` (built only when a line is refused). */
function refusal(path: string, lineNumber: number, what: string): DiazoError {
  return new DiazoError("failure", {
    params: {
      detail: `${path} line ${lineNumber}: ${what}`,
      hint: "The journal was changed by hand: remove that line, or start the sandbox on a new --data-dir.",
    },
  });
}

/** Checks a parsed line's shape and makes its files absolute; throws, naming the line, when it names a file elsewhere. */
function checkedLine(value: unknown, objects: string, path: string, lineNumber: number): JournalLine {
  const refuse = (what: string) => refusal(path, lineNumber, what);
  const line = value as Partial<JournalLine> | null;
  if (!line || typeof line !== "object" || typeof line.b !== "string" || typeof line.k !== "string") {
    throw refuse("not an object line ({b, k, o})");
  }
  const o = line.o as Partial<StoredObject> | undefined;
  if (o === undefined) return line as JournalLine;
  if (
    !o || typeof o !== "object" || typeof o.storeId !== "string" || !PLAIN_NAME.test(o.storeId) ||
    !Array.isArray(o.files) || !Array.isArray(o.fileSizes) || o.files.length !== o.fileSizes.length
  ) {
    throw refuse(`object ${line.b}/${line.k} has no valid storeId, files and fileSizes`);
  }
  for (let i = 0; i < o.files.length; i++) {
    const file = fileInStore(objects, o.storeId, o.files[i]);
    if (file === undefined) {
      throw refuse(
        `object ${line.b}/${line.k} names a file outside ${join(objects, o.storeId)}: ${String(o.files[i])}`,
      );
    }
    o.files[i] = file;
  }
  return line as JournalLine;
}

/**
 * Reads the journal into the store's objects (of buckets that exist), keeping only objects whose
 * files are whole; removes object folders nothing refers to. True when the journal holds exactly
 * these objects, one whole line each, so it need not be written anew. Throws, naming the line, at a
 * line whose files are not in the objects directory.
 */
export async function replayJournal(oss: OssStore, stateDir: string): Promise<boolean> {
  oss.objects.clear();
  const tail = { torn: false };
  let exact = true;
  let lineNumber = 0;
  const path = journalPath(stateDir);
  const objects = objectsDir(oss);
  for await (const text of lines(path, tail)) {
    lineNumber++;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      exact = false;
      continue;
    }
    const line = checkedLine(parsed, objects, path, lineNumber);
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
        batch.push(journalLine(oss, b, k, o));
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
    out.push(journalLine(oss, b, k, o));
  }
  if (!out.length) return;
  const file = await Deno.open(journalPath(stateDir), { append: true, create: true });
  try {
    await writeAll(file, new TextEncoder().encode(out.join("\n") + "\n"));
  } finally {
    file.close();
  }
}
