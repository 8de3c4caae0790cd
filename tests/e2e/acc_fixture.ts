/**
 * A construction-cloud fixture for one e2e test file: one sandbox for the file (logged in as the
 * sandbox user with the data scopes once asked for), and readers of its request log.
 */
import assert from "node:assert/strict";
import { seedAccount } from "../../src/sandbox/admin/store.ts";
import { seedWorld } from "../../src/sandbox/dm/world.ts";
import { openSandboxHome, requestLog, type SandboxHome } from "./harness.ts";
import { loginUser } from "./user_login.ts";

/** The first seeded construction-cloud project. */
export const PROJECT = [...seedAccount().projects.values()][0].id;
/** The seeded BIM 360 project (the ACC hub's second): checklists are served for BIM 360 projects only. */
export const BIM360_PROJECT = [...seedAccount().projects.values()][1].id;
/** Its checklists container, as its data-management project names it (not its GUID). */
export const CHECKLISTS = seedContainer();
/** A record as the commands print it. */
export type Row = { id: string; [k: string]: unknown };

/** One file's sandbox: made on first use; `close` at the file's end. */
export function accFixture() {
  let shared: Promise<SandboxHome> | undefined;
  let loggedIn: Promise<SandboxHome> | undefined;
  /** The sandbox (the first test may use it before any login). */
  const fresh = () => shared ??= openSandboxHome({ DIAZO_NO_BROWSER: "1" });
  /** The sandbox, logged in as the sandbox user with the data scopes. */
  const sandbox = () =>
    loggedIn ??= (async () => {
      const h = await fresh();
      const login = await loginUser(h.env, "data:read,data:write,data:create");
      assert.equal(login.code, 0, login.stderr);
      return h;
    })();
  const close = async () => {
    if (shared) await (await shared).close();
  };
  return { fresh, sandbox, close };
}

/** The JSON bodies sent with `method` after request `seq`, in order, as the sandbox's request log kept them. */
export async function sentBodies(h: SandboxHome, seq: number, method: string): Promise<unknown[]> {
  return (await logSince(h, seq, "")).filter((e) => e.method === method)
    .map((e) => (e as unknown as { body?: unknown }).body);
}

/** The request log's entries after `seq` under `prefix`. */
export async function logSince(h: SandboxHome, seq: number, prefix: string) {
  return (await requestLog(h.sb.url, prefix)).filter((e) => (e as unknown as { seq: number }).seq > seq);
}

/** The stored user login's access token (the one with a refresh token), for a request sent by hand. */
export async function userToken(h: SandboxHome): Promise<string> {
  const tokens = JSON.parse(await Deno.readTextFile(`${h.home.configDir}/tokens.json`));
  const user = (Object.values(tokens) as { access_token: string; refresh_token?: string }[])
    .find((t) => t.refresh_token);
  assert.ok(user, "a user login is stored");
  return user.access_token;
}

/** The sequence number of the sandbox's last logged request. */
export async function lastSeq(h: SandboxHome): Promise<number> {
  const all = await requestLog(h.sb.url);
  return (all.at(-1) as unknown as { seq: number } | undefined)?.seq ?? 0;
}

function seedContainer(): string {
  const id = seedWorld().projects.get(`b.${BIM360_PROJECT}`)?.checklistsContainerId;
  assert.ok(id && id !== BIM360_PROJECT, "the seeded BIM 360 project has its own checklists container");
  return id;
}
