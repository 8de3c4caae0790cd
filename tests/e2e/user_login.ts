/** A 3-legged login of the sandbox user through the CLI run in process, the browser step done by hand. */
import assert from "node:assert/strict";
import type { RunResult } from "./harness.ts";
import { startLogin } from "./login_helpers.ts";

/**
 * Runs `diazo auth login --no-browser --scopes <scopes>`: reads the authorize URL from its stderr,
 * follows it (the sandbox approves at once) and pastes the redirect URL on its stdin.
 * `loginHint` picks who signs in, e.g. "visitor.user" (a user who is a member of no project).
 */
export async function loginUser(
  env: Record<string, string>,
  scopes: string,
  loginHint?: string,
): Promise<RunResult> {
  const login = await startLogin(["--no-browser", "--scopes", scopes, "-o", "json"], env, "piped");
  const hint = loginHint ? `&login_hint=${encodeURIComponent(loginHint)}` : "";
  const res = await fetch(login.authorize + hint, { redirect: "manual" });
  await res.body?.cancel();
  assert.equal(res.status, 302, "the sandbox approves the request");
  login.type(res.headers.get("location") + "\n");
  login.close();
  return await login.done;
}
