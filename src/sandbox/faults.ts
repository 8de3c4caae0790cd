/**
 * Fault injection: rules that make matching requests slow, fail with a status, or lose their
 * connection, so that clients' retry and error paths can be exercised.
 */

import type { ServiceStore } from "./store.ts";

/** A fault rule as the control API accepts it. */
export interface FaultSpec {
  /** Only this method (any when absent). */
  method?: string;
  /**
   * A path prefix (`/oss/`), or `glob:<pattern>` matched against the whole path: `*` is any run of
   * characters but `/`, `**` any run at all (`glob:/oss/v2/buckets/*` is a bucket's path). No regular
   * expressions: a pattern is matched in time proportional to its length times the path's.
   */
  path: string;
  /** Status of the injected answer; without it (and without `drop`) the fault only delays. */
  status?: number;
  /** Seconds, sent as `Retry-After`. */
  retry_after?: number;
  /** How many times it fires; unlimited when absent. */
  count?: number;
  /** Lets this many matching requests through before it starts firing (default 0). */
  after?: number;
  /** Probability of firing for a matching request, 0..1 (default 1). */
  rate?: number;
  delay_ms?: number;
  /** Close the connection without an answer. */
  drop?: boolean;
}

/** A stored fault rule and its progress. */
export interface Fault extends FaultSpec {
  id: string;
  /** Firings left, null when unlimited. */
  remaining: number | null;
  fired: number;
}

/** The fault rules of a sandbox; a reset removes them all. */
export interface FaultStore extends ServiceStore {
  add(spec: FaultSpec): Fault;
  list(): Fault[];
  remove(id: string): boolean;
  clear(): void;
  /** The fault that fires for this request, if any, counting the firing. */
  take(method: string, path: string): Fault | undefined;
  /** True while some drop fault can still fire. */
  dropArmed(): boolean;
}

/** The prefix of a glob fault path. */
const GLOB = "glob:";

/** The longest fault path. */
export const MAX_FAULT_PATH = 512;

/** The longest delay a fault may ask for. */
export const MAX_FAULT_DELAY_MS = 600_000;

function isNumberIn(v: unknown, min: number, max: number, integer: boolean): v is number {
  return typeof v === "number" && Number.isFinite(v) && v >= min && v <= max &&
    (!integer || Number.isInteger(v));
}

/** Checks a control-API fault body; returns the spec or a message saying what is wrong. */
export function parseFaultSpec(body: unknown): { spec: FaultSpec } | { error: string } {
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    return { error: "body must be a JSON object" };
  }
  const b = body as Record<string, unknown>;
  if (typeof b.path !== "string" || b.path === "" || b.path === GLOB) {
    return { error: "'path' is required (a prefix, or glob:<pattern> with * and **)" };
  }
  if (b.path.length > MAX_FAULT_PATH) return { error: `'path' must be at most ${MAX_FAULT_PATH} characters` };
  if (b.path.startsWith("re:")) {
    return { error: "'path' takes a prefix or glob:<pattern> (* and **), not a regular expression (re:)" };
  }
  if (b.method !== undefined && (typeof b.method !== "string" || !/^[A-Za-z]+$/.test(b.method))) {
    return { error: "'method' must be an HTTP method name" };
  }
  if (b.status !== undefined && !isNumberIn(b.status, 200, 599, true)) {
    return { error: "'status' must be an integer from 200 to 599" };
  }
  if (b.retry_after !== undefined && !isNumberIn(b.retry_after, 0, 86_400, true)) {
    return { error: "'retry_after' must be whole seconds from 0 to 86400" };
  }
  if (b.count !== undefined && !isNumberIn(b.count, 1, Number.MAX_SAFE_INTEGER, true)) {
    return { error: "'count' must be a positive integer" };
  }
  if (b.after !== undefined && !isNumberIn(b.after, 0, Number.MAX_SAFE_INTEGER, true)) {
    return { error: "'after' must be an integer >= 0" };
  }
  if (b.rate !== undefined && !isNumberIn(b.rate, 0, 1, false)) {
    return { error: "'rate' must be from 0 to 1" };
  }
  if (b.delay_ms !== undefined && !isNumberIn(b.delay_ms, 0, MAX_FAULT_DELAY_MS, true)) {
    return { error: `'delay_ms' must be an integer from 0 to ${MAX_FAULT_DELAY_MS}` };
  }
  if (b.drop !== undefined && typeof b.drop !== "boolean") return { error: "'drop' must be a boolean" };
  if (b.status === undefined && !b.drop && b.delay_ms === undefined) {
    return { error: "a fault needs at least one of 'status', 'drop' or 'delay_ms'" };
  }
  const spec: FaultSpec = { path: b.path };
  if (b.method !== undefined) spec.method = (b.method as string).toUpperCase();
  for (const k of ["status", "retry_after", "count", "after", "rate", "delay_ms"] as const) {
    if (b[k] !== undefined) spec[k] = b[k] as number;
  }
  if (b.drop) spec.drop = true;
  return { spec };
}

