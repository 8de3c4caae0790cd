/** The Secret Service (GNOME Keyring, KWallet...) through libsecret's `secret-tool`. */
import type { Keychain, KeychainOptions } from "./keychain_types.ts";
import { KeychainUnavailable, type ToolResult, toolRunner } from "./keychain_run.ts";

/** The argv of a `secret-tool` operation; the secret itself is never part of it. */
export function secretToolArgs(op: "store" | "lookup" | "clear", service: string, account: string): string[] {
  const attrs = ["service", service, "account", account];
  return op === "store" ? ["store", `--label=${service} (${account})`, ...attrs] : [op, ...attrs];
}

/** Why `secret-tool` failed, in words a user can act on. */
export function secretToolReason(stderr: string): string {
  const s = stderr.trim();
  if (/autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|Could not connect|dbus-launch|session bus/i.test(s)) {
    return "no D-Bus session bus";
  }
  if (/org\.freedesktop\.secrets|ServiceUnknown|not provided by any \.service/i.test(s)) {
    return "no Secret Service (e.g. gnome-keyring) on the session bus";
  }
  if (/locked|prompt|dismissed|Object does not exist at path/i.test(s)) {
    return "the keyring is locked and cannot be unlocked without a prompt";
  }
  return `secret-tool failed${s ? `: ${s.split("\n")[0]}` : ""}`;
}

/**
 * What a `secret-tool lookup` or `clear` means: exit 0 is found, exit 1 with nothing on stderr is
 * "no such secret" (null), anything else raises `KeychainUnavailable`.
 */
export function interpretSecretTool(r: ToolResult): string | null {
  if (r.code === 0) return r.stdout;
  if (r.code === 1 && r.stderr.trim() === "") return null;
  throw new KeychainUnavailable(secretToolReason(r.stderr));
}

/** The Secret Service backend. */
export function linuxKeychain(opts: KeychainOptions = {}): Keychain {
  const cmd = opts.command ?? "secret-tool";
  const run = toolRunner(cmd, opts);
  return {
    name: "secret-service",
    async get(service, account) {
      return interpretSecretTool(await run(secretToolArgs("lookup", service, account)));
    },
    async set(service, account, secret) {
      const r = await run(secretToolArgs("store", service, account), secret);
      if (r.code !== 0) throw new KeychainUnavailable(secretToolReason(r.stderr));
    },
    async delete(service, account) {
      return interpretSecretTool(await run(secretToolArgs("clear", service, account))) !== null;
    },
  };
}
