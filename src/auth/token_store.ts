/**
 * Where tokens are kept between runs: the OS keychain where one works, else a file with mode 0600
 * (README.md, "Configuration"), and the choice between them.
 */
import { osPath } from "../platform/path.ts";
import { DiazoError, usageError } from "../core/errors.ts";
import { readTextIfExists, writeFileAtomic } from "../platform/fs.ts";
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

/** The keychain service under which diazo keeps tokens; the account is the profile name. */
export const KEYCHAIN_SERVICE = "diazo";

// Every token key starts with its profile name (see `tokenKey`), which is the keychain account.
const profileOfKey = (key: string): string => key.split("|")[0];

/** Whether a stored entry has the shape every reader relies on (a damaged or hand-edited one is skipped). */
function wellFormed(t: unknown): t is StoredToken {
  const v = t as Partial<StoredToken> | null;
  return typeof v === "object" && v !== null && typeof v.access_token === "string" && v.access_token !== "" &&
    typeof v.expires_at === "number" && Array.isArray(v.scopes) && typeof v.profile === "string" &&
    typeof v.mode === "string" && (v.refresh_token === undefined || typeof v.refresh_token === "string");
}

function parseTokens(text: string | null | undefined): Record<string, StoredToken> {
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

/** A token store in the OS keychain: one secret per profile, a JSON object of key -> token. */
export function keychainTokenStore(keychain: Keychain): TokenStore {
  const load = async (profile: string) => parseTokens(await keychain.get(KEYCHAIN_SERVICE, profile));
  return {
    kind: "keychain",
    async get(key) {
      return (await load(profileOfKey(key)))[key];
    },
    async put(key, token) {
      const profile = profileOfKey(key);
      const all = await load(profile);
      all[key] = token;
      await keychain.set(KEYCHAIN_SERVICE, profile, JSON.stringify(all));
    },
    async list(profile) {
      return Object.fromEntries(Object.entries(await load(profile)).filter(([, t]) => t.profile === profile));
    },
    async removeProfile(profile) {
      const removed = Object.keys(await load(profile)).length;
      await keychain.delete(KEYCHAIN_SERVICE, profile);
      return removed;
    },
  };
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

// An account no profile can have (profile names start with a letter or digit).
const PROBE_ACCOUNT = ".probe";
/** The marker file (in the state dir) that says the fallback warning was shown on this machine. */
export const FALLBACK_MARKER = "token-store-fallback-warned";

/** Why `keychain` cannot be used (one lookup, with the timeout), or undefined when it works. */
export async function probeKeychain(keychain: Keychain | undefined, os: string): Promise<string | undefined> {
  if (!keychain) return `no supported OS keychain on ${os}`;
  try {
    await keychain.get(KEYCHAIN_SERVICE, PROBE_ACCOUNT);
    return undefined;
  } catch (e) {
    const { KeychainUnavailable } = await import("../platform/keychain_run.ts"); // a probe's failure only
    return e instanceof KeychainUnavailable
      ? e.message
      : `unexpected keychain error: ${(e as Error).message}`;
  }
}

function keychainHint(os: string): string {
  const how = os === "linux"
    ? "on Linux it needs a D-Bus session with an unlocked Secret Service (e.g. gnome-keyring) and `secret-tool`"
    : os === "darwin"
    ? "on macOS it needs an unlocked login keychain"
    : os === "windows"
    ? "on Windows it needs the Credential Manager of an interactive logon"
    : `there is no keychain backend for ${os}`;
  return `DIAZO_TOKEN_STORE=keychain requires a working keychain (${how}); unset it to fall back to a file, or set DIAZO_TOKEN_STORE=file.`;
}

/**
 * The token store for this run (README.md, "Configuration"). `DIAZO_TOKEN_STORE=file|keychain` forces a
 * backend; otherwise the OS keychain when a probe answers, else `tokens.json` in the config dir with a
 * warning shown once per machine.
 */
export async function openTokenStore(opts: OpenTokenStoreOptions): Promise<OpenedTokenStore> {
  const forced = (opts.env.DIAZO_TOKEN_STORE ?? "").trim().toLowerCase();
  if (forced !== "" && forced !== "file" && forced !== "keychain") {
    throw usageError(
      `invalid DIAZO_TOKEN_STORE '${opts.env.DIAZO_TOKEN_STORE}'`,
      "Set it to `file` or `keychain`, or unset it to use the OS keychain where one works.",
    );
  }
  const file = path.join(opts.configDir, "tokens.json");
  const fileStore = (reason: string): OpenedTokenStore => ({
    store: fileTokenStore(opts.configDir),
    status: { kind: "file", location: file, reason },
  });
  if (forced === "file") return fileStore("DIAZO_TOKEN_STORE=file");
  // The token file decides: once the keychain was found unusable and the tokens went to the file, no
  // run probes it again (a probe spawns the keychain tool); DIAZO_TOKEN_STORE=keychain asks again.
  if (!forced && await fileExists(path.join(opts.stateDir, FALLBACK_MARKER)) && await fileExists(file)) {
    return fileStore("OS keychain not available (found on an earlier run; tokens.json in use)");
  }
  // The backends load only for a probe: a run the token file or DIAZO_TOKEN_STORE=file decides skips them.
  const keychainOf = opts.keychainFor ?? (await import("../platform/keychain.ts")).keychainFor;
  const keychain = keychainOf(opts.os, { env: opts.env, timeoutMs: opts.timeoutMs });
  const unusable = await probeKeychain(keychain, opts.os);
  if (keychain && unusable === undefined) {
    return {
      store: keychainTokenStore(keychain),
      status: {
        kind: "keychain",
        location: keychain.name,
        reason: forced ? "DIAZO_TOKEN_STORE=keychain" : `the OS keychain (${keychain.name}) answered`,
      },
    };
  }
  const reason = unusable ?? "no keychain";
  if (forced === "keychain") {
    throw new DiazoError("keychain_unavailable", { params: { reason, hint: keychainHint(opts.os) } });
  }
  await warnOnce(
    opts.stateDir,
    `the OS keychain is not available (${reason}); tokens are kept in ${file} (mode 0600) instead. ` +
      "Set DIAZO_TOKEN_STORE=file to make that the choice. This is shown once.",
    opts.warn,
  );
  return fileStore(`OS keychain not available: ${reason}`);
}

async function fileExists(file: string): Promise<boolean> {
  return await Deno.stat(file).then((st) => st.isFile, () => false);
}

async function warnOnce(stateDir: string, message: string, warn: (msg: string) => void): Promise<void> {
  const marker = path.join(stateDir, FALLBACK_MARKER);
  if (await readTextIfExists(marker) !== undefined) return;
  warn(message);
  // A state dir that cannot be written only means the warning comes again next time.
  await writeFileAtomic(marker, `${new Date().toISOString()} ${message}\n`, 0o600).catch(() => {});
}
