/**
 * The macOS login keychain through `/usr/bin/security`. Items are generic passwords; the add
 * command is fed to `security -i` on stdin so that the secret never appears in argv.
 */
import type { Keychain, KeychainOptions } from "./keychain_types.ts";
import { KeychainUnavailable, toolRunner } from "./keychain_run.ts";

/** The system's `security` tool. */
export const SECURITY = "/usr/bin/security";

// `security -i` reads lines into a 4096-byte buffer and runs the rest of a longer line as a new
// command; stay well below.
const MAX_LINE_BYTES = 4_000;
const PREFIX = "base64:";

/**
 * Quotes a word for `security -i`, whose line splitter honours double quotes and backslash
 * escapes. A newline or NUL cannot be carried on one line at all.
 */
export function securityQuote(word: string): string {
  if (/[\n\0]/.test(word)) throw new KeychainUnavailable("a keychain name cannot contain a newline or NUL");
  return `"${word.replace(/["\\]/g, "\\$&")}"`;
}

/**
 * The stored form of a secret: base64 of its UTF-8 bytes. `find-generic-password -w` prints data
 * it deems unprintable as hex, and `security -i` cannot carry a newline; base64 avoids both.
 */
export function encodeMacSecret(secret: string): string {
  return PREFIX + new TextEncoder().encode(secret).toBase64();
}

/** The secret from `find-generic-password -w` output (one trailing newline is the tool's). */
export function decodeMacSecret(stdout: string): string {
  const raw = stdout.endsWith("\n") ? stdout.slice(0, -1) : stdout;
  if (!raw.startsWith(PREFIX)) return raw; // an item written by something else
  try {
    const bin = atob(raw.slice(PREFIX.length));
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    throw new KeychainUnavailable("the keychain item is not in the expected form");
  }
}

/** The stdin of `security -i` that adds or replaces a generic password. */
export function securityAddLine(service: string, account: string, secret: string): string {
  const line = `add-generic-password -U -s ${securityQuote(service)} -a ${securityQuote(account)} -w ${
    securityQuote(encodeMacSecret(secret))
  }`;
  const size = new TextEncoder().encode(line).length;
  if (size > MAX_LINE_BYTES) {
    throw new KeychainUnavailable(`secret too long for security -i (${size} > ${MAX_LINE_BYTES} bytes)`);
  }
  return line + "\n";
}

/** The argv of a find (`-w`: the password only) or delete. */
export function securityArgs(op: "find" | "delete", service: string, account: string): string[] {
  const name = op === "find" ? "find-generic-password" : "delete-generic-password";
  return [name, "-s", service, "-a", account, ...(op === "find" ? ["-w"] : [])];
}

// `security` exits with the low byte of the OSStatus.
const REASONS: Record<number, string> = {
  36: "the keychain is locked and cannot be unlocked without the user (e.g. over SSH)",
  37: "there is no default keychain",
  50: "the keychain does not exist",
  51: "access to the keychain item was denied",
  128: "the keychain prompt was cancelled",
};

/** What a `security` exit code means: found, not found (44), or `KeychainUnavailable`. */
export function interpretSecurityExit(code: number, stderr: string): "ok" | "not-found" {
  if (code === 0) return "ok";
  if (code === 44) return "not-found";
  const first = stderr.trim().split("\n")[0];
  throw new KeychainUnavailable(
    REASONS[code] ?? `security failed (exit ${code})${first ? `: ${first}` : ""}`,
  );
}

/** The macOS keychain backend. */
export function macosKeychain(opts: KeychainOptions = {}): Keychain {
  const cmd = opts.command ?? SECURITY;
  const run = toolRunner(cmd, opts);
  return {
    name: "macos-keychain",
    async get(service, account) {
      const r = await run(securityArgs("find", service, account));
      return interpretSecurityExit(r.code, r.stderr) === "ok" ? decodeMacSecret(r.stdout) : null;
    },
    async set(service, account, secret) {
      const r = await run(["-i"], securityAddLine(service, account, secret));
      if (interpretSecurityExit(r.code, r.stderr) !== "ok") {
        throw new KeychainUnavailable("security could not add the item");
      }
    },
    async delete(service, account) {
      const r = await run(securityArgs("delete", service, account));
      return interpretSecurityExit(r.code, r.stderr) === "ok";
    },
  };
}
