/**
 * Where tokens are kept between runs. This is the file backend (mode 0600); the OS keychain
 * backends implement the same interface.
 */
import path from "node:path";
import { readTextIfExists, writeFileAtomic } from "../platform/fs.ts";

/** A cached token and what it is good for. */
export interface StoredToken {
  access_token: string;
  /** Epoch milliseconds. */
  expires_at: number;
  scopes: string[];
  mode: "2-legged" | "3-legged";
  client_id: string;
  base_url: string;
  profile: string;
  refresh_token?: string;
}

/** A backend that keeps tokens. */
export interface TokenStore {
  readonly kind: "file" | "keychain" | "memory";
  get(key: string): Promise<StoredToken | undefined>;
  put(key: string, token: StoredToken): Promise<void>;
  /** Every stored token of a profile, by key. */
  list(profile: string): Promise<Record<string, StoredToken>>;
  /** Removes every token of a profile; returns how many were removed. */
  removeProfile(profile: string): Promise<number>;
}

/** The cache key of a token: profile, mode, app, platform address and scope set. */
export function tokenKey(
  t: Pick<StoredToken, "profile" | "mode" | "client_id" | "base_url" | "scopes">,
): string {
  return [t.profile, t.mode, t.client_id, t.base_url, [...t.scopes].sort().join(" ")].join("|");
}

/** A token store in `<dir>/tokens.json`, created with mode 0600. */
export function fileTokenStore(dir: string): TokenStore {
  const file = path.join(dir, "tokens.json");
  const load = async (): Promise<Record<string, StoredToken>> => {
    const text = await readTextIfExists(file);
    if (!text) return {};
    try {
      const data = JSON.parse(text);
      return typeof data === "object" && data !== null && !Array.isArray(data) ? data : {};
    } catch {
      return {}; // a damaged cache is only a cache: start afresh
    }
  };
  const save = (all: Record<string, StoredToken>) =>
    writeFileAtomic(file, JSON.stringify(all, null, 2), 0o600);
  return {
    kind: "file",
    async get(key) {
      return (await load())[key];
    },
    async put(key, token) {
      const all = await load();
      all[key] = token;
      await save(all);
    },
    async list(profile) {
      return Object.fromEntries(Object.entries(await load()).filter(([, t]) => t.profile === profile));
    },
    async removeProfile(profile) {
      const all = await load();
      const keep = Object.entries(all).filter(([, t]) => t.profile !== profile);
      const removed = Object.keys(all).length - keep.length;
      if (removed > 0) await save(Object.fromEntries(keep));
      return removed;
    },
  };
}

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
