/**
 * Named snapshots of a running sandbox (`/_sandbox/snapshot`, `/_sandbox/restore`): a copy of every
 * store's kept fields, and the data dir's files as hard links (files there are written once and
 * never changed in place, so a link is a copy that costs no bytes). Restoring puts both back.
 */

import { join } from "node:path";
import { loadStores, type SavedStores, saveStores, type ServiceStore } from "./store.ts";

/** Directory under the data dir holding the snapshots' files; never itself part of a snapshot. */
export const SNAPSHOTS_DIR = ".snapshots";
/** Directory under the data dir holding the persistent state; never part of a snapshot. */
export const STATE_DIR = "state";

/** The snapshot of the world a sandbox was seeded with (`--seed`), which a reset returns to. */
export const SEED_SNAPSHOT = "seed";

/** Names a snapshot may have. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** One saved snapshot. */
interface Snapshot {
  stores: SavedStores;
  /** When it was taken, ISO 8601. */
  time: string;
}

/** The named snapshots of one sandbox. */
export interface Snapshots {
  /** Saves the sandbox as `name` (replacing a snapshot of that name). */
  save(name: string): Promise<void>;
  /** Puts the sandbox back as `name` was saved; false when there is no such snapshot. */
  restore(name: string): Promise<boolean>;
  /** The snapshots, oldest first. */
  list(): { name: string; time: string }[];
}

async function linkTree(from: string, to: string): Promise<void> {
  const info = await Deno.lstat(from);
  if (!info.isDirectory) {
    await Deno.link(from, to).catch(() => Deno.copyFile(from, to));
    return;
  }
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) await linkTree(join(from, e.name), join(to, e.name));
}

/** The data dir's own entries: everything but the snapshots and the persistent state. */
async function dataEntries(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.name !== SNAPSHOTS_DIR && e.name !== STATE_DIR) names.push(e.name);
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return names;
}

async function replaceFiles(fromDir: string, toDir: string): Promise<void> {
  await Promise.all(
    (await dataEntries(toDir)).map((n) => Deno.remove(join(toDir, n), { recursive: true }).catch(() => {})),
  );
  for (const n of await dataEntries(fromDir)) await linkTree(join(fromDir, n), join(toDir, n));
}

/** No snapshots yet, for the stores by name and their files under `dataDir`. */
export function createSnapshots(stores: () => Record<string, ServiceStore>, dataDir: string): Snapshots {
  const taken = new Map<string, Snapshot>();
  const filesOf = (name: string) => join(dataDir, SNAPSHOTS_DIR, name);
  return {
    async save(name) {
      const snap = { stores: saveStores(stores()), time: new Date().toISOString() };
      await Deno.remove(filesOf(name), { recursive: true }).catch(() => {});
      await Deno.mkdir(filesOf(name), { recursive: true });
      for (const n of await dataEntries(dataDir)) await linkTree(join(dataDir, n), join(filesOf(name), n));
      taken.delete(name);
      taken.set(name, snap);
    },
    async restore(name) {
      const snap = taken.get(name);
      if (!snap) return false;
      await replaceFiles(filesOf(name), dataDir);
      loadStores(stores(), snap.stores);
      return true;
    },
    list: () => [...taken].map(([name, s]) => ({ name, time: s.time })),
  };
}
