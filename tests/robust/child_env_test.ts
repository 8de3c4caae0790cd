/** Issue 14 item 15: hooks, plugins and pipeline shell steps receive no credential variable. */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import path from "node:path";
import { childEnv, isCredentialVariable } from "../../src/extend/child_env.ts";
import { extHome, PROBE_PLUGIN, readEnvDump } from "../e2e/ext_helpers.ts";
import { SANDBOX_ID, SANDBOX_SECRET } from "../e2e/harness.ts";
import { run } from "./_run.ts";

const SECRETS = {
  SVC_CLIENT_SECRET: SANDBOX_SECRET,
  APS_CLIENT_SECRET: "aps-secret-value",
  FORGE_CLIENT_SECRET: "forge-secret-value",
  APS_ACCESS_TOKEN: "aps-token-value",
  DIAZO_HTTP_SECRET: "diazo-secret-value",
};

function assertNoCredentials(dump: Record<string, string>, what: string): void {
  for (const name of Object.keys(SECRETS)) assert.equal(dump[name], undefined, `${what} received ${name}`);
  const text = JSON.stringify(dump);
  for (const value of Object.values(SECRETS)) {
    assert.ok(!text.includes(value), `${what} received a secret value`);
  }
  assert.equal(dump.SVC_CLIENT_ID, SANDBOX_ID, `${what} still receives the non-secret variables`);
  assert.equal(dump.DIAZO_TOKEN_STORE, "file", `${what} keeps the token store choice`);
}

Deno.test({
  name: "a hook, a plugin and a pipeline shell step that print their environment see no credential",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const sb = await startTestSandbox();
    const x = await extHome();
    try {
      const env = x.env({ DIAZO_BASE_URL: sb.url, SVC_CLIENT_ID: SANDBOX_ID, ...SECRETS });
      await x.script("diazo-probe", PROBE_PLUGIN);
      await x.pluginsJson({ hooks: { pre_bucket_list: ["env > hook_env.txt"] } });
      const listed = await run(["bucket", "list", "--region", "US"], env, x.home.cwd);
      assert.equal(listed.code, 0, listed.stderr);
      assertNoCredentials(await readEnvDump(x.file("hook_env.txt")), "the hook");

      const probed = await run(["probe"], env, x.home.cwd);
      assert.equal(probed.code, 0, probed.stderr);
      assertNoCredentials(await readEnvDump(x.file("env.txt")), "the plugin");

      await Deno.writeTextFile(
        path.join(x.home.cwd, "env.yaml"),
        "name: env\nsteps:\n  - name: Dump\n    shell: env > shell_env.txt\n",
      );
      const piped = await run(["pipeline", "run", "env.yaml", "--allow-shell"], env, x.home.cwd);
      assert.equal(piped.code, 0, piped.stderr);
      assertNoCredentials(await readEnvDump(x.file("shell_env.txt")), "the shell step");
    } finally {
      await x.close();
      await sb.close();
    }
  },
});

Deno.test("isCredentialVariable: secrets and tokens of diazo's prefixes, not the token store choice", () => {
  for (const name of Object.keys(SECRETS)) assert.ok(isCredentialVariable(name), name);
  for (const name of ["SVC_CLIENT_ID", "DIAZO_TOKEN_STORE", "GITHUB_TOKEN", "PATH", "DIAZO_BASE_URL"]) {
    assert.ok(!isCredentialVariable(name), name);
  }
  assert.deepEqual(childEnv({ A: "1", SVC_CLIENT_SECRET: "s", B: undefined }), { A: "1" });
});
