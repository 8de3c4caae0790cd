/**
 * The family list (families.ts) names each family's word and aliases before its module loads: the
 * front door loads a family by them (tests/arch/registry_test.ts holds them to the declarations), so `diazo objects list` works only if the list knows `objects`.
 */
import assert from "node:assert/strict";
import { runCommandTree } from "../../src/front/root.ts";
import { captureIo } from "../e2e/harness.ts";

Deno.test("a family's alias runs the family through the command tree, help and usage errors alike", async () => {
  const env = { DIAZO_CONFIG_DIR: "/nonexistent/diazo-config", DIAZO_STATE_DIR: "/nonexistent/diazo-state" };
  for (const [alias, name] of [["objects", "object"], ["pipelines", "pipeline"]]) {
    const viaAlias = captureIo();
    const viaName = captureIo();
    assert.equal(await runCommandTree([alias, "--help"], viaAlias.io, env, Deno.cwd()), 0, alias);
    assert.equal(await runCommandTree([name, "--help"], viaName.io, env, Deno.cwd()), 0, name);
    assert.equal(viaAlias.stdout(), viaName.stdout(), alias);
    const bad = captureIo();
    assert.equal(await runCommandTree([alias, "nosuchverb"], bad.io, env, Deno.cwd()), 2, alias);
    assert.doesNotMatch(bad.stderr(), new RegExp(`unknown command '${alias}'`), alias);
  }
});
