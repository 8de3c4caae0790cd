/**
 * `diazo auth scopes` shows what the platform grants per mode beside what diazo recommends, and the
 * recommendation matches the specification's table for its ten scopes.
 */
import assert from "node:assert/strict";
import { cliEnv, diazo, json, makeHome } from "../e2e/harness.ts";

/** the specification (2-legged, 3-legged) for the ten scopes of §5.4; `bucket:*` and `account:*` expanded. */
const SPEC_TABLE: Record<string, [string, string]> = {
  "data:read": ["limited", "full"],
  "data:write": ["limited", "full"],
  "data:create": ["limited", "full"],
  "bucket:read": ["full", "full"],
  "bucket:create": ["full", "full"],
  "bucket:delete": ["full", "full"],
  "viewables:read": ["full", "full"],
  "code:all": ["full", "full"],
  "account:read": ["none", "full"],
  "account:write": ["none", "full"],
};

interface Row {
  scope: string;
  granted_by_platform: string;
  recommended_by_diazo: string;
}

Deno.test("auth scopes: a column for what the platform grants and one for what diazo recommends", async () => {
  const home = await makeHome();
  try {
    const r = await diazo(["auth", "scopes", "-o", "json"], { env: cliEnv(home) });
    assert.equal(r.code, 0, r.stderr);
    const rows = new Map(json<Row[]>(r).map((row) => [row.scope, row]));
    for (const [scope, [twoLegged, threeLegged]] of Object.entries(SPEC_TABLE)) {
      const row = rows.get(scope);
      assert.ok(row, `${scope} is listed`);
      assert.equal(row.recommended_by_diazo, `2-legged: ${twoLegged}, 3-legged: ${threeLegged}`, scope);
      // The platform grants every one of the specification's ten scopes in both modes, account:* included.
      assert.equal(row.granted_by_platform, "2-legged, 3-legged", scope);
    }
    assert.equal(rows.get("openid")?.granted_by_platform, "3-legged", "user scopes need a user");

    const table = await diazo(["auth", "scopes", "-o", "table"], { env: cliEnv(home) });
    assert.equal(table.code, 0, table.stderr);
    const head = table.stdout.split("\n").find((l) => l.includes("scope"));
    assert.ok(head && /granted_by_platform.*recommended_by_diazo/.test(head), table.stdout);
  } finally {
    await home.cleanup();
  }
});
