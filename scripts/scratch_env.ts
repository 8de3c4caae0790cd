/** The environment of a diazo run that touches nothing of the user's: for benchmarks and the bundle's profile. */
import path from "node:path";
import { SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET } from "../src/families/sandbox/commands.ts";

/**
 * A clean environment for diazo and its sandbox under a scratch `home` (config, state, tokens in a
 * file there), logged in as the sandbox's app. HOME stays the user's (Deno's cache lives there)
 * unless the caller sets it too.
 */
export function scratchEnv(home: string): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? home,
    DIAZO_CONFIG_DIR: path.join(home, "config"),
    DIAZO_STATE_DIR: path.join(home, "state"),
    DIAZO_TOKEN_STORE: "file",
    SVC_CLIENT_ID: SANDBOX_CLIENT_ID,
    SVC_CLIENT_SECRET: SANDBOX_CLIENT_SECRET,
    NO_COLOR: "1",
    // `deno run` looks for a newer Deno in the background (the compiled binary never does).
    DENO_NO_UPDATE_CHECK: "1",
  };
}