/** One piece of a glob: a literal character, `*` (a run without `/`) or `**` (any run). */
type GlobPiece = string | typeof STAR | typeof ANY;
const STAR = 1;
const ANY = 2;

function globPieces(pattern: string): GlobPiece[] {
  const pieces: GlobPiece[] = [];
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== "*") pieces.push(pattern[i]);
    else if (pattern[i + 1] === "*") {
      while (pattern[i + 1] === "*") i++;
      pieces.push(ANY);
    } else pieces.push(STAR);
  }
  return pieces;
}

/**
 * True when `path` matches the glob's pieces as a whole: one pass per piece over the positions of the
 * path a prefix of the pieces can end at, so no pattern can take longer than pieces × path length.
 */
function globMatches(pieces: readonly GlobPiece[], path: string): boolean {
  const n = path.length;
  let at = new Uint8Array(n + 1), next = new Uint8Array(n + 1);
  at[0] = 1;
  for (const piece of pieces) {
    for (let j = 0; j <= n; j++) {
      if (piece === STAR || piece === ANY) {
        next[j] = at[j] || (j > 0 && next[j - 1] && (piece === ANY || path[j - 1] !== "/")) ? 1 : 0;
      } else next[j] = j > 0 && at[j - 1] && path[j - 1] === piece ? 1 : 0;
    }
    [at, next] = [next, at];
  }
  return at[n] === 1;
}

function pathMatcher(pattern: string): (path: string) => boolean {
  if (pattern.startsWith(GLOB)) {
    const pieces = globPieces(pattern.slice(GLOB.length));
    return (path) => globMatches(pieces, path);
  }
  return (path) => path.startsWith(pattern);
}

/** Creates an empty fault store; `random` decides rate-limited firings (injectable for tests). */
export function createFaultStore(random: () => number = Math.random): FaultStore {
  let faults: { fault: Fault; matches: (path: string) => boolean }[] = [];
  let nextId = 1;
  return {
    add(spec) {
      const fault: Fault = { id: `f${nextId++}`, ...spec, remaining: spec.count ?? null, fired: 0 };
      faults.push({ fault, matches: pathMatcher(spec.path) });
      return fault;
    },
    list: () => faults.map((f) => ({ ...f.fault })),
    remove(id) {
      const before = faults.length;
      faults = faults.filter((f) => f.fault.id !== id);
      return faults.length < before;
    },
    clear() {
      faults = [];
    },
    reset() {
      faults = [];
    },
    snapshot: () => ({ faults: faults.map((f) => ({ ...f.fault })) }),
    take(method, path) {
      // Rules are tried in order and each rolls its own rate: the first that fires wins.
      for (const { fault, matches } of faults) {
        if (fault.remaining === 0 || (fault.method && fault.method !== method) || !matches(path)) continue;
        if (fault.after !== undefined && fault.after > 0) {
          fault.after--;
          continue;
        }
        if (fault.rate !== undefined && random() >= fault.rate) continue;
        if (fault.remaining !== null) fault.remaining--;
        fault.fired++;
        return { ...fault };
      }
      return undefined;
    },
    dropArmed: () => faults.some(({ fault }) => fault.drop === true && fault.remaining !== 0),
  };
}
