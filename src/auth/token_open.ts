/**
 * The token store of a run (README.md, "Configuration"): `DIAZO_TOKEN_STORE=file|keychain` forces a
 * backend; otherwise the OS keychain when a probe answers, else `tokens.json` in the config dir with a
 * warning shown once per machine. The keychain's code (token_keychain.ts) loads only for a probe.
 */
import { osPath } from "../platform/path.ts";
import { usageError } from "../core/errors.ts";
import {
  FALLBACK_MARKER,
  openedFileStore,
  type OpenedTokenStore,
  type OpenTokenStoreOptions,
} from "./token_store.ts";

/** node:path's functions for this OS, without node:path (platform/path.ts). */
const path = osPath();

/** The token store for this run and how it was chosen (module comment). */
export async function openTokenStore(opts: OpenTokenStoreOptions): Promise<OpenedTokenStore> {
  const forced = (opts.env.DIAZO_TOKEN_STORE ?? "").trim().toLowerCase();
  if (forced !== "" && forced !== "file" && forced !== "keychain") {
    throw usageError(
      `invalid DIAZO_TOKEN_STORE '${opts.env.DIAZO_TOKEN_STORE}'`,
      "Set it to `file` or `keychain`, or unset it to use the OS keychain where one works.",
    );
  }
  if (forced === "file") return openedFileStore(opts.configDir, "DIAZO_TOKEN_STORE=file");
  // The token file decides: once the keychain was found unusable and the tokens went to the file, no
  // run probes it again (a probe spawns the keychain tool); DIAZO_TOKEN_STORE=keychain asks again.
  const file = path.join(opts.configDir, "tokens.json");
  if (!forced && await fileExists(path.join(opts.stateDir, FALLBACK_MARKER)) && await fileExists(file)) {
    return openedFileStore(
      opts.configDir,
      "OS keychain not available (found on an earlier run; tokens.json in use)",
    );
  }
  // The keychain store and its backends load only for a probe.
  return await (await import("./token_keychain.ts")).openKeychainStore(opts, forced === "keychain");
}

async function fileExists(file: string): Promise<boolean> {
  return await Deno.stat(file).then((st) => st.isFile, () => false);
}
