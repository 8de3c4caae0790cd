/**
 * What data management keeps: the seeded world of hubs, projects, folders, items and versions, and
 * what writes (folders created or renamed, items and versions added) changed in it. Every sandbox
 * reads the one shared seed until its first write, which gives it a copy of its own; a reset goes
 * back to the seed. The world adds nothing to the state dump.
 */

import type { ServiceStore } from "../store.ts";
import { type DmWorld, dmWorld } from "./world.ts";

/** Everything data management knows. */
export interface DmStore extends ServiceStore {
  /** The world as it is now (the shared seed until the first write). */
  world: DmWorld;
  /** The world to change: this sandbox's own copy, made on first use. */
  writable(): DmWorld;
}

/** The store of the seeded world. */
export function createDmStore(): DmStore {
  let own = false;
  const store: DmStore = {
    world: dmWorld(),
    writable() {
      if (!own) {
        store.world = structuredClone(store.world);
        own = true;
      }
      return store.world;
    },
    kept: ["world"],
    // A world put back is a copy of this sandbox's own.
    revive: () => void (own = true),
    reset() {
      store.world = dmWorld();
      own = false;
    },
    snapshot: () => ({}),
  };
  return store;
}
