/**
 * Where tokens are kept between runs (README.md, "Configuration"): what a token store is, and the
 * file with mode 0600. The OS keychain's store is token_keychain.ts, the choice between them
 * token_open.ts.
 */
import { osPath } from "../platform/path.ts";
import { readTextIfExists } from "../platform/fs.ts";
import type { Keychain, KeychainOptions } from "../platform/keychain.ts";

/** node:path's functions for this OS, without node:path (platform/path.ts). */
const path = osPath();

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
  /**
   * 2-legged: a fingerprint of the client secret the token was fetched with (never the secret), so
   * that a changed secret is not answered from the cache.
   */
  secret_fingerprint?: string;
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

/** The cache key of a token: profile, mode, app, platform address, scope set (and secret fingerprint). */
export function tokenKey(
  t: Pick<StoredToken, "profile" | "mode" | "client_id" | "base_url" | "scopes" | "secret_fingerprint">,
): string {
  const key = [t.profile, t.mode, t.client_id, t.base_url, [...t.scopes].sort().join(" ")];
  if (t.secret_fingerprint) key.push(t.secret_fingerprint);
  return key.join("|");
}

/** A token store in `<dir>/tokens.json`, created with mode 0600. */
export function fileTokenStore(dir: string): TokenStore {
  const file = path.join(dir, "tokens.json");
  const load = async () => parseTokens(await readTextIfExists(file));
  // The writer loads only when a token is saved: a run with its token cached writes nothing.
  const save = async (all: Record<string, StoredToken>) =>
    await (await import("../platform/fs_write.ts")).writeFileAtomic(
      file,
      JSON.stringify(all, null, 2),
      0o600,
    );
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

/** Whether a stored entry has the shape every reader relies on (a damaged or hand-edited one is skipped). */
function wellFormed(t: unknown): t is StoredToken {
  const v = t as Partial<StoredToken> | null;
  return typeof v === "object" && v !== null && typeof v.access_token === "string" && v.access_token !== "" &&
    typeof v.expires_at === "number" && Array.isArray(v.scopes) && typeof v.profile === "string" &&
    typeof v.mode === "string" && (v.refresh_token === undefined || typeof v.refresh_token === "string");
}

/** The well-formed tokens of a stored JSON object (file or keychain secret); none when it is damaged. */
export function parseTokens(text: string | null | undefined): Record<string, StoredToken> {
  if (!text) return {};
  try {
    const data = JSON.parse(text);
    if (typeof data !== "object" || data === null || Array.isArray(data)) return {};
    return Object.fromEntries(Object.entries(data).filter(([, t]) => wellFormed(t))) as Record<
      string,
      StoredToken
    >;
  } catch {
    return {}; // a damaged cache is only a cache: start afresh
  }
}

/** Which token store is in use, where it keeps tokens, and why it was chosen. */
export interface TokenStoreStatus {
  kind: TokenStore["kind"];
  /** The keychain backend's name, or the path of the tokens file. */
  location: string;
  reason: string;
}

/** What `openTokenStore` needs. */
export interface OpenTokenStoreOptions {
  configDir: string;
  stateDir: string;
  env: Record<string, string | undefined>;
  /** A `Deno.build.os` value. */
  os: string;
  /** Where the one-time fallback warning goes (stderr). */
  warn: (msg: string) => void;
  /** Picks the keychain backend; default `keychainFor` (tests inject fakes). */
  keychainFor?: (os: string, opts: KeychainOptions) => Keychain | undefined;
  /** Per keychain call; default 5 s. */
  timeoutMs?: number;
}

/** An opened token store and the account of how it was chosen. */
export interface OpenedTokenStore {
  store: TokenStore;
  status: TokenStoreStatus;
}

/** The marker file (in the state dir) that says the fallback warning was shown on this machine. */
export const FALLBACK_MARKER = "token-store-fallback-warned";

/** The file store of `configDir`, opened for `reason`. */
export function openedFileStore(configDir: string, reason: string): OpenedTokenStore {
  return {
    store: fileTokenStore(configDir),
    status: { kind: "file", location: path.join(configDir, "tokens.json"), reason },
  };
}
