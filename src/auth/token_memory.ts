/** A token store in memory, for runs that keep no token (the demo, tests): never on a command's start-up. */
import type { StoredToken, TokenStore } from "./token_store.ts";

/** A token store that lives only as long as the process (the demo, tests). */
export function memoryTokenStore(): TokenStore {
  const all = new Map<string, StoredToken>();
  return {
    kind: "memory",
    get: (key) => Promise.resolve(all.get(key)),
    put: (key, token) => Promise.resolve(void all.set(key, token)),
    list: (profile) => Promise.resolve(Object.fromEntries([...all].filter(([, t]) => t.profile === profile))),
    removeProfile(profile) {
      const keys = [...all].filter(([, t]) => t.profile === profile).map(([k]) => k);
      keys.forEach((k) => all.delete(k));
      return Promise.resolve(keys.length);
    },
  };
}
