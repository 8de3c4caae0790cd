/**
 * A sandbox's state kept in its data dir across restarts (`diazo sandbox --data-dir`). Every
 * store's kept fields (src/sandbox/store.ts) go to `state/state.json`, written to a new file and
 * renamed over the old one, so it is always one whole state; the OSS objects, which may be
 * hundreds of thousands, go to an append-only journal instead (journal.ts). A change is on disk
 * before the request that made it is answered: requests that change something wait for a commit,
 * and commits that come while one is writing share the next one.
 */

import { basename, dirname, join } from "node:path";
import { generateSigningKey, type SigningKey } from "../auth/jwt.ts";
import type { SandboxContext } from "../context.ts";
import { uploadsDir } from "../oss/object_files.ts";
import { SNAPSHOTS_DIR, STATE_DIR } from "../snapshots.ts";
import { type Durable, loadStores, type SavedStores } from "../store.ts";
import { decodeState, encodeState } from "./codec.ts";
import { appendJournal, replayJournal, rewriteJournal, writeAll } from "./journal.ts";

/** Version of the state file's layout. */
const FORMAT = 1;

/** How often changes no request waits for (deliveries, jobs moving on) are written. */
const BACKGROUND_MS = 1000;

/**
 * The data dir's signing key, made on first use: tokens issued before a restart stay valid after it.
 */
export async function keptSigningKey(dataDir: string): Promise<SigningKey> {
  const path = join(stateDirOf(dataDir), "signing-key.json");
  try {
    return await decodeState(JSON.parse(await Deno.readTextFile(path))) as SigningKey;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const key = await generateSigningKey();
  await Deno.mkdir(stateDirOf(dataDir), { recursive: true });
  // The key signs every token the sandbox issues: readable by its owner only, as config.json is.
  await writeAtomically(path, JSON.stringify(await encodeState(key)), 0o600);
  return key;
}

/** True when the data dir holds a state from an earlier run. */
export async function hasState(dataDir: string): Promise<boolean> {
  return await Deno.stat(join(stateDirOf(dataDir), "state.json")).then(() => true, () => false);
}

/** The state directory of a data dir. */
export function stateDirOf(dataDir: string): string {
  return join(dataDir, STATE_DIR);
}

/**
 * The stores a request to a path may change, by path prefix (first match); a path not listed may
 * change any. The seeded stores are large (the data management world alone is ~0.5 MB of JSON), so
 * a commit encodes only these; the background commit encodes every store and catches what changes
 * beside requests (deliveries, jobs) or elsewhere than its path says.
 */
const PATH_STORES: readonly [string, readonly string[]][] = [
  ["/authentication/", ["auth"]],
  ["/userinfo", ["auth"]],
  ["/oss/", ["oss"]],
  ["/__s3/", ["oss"]],
  ["/modelderivative/", ["derivative", "oss"]],
  ["/data/", ["dm", "oss"]],
  ["/project/", ["dm"]],
  ["/da/", ["da", "oss"]],
  ["/construction/admin/", ["admin"]],
  ["/hq/", ["admin"]],
  ["/construction/issues/", ["issues", "oss"]],
  ["/construction/", ["accBuild"]],
  ["/bim360/", ["accBuild"]],
  ["/webhooks/", ["webhooks"]],
  ["/photo-to-3d/", ["reality"]],
];

/** The names of the stores a request to `path` may change (every store when unknown). */
export function storesOfPath(path: string, all: readonly string[]): readonly string[] {
  return PATH_STORES.find(([prefix]) => path.startsWith(prefix))?.[1] ?? all;
}

/** One store's fields in the state file: its kept fields but OSS objects (the journal holds those). */
async function encodeStore(sb: SandboxContext, name: string): Promise<string> {
  const store = sb.kept[name];
  const s = store as unknown as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const f of store.kept ?? []) {
    if (store === sb.oss && f === "objects") continue;
    fields[f] = await encodeState(s[f]);
  }
  return JSON.stringify(fields);
}

/** One store's encoded fields and their bytes in the state file (`"name":{...}`). */
interface EncodedStore {
  text: string;
  bytes: Uint8Array;
}

const encoder = new TextEncoder();

function encodedStore(name: string, text: string): EncodedStore {
  return { text, bytes: encoder.encode(`${JSON.stringify(name)}:${text}`) };
}

/**
 * Writes the state file from each store's bytes, to a new file renamed over the old one. Written
 * piece by piece, never joined: a commit per request joining the whole state (~0.8 MB) made
 * garbage the heap only freed in its full collections — hundreds of MiB under load.
 */
async function writeState(path: string, encoded: Map<string, EncodedStore>): Promise<void> {
  const file = await Deno.open(path + ".new", { write: true, create: true, truncate: true });
  try {
    await writeAll(file, encoder.encode(`{"format":${FORMAT},"stores":{`));
    let first = true;
    for (const { bytes } of encoded.values()) {
      if (!first) await writeAll(file, encoder.encode(","));
      first = false;
      await writeAll(file, bytes);
    }
    await writeAll(file, encoder.encode("}}"));
  } finally {
    file.close();
  }
  await Deno.rename(path + ".new", path);
}

