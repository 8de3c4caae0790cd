/**
 * The OS keychain (DESIGN.md §3): macOS `security`, the Secret Service through `secret-tool` on
 * Linux, the Windows Credential Manager through FFI. No native addons.
 */
import { chunkedKeychain } from "./keychain_chunks.ts";
import { linuxKeychain } from "./keychain_linux.ts";
import { macosKeychain } from "./keychain_macos.ts";
import { KeychainUnavailable } from "./keychain_run.ts";
import { windowsKeychain } from "./keychain_windows.ts";

/** Raised when the OS keychain cannot be used (no tool, no session bus, locked, timed out...). */
export { KeychainUnavailable };

/** One secret per (service, account) in the OS keychain. Every method may raise `KeychainUnavailable`. */
export interface Keychain {
  readonly name: "macos-keychain" | "secret-service" | "windows-credential-manager";
  /** The secret, or null when there is none. */
  get(service: string, account: string): Promise<string | null>;
  /** Creates or replaces the secret. */
  set(service: string, account: string, secret: string): Promise<void>;
  /** Removes the secret; false when there was none. */
  delete(service: string, account: string): Promise<boolean>;
}

/** Options shared by the backends. */
export interface KeychainOptions {
  /** The caller's environment; children get only an allow-listed part of it. Default: this process's. */
  env?: Record<string, string | undefined>;
  /** Per child process; default 5 s. */
  timeoutMs?: number;
  /** The tool to run instead of the usual one (tests). */
  command?: string;
}

// A macOS `security -i` line holds at most 4095 bytes and a Windows credential blob 2560; secrets
// are split into parts this large (UTF-8 bytes) so that each part fits either with room to spare.
const PART_BYTES = 2_000;

/** The keychain backend of an OS (a `Deno.build.os` value), or undefined where there is none. */
export function keychainFor(os: string, opts: KeychainOptions = {}): Keychain | undefined {
  switch (os) {
    case "linux":
      return linuxKeychain(opts);
    case "darwin":
      return chunkedKeychain(macosKeychain(opts), PART_BYTES);
    case "windows":
      return chunkedKeychain(windowsKeychain(), PART_BYTES);
    default:
      return undefined;
  }
}
