/** e2e: the scope matrix of the user-only scopes account:read and account:write (3-legged logins). */
import assert from "node:assert/strict";
import { seededAccountId } from "../../src/sandbox/admin/store.ts";
import { diazo, sandboxEnv, withSandboxHome } from "./harness.ts";
import { loginUser } from "./user_login.ts";

/** Everything the user logs in with; each row drops its scope from it first. */
const FULL = ["account:read", "account:write", "data:read"];

const ACCOUNT_MATRIX: { scope: string; args: (account: string, i: number) => string[] }[] = [
  { scope: "account:read", args: (account) => ["admin", "project", "list", "--account", `b.${account}`] },
  {
    scope: "account:write",
    args: (
      account,
      i,
    ) => ["admin", "project", "create", "--account", account, "--name", `Matrix ${i}`, "--type", "Office"],
  },
];

Deno.test("scope matrix (3-legged): without account:read|write -> catalog message, hint to log in again, exit 3; with it -> success", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url, { DIAZO_NO_BROWSER: "1" });
    const account = seededAccountId();
    let i = 0;
    for (const m of ACCOUNT_MATRIX) {
      i++;
      const without = FULL.filter((s) => s !== m.scope).join(",");
      const reduced = await loginUser(env, without);
      assert.equal(reduced.code, 0, reduced.stderr);
      const denied = await diazo(m.args(account, i), { env });
      assert.equal(denied.code, 3, `${m.scope}: ${denied.stderr}`);
      assert.equal(denied.stdout, "");
      assert.match(
        denied.stderr,
        /^error: Insufficient privileges to access this resource\nhint: .*log in again/,
      );
      assert.ok(
        denied.stderr.includes("diazo auth login --scopes") && denied.stderr.includes(`,${m.scope}`),
        `the hint says to log in again with ${m.scope}: ${denied.stderr}`,
      );
      const full = await loginUser(env, FULL.join(","));
      assert.equal(full.code, 0, full.stderr);
      const ok = await diazo(m.args(account, i), { env });
      assert.equal(ok.code, 0, `${m.scope}: ${ok.stderr}`);
    }
  }));
