/**
 * The one shape of every emulated service's state: a store the control API can empty
 * (`/_sandbox/reset`), describe (`/_sandbox/state`), save and put back (named snapshots, the data
 * dir) without knowing what it holds. A store names the fields that hold its state (`kept`); they
 * are copied generically (Maps, Sets, arrays, plain objects and bytes deep; anything else, such as a
 * promise or a key, shared), and `revive` rebuilds what a copy cannot carry.
 */

/** The state of one emulated service (or one part of the sandbox's own machinery). */
export interface ServiceStore {
  /** Returns the store to how the sandbox started; may remove files it keeps on disk. */
  reset(): void | Promise<void>;
  /** This store's fields of the state dump (none for a store with nothing worth showing). */
  snapshot(): Record<string, unknown>;
  /** The names of the fields that hold this store's state; none: the store is machinery, not world. */
  readonly kept?: readonly string[];
  /** Rebuilds what its kept fields cannot carry (hashes, pending work) after they were put back. */
  revive?(): void;
}

/** The persistence of one sandbox. */
export interface Durable {
  /**
   * Writes what changed; resolves once it is on disk. `path` is the request's, which says what it may
   * have changed; none: anything.
   */
  commit(path?: string): Promise<void>;
  /** The objects were replaced at once (reset, restore): the next commit rewrites the journal. */
  objectsReplaced(): void;
  /** Stops the background commits, after a last one. */
  close(): Promise<void>;
}

/** Saved kept fields, by store name. */
export type SavedStores = Record<string, Record<string, unknown>>;

/** Resets every store, in order. */
export async function resetStores(stores: readonly ServiceStore[]): Promise<void> {
  for (const s of stores) await s.reset();
}

/** The state dump: every store's fields, in store order. */
export function snapshotStores(stores: readonly ServiceStore[]): Record<string, unknown> {
  return Object.assign({}, ...stores.map((s) => s.snapshot()));
}

function isPlain(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A deep copy of state: Maps, Sets, arrays, plain objects and bytes copied, other objects shared. */
export function copyState<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, copyState(v)])) as T;
  if (value instanceof Set) return new Set([...value].map(copyState)) as T;
  if (Array.isArray(value)) return value.map(copyState) as T;
  if (value instanceof Uint8Array) return value.slice() as T;
  if (!isPlain(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = copyState(v);
  return out as T;
}

/** Copies of the kept fields of every named store. */
export function saveStores(stores: Record<string, ServiceStore>): SavedStores {
  const saved: SavedStores = {};
  for (const [name, store] of Object.entries(stores)) {
    if (!store.kept) continue;
    const fields: Record<string, unknown> = {};
    const s = store as unknown as Record<string, unknown>;
    for (const f of store.kept) fields[f] = copyState(s[f]);
    saved[name] = fields;
  }
  return saved;
}

/**
 * Puts a field's saved value back in place: a Map or an array keeps its identity (closures of the
 * store may hold it) and takes the saved contents; anything else is replaced.
 */
function putBack(target: Record<string, unknown>, field: string, value: unknown): void {
  const current = target[field];
  if (current instanceof Map && value instanceof Map) {
    current.clear();
    for (const [k, v] of value) current.set(k, v);
  } else if (Array.isArray(current) && Array.isArray(value)) {
    current.length = 0;
    for (const v of value) current.push(v);
  } else {
    target[field] = value;
  }
}

/**
 * Puts saved fields back into the named stores (copies, so one save can be put back again), then
 * revives them; fields and stores missing from `saved` are left as they are.
 */
export function loadStores(stores: Record<string, ServiceStore>, saved: SavedStores): void {
  for (const [name, store] of Object.entries(stores)) {
    const fields = saved[name];
    if (!store.kept || !fields) continue;
    for (const f of store.kept) {
      if (f in fields) putBack(store as unknown as Record<string, unknown>, f, copyState(fields[f]));
    }
    store.revive?.();
  }
}
