/**
 * The OS keychain (README.md, "Configuration"): macOS `security`, the Secret Service through `secret-tool` on
 * Linux, the Windows Credential Manager through FFI. No native addons.
 */
import { chunkedKeychain } from "./keychain_chunks.ts";
import { linuxKeychain } from "./keychain_linux.ts";
import { macosKeychain } from "./keychain_macos.ts";
import { KeychainUnavailable } from "./keychain_run.ts";
import { windowsKeychain } from "./keychain_windows.ts";
import type { Keychain, KeychainOptions } from "./keychain_types.ts";

/** Raised when the OS keychain cannot be used (no tool, no session bus, locked, timed out...). */
export { KeychainUnavailable };

/** The backend shapes, from their own module. */
export type { Keychain, KeychainOptions };

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
