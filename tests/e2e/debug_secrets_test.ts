/** e2e: a whole --debug run never shows the client secret or any access token. */
import assert from "node:assert/strict";
import { addFault, diazo, SANDBOX_SECRET, sandboxEnv, withSandboxHome } from "./harness.ts";

Deno.test("--debug output of an e2e run contains neither the client secret nor any token", () =>
  withSandboxHome(async ({ sb, home }) => {
    const env = sandboxEnv(home, sb.url);
    await addFault(sb.url, { method: "GET", path: "/oss/v2/buckets", status: 503, count: 1 });
    const runs = [
      await diazo(["auth", "test", "--debug", "-o", "json"], { env }),
      await diazo(["bucket", "create", "--key", "dbg-bucket", "--debug"], { env }),
      await diazo(["bucket", "list", "--debug"], { env }),
      await diazo(["auth", "status", "--debug", "-o", "json"], { env }),
      await diazo(["auth", "test", "--debug"], {
        env: sandboxEnv(home, sb.url, { SVC_CLIENT_SECRET: "wrong-secret-value" }),
      }),
    ];
    const tokens = JSON.parse(await Deno.readTextFile(`${home.configDir}/tokens.json`));
    const accessTokens = Object.values(tokens).map((t) => (t as { access_token: string }).access_token);
    assert.ok(accessTokens.length > 0);
    const all = runs.map((r) => r.stdout + r.stderr).join("\n");
    assert.match(all, /debug: > GET http/, "the debug log is there");
    assert.match(all, /authorization: Bearer \*\*\*/i);
    assert.ok(!all.includes(SANDBOX_SECRET), "client secret leaked");
    assert.ok(!all.includes("wrong-secret-value"), "wrong client secret leaked");
    assert.ok(!all.includes(btoa(`diazo-sandbox:${SANDBOX_SECRET}`)), "basic credentials leaked");
    for (const t of accessTokens) {
      assert.ok(!all.includes(t), "access token leaked");
      assert.ok(!all.includes(t.split(".")[2]), "token signature leaked");
    }
    assert.doesNotMatch(all, /eyJ[\w-]{10,}\.[\w-]{10,}\./, "no JWT-looking string at all");
  }));
