/**
 * The family list (families.ts) names each family's word and aliases before its module loads: the
 * command tree loads a family by them, so `diazo objects list` works only if the list knows `objects`.
 */
import assert from "node:assert/strict";
import { Command } from "@commander-js/extra-typings";
import { addDeclared } from "../../src/command/command.ts";
import { FAMILIES } from "../../src/front/families.ts";
import { runCommandTree } from "../../src/front/root.ts";
import { captureIo } from "../e2e/harness.ts";

Deno.test("every family's name and aliases are those its module declares to commander", async () => {
  for (const family of FAMILIES) {
    const program = new Command();
    const mod = await family.load();
    const noRun = () => {
      throw new Error("no action runs here");
    };
    if (mod.command) addDeclared(program, mod.command, noRun);
    else mod.register?.(program, noRun);
    const own = program.commands.find((c) => c.name() === family.name);
    assert.ok(own, `${family.name}: its module registers no command of that name`);
    assert.deepEqual([...own.aliases()].sort(), [...(family.aliases ?? [])].sort(), family.name);
  }
});

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
