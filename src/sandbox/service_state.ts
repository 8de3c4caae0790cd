/**
 * State of an emulated service kept beside the shared sandbox state, so that a service can add
 * its own world without widening `SandboxState`, and still be emptied by a sandbox reset.
 */

import type { SandboxState } from "./state.ts";

/** A getter of per-sandbox service state, created by `create` on first use and dropped by a reset. */
export function serviceState<T>(create: () => T): (state: SandboxState) => T {
  const key = Symbol("service state");
  return (state) => {
    if (!state.services.has(key)) state.services.set(key, create());
    return state.services.get(key) as T;
  };
}
