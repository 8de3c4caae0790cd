/**
 * Named snapshots of a running sandbox (`/_sandbox/snapshot`, `/_sandbox/restore`): a copy of every
 * store's kept fields, and the files the sandbox wrote in the data dir (`FILE_DIRS`) as hard links
 * (files there are written once and never changed in place, so a link is a copy that costs no
 * bytes). Restoring puts both back and touches nothing else in the data dir.
 */

import { join } from "node:path";
import { loadStores, type SavedStores, saveStores, type ServiceStore } from "./store.ts";

/** Directory under the data dir holding the snapshots' files; never itself part of a snapshot. */
export const SNAPSHOTS_DIR = ".snapshots";
/** Directory under the data dir holding the persistent state; never part of a snapshot. */
export const STATE_DIR = "state";

/** The snapshot of the world a sandbox was seeded with (`--seed`), which a reset returns to. */
export const SEED_SNAPSHOT = "seed";

/**
 * Names a snapshot may have: plain names, never `.`, `..` or a separator, so that its files stay
 * in `<data-dir>/.snapshots/<name>`.
 */
export const SNAPSHOT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$/;

/**
 * The data dir's entries holding the files the sandbox writes (object data, upload parts, derivative
 * outputs, reality capture photos, design automation packages): what a snapshot links and a restore
 * replaces. Nothing else in the data dir is touched by either.
 */
export const FILE_DIRS: readonly string[] = ["objects", "uploads", "derivatives", "reality", "da"];

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

/** Those of `FILE_DIRS` that are directories under `dir` (a link or a file there is not the sandbox's). */
async function dataEntries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for (const name of FILE_DIRS) {
    if (await Deno.lstat(join(dir, name)).then((i) => i.isDirectory, () => false)) names.push(name);
  }
  return names;
}

async function replaceFiles(fromDir: string, toDir: string): Promise<void> {
  await Promise.all(
    FILE_DIRS.map((n) => Deno.remove(join(toDir, n), { recursive: true }).catch(() => {})),
  );
  for (const n of await dataEntries(fromDir)) await linkTree(join(fromDir, n), join(toDir, n));
}

/** No snapshots yet, for the stores by name and their files under `dataDir`. */
export function createSnapshots(stores: () => Record<string, ServiceStore>, dataDir: string): Snapshots {
  const taken = new Map<string, Snapshot>();
  const filesOf = (name: string) => {
    if (!SNAPSHOT_NAME.test(name)) throw new Error(`'${name}' is not a snapshot name`);
    return join(dataDir, SNAPSHOTS_DIR, name);
  };
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