/** Writes `text` to a new file renamed over `path`; with `mode`, the file is created with it (POSIX). */
async function writeAtomically(path: string, text: string, mode?: number): Promise<void> {
  // A `.new` left by an interrupted write would keep its old mode: it is made afresh.
  if (mode !== undefined) await Deno.remove(path + ".new").catch(() => {});
  await Deno.writeTextFile(path + ".new", text, mode === undefined ? {} : { mode });
  await Deno.rename(path + ".new", path);
}

async function readState(path: string): Promise<SavedStores | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  const parsed = JSON.parse(text);
  if (parsed?.format !== FORMAT) throw new Error(`${path}: unknown state format ${parsed?.format}`);
  return await decodeState(parsed.stores) as SavedStores;
}

/** Drops sessions and parts outside the uploads folder; removes upload folders and part files no open session refers to. */
async function dropStrayParts(sb: SandboxContext): Promise<void> {
  const keep = new Map<string, Set<string>>();
  for (const [key, s] of sb.oss.uploads) {
    // A session's folder is one of the uploads folder, its parts files of that folder: anything else
    // in the state file was not written by the sandbox, and is dropped rather than read or moved.
    if (
      typeof s.dir !== "string" || dirname(s.dir) !== uploadsDir(sb.oss) || basename(s.dir).startsWith(".")
    ) {
      sb.oss.uploads.delete(key);
      continue;
    }
    for (const [n, p] of s.parts) {
      const inside = typeof p.file === "string" && dirname(p.file) === s.dir &&
        !basename(p.file).startsWith(".");
      if (!inside || !await Deno.lstat(p.file).then((i) => i.isFile && i.size === p.size, () => false)) {
        s.parts.delete(n);
      }
    }
    keep.set(s.dir, new Set([...s.parts.values()].map((p) => p.file)));
  }
  try {
    for await (const e of Deno.readDir(uploadsDir(sb.oss))) {
      const dir = join(uploadsDir(sb.oss), e.name);
      const files = keep.get(dir);
      if (!files) {
        await Deno.remove(dir, { recursive: true });
        continue;
      }
      for await (const f of Deno.readDir(dir)) {
        if (!files.has(join(dir, f.name))) await Deno.remove(join(dir, f.name));
      }
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

/**
 * Loads the state a data dir holds into a fresh sandbox (none: it starts as a new one), tidies what
 * an interrupted run left, and keeps every later change there.
 */
export async function openDurable(sb: SandboxContext): Promise<Durable> {
  const dir = stateDirOf(sb.dataDir);
  const statePath = join(dir, "state.json");
  await Deno.mkdir(dir, { recursive: true });
  // Snapshots live in memory: files of an earlier run's are nobody's (this run's seed has one already).
  if (!sb.snapshots.list().length) {
    await Deno.remove(join(sb.dataDir, SNAPSHOTS_DIR), { recursive: true }).catch(() => {});
  }
  const saved = await readState(statePath);
  if (saved) loadStores(sb.kept, saved);
  // Written anew only when it holds more than the objects (removals, replaced or dropped ones, a
  // torn last line): rewriting 100,000 records at every start is memory the process keeps.
  const exact = await replayJournal(sb.oss, dir);
  await dropStrayParts(sb);
  if (!exact) await rewriteJournal(sb.oss, dir);
  const names = Object.keys(sb.kept);
  const encoded = new Map<string, EncodedStore>();
  for (const name of names) encoded.set(name, encodedStore(name, await encodeStore(sb, name)));
  await writeState(statePath, encoded);
  let dirty = new Set<string>();
  // Set until a changed store's text is on disk: a failed write is tried again by the next commit.
  let unwritten = false;

  let pending = new Map<string, [string, string]>();
  let rewrite = false;
  sb.oss.changed = (b, k) => void pending.set(`${b}\n${k}`, [b, k]);

  const write = async () => {
    const keys = pending;
    pending = new Map();
    if (rewrite) {
      rewrite = false;
      await rewriteJournal(sb.oss, dir);
    } else {
      await appendJournal(sb.oss, dir, keys.values());
    }
    const stores = dirty;
    dirty = new Set();
    for (const name of stores) {
      const text = await encodeStore(sb, name);
      if (text === encoded.get(name)!.text) continue;
      encoded.set(name, encodedStore(name, text));
      unwritten = true;
    }
    if (unwritten) {
      await writeState(statePath, encoded);
      unwritten = false;
    }
  };
  // One write at a time; a commit asked for during a write is served by the next one, shared.
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const schedule = (): Promise<void> => {
    if (next) return next;
    if (!running) {
      running = write().finally(() => (running = undefined));
      return running;
    }
    next = running.catch(() => {}).then(() => {
      next = undefined;
      return schedule();
    });
    return next;
  };
  const commit = (path?: string): Promise<void> => {
    for (const name of path === undefined ? names : storesOfPath(path, names)) dirty.add(name);
    return schedule();
  };
  const timer = setInterval(() => void commit().catch(() => {}), BACKGROUND_MS);
  return {
    commit,
    objectsReplaced: () => void (rewrite = true),
    async close() {
      clearInterval(timer);
      await commit();
    },
  };
}
