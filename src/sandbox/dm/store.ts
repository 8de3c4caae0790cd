/**
 * What data management keeps: the seeded world of hubs, projects, folders, items and versions.
 * The sandbox emulates no data management writes, so a reset has nothing to undo and the world
 * adds nothing to the state dump.
 */

import type { ServiceStore } from "../store.ts";
import { type DmWorld, dmWorld } from "./world.ts";

/** Everything data management knows. */
export interface DmStore extends ServiceStore {
  world: DmWorld;
}

/** The store of the seeded world. */
export function createDmStore(): DmStore {
  return { world: dmWorld(), reset: () => {}, snapshot: () => ({}) };
}
