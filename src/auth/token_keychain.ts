/**
 * The OS keychain as a token store (README.md, "Configuration") and the probe that decides whether a
 * run uses it: loaded only when the keychain is chosen or probed (token_open.ts), never on a run that
 * the token file or DIAZO_TOKEN_STORE=file decides.
 */
import { osPath } from "../platform/path.ts";
import { DiazoError } from "../core/errors.ts";
import { readTextIfExists } from "../platform/fs.ts";
import { writeFileAtomic } from "../platform/fs_write.ts";
import type { Keychain } from "../platform/keychain.ts";
import {
  FALLBACK_MARKER,
  openedFileStore,
  type OpenedTokenStore,
  type OpenTokenStoreOptions,
  parseTokens,
  type TokenStore,
} from "./token_store.ts";

/** node:path's functions for this OS, without node:path (platform/path.ts). */
const path = osPath();

/** The keychain service under which diazo keeps tokens; the account is the profile name. */
export const KEYCHAIN_SERVICE = "diazo";

// Every token key starts with its profile name (token_store.ts `tokenKey`), which is the keychain account.
const profileOfKey = (key: string): string => key.split("|")[0];

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

// An account no profile can have (profile names start with a letter or digit).
const PROBE_ACCOUNT = ".probe";

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
 * The OS keychain's store when a probe answers; else tokens.json, with a warning shown once per
 * machine, or, when DIAZO_TOKEN_STORE=keychain `forced` it, the error that says why it cannot be used.
 */
export async function openKeychainStore(
  opts: OpenTokenStoreOptions,
  forced: boolean,
): Promise<OpenedTokenStore> {
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
  if (forced) {
    throw new DiazoError("keychain_unavailable", { params: { reason, hint: keychainHint(opts.os) } });
  }
  const file = path.join(opts.configDir, "tokens.json");
  await warnOnce(
    opts.stateDir,
    `the OS keychain is not available (${reason}); tokens are kept in ${file} (mode 0600) instead. ` +
      "Set DIAZO_TOKEN_STORE=file to make that the choice. This is shown once.",
    opts.warn,
  );
  return openedFileStore(opts.configDir, `OS keychain not available: ${reason}`);
}

async function warnOnce(stateDir: string, message: string, warn: (msg: string) => void): Promise<void> {
  const marker = path.join(stateDir, FALLBACK_MARKER);
  if (await readTextIfExists(marker) !== undefined) return;
  warn(message);
  // A state dir that cannot be written only means the warning comes again next time.
  await writeFileAtomic(marker, `${new Date().toISOString()} ${message}\n`, 0o600).catch(() => {});
}
