/**
 * The shapes every keychain backend implements, in their own module so that the backends and the
 * module that picks one (keychain.ts) do not import each other.
 */

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
