/**
 * The one shape of every emulated service's state: a store the control API can empty
 * (`/_sandbox/reset`) and describe (`/_sandbox/state`) without knowing what it holds.
 */

/** The state of one emulated service (or one part of the sandbox's own machinery). */
export interface ServiceStore {
  /** Returns the store to how the sandbox started; may remove files it keeps on disk. */
  reset(): void | Promise<void>;
  /** This store's fields of the state dump (none for a store with nothing worth showing). */
  snapshot(): Record<string, unknown>;
}

/** Resets every store, in order. */
export async function resetStores(stores: readonly ServiceStore[]): Promise<void> {
  for (const s of stores) await s.reset();
}

/** The state dump: every store's fields, in store order. */
export function snapshotStores(stores: readonly ServiceStore[]): Record<string, unknown> {
  return Object.assign({}, ...stores.map((s) => s.snapshot()));
}
