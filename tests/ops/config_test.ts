/** The config verbs without a command line: typed options in, records out, config.json in memory. */
import assert from "node:assert/strict";
import { type ConfigFile, emptyConfig, resolve } from "../../src/config/config.ts";
import {
  type ConfigDeps,
  runGet,
  runProfileCreate,
  runProfileCurrent,
  runProfileDelete,
  runProfileExport,
  runProfileImport,
  runProfileList,
  runSet,
} from "../../src/families/config/verbs.ts";
import { memoryTokenStore } from "../../src/auth/token_memory.ts";

function memoryDeps(): ConfigDeps & { file(): ConfigFile; lines: string[] } {
  let file = emptyConfig();
  const lines: string[] = [];
  const store = memoryTokenStore();
  return {
    config: () => Promise.resolve(file),
    saveConfig(c) {
      file = structuredClone(c);
      return Promise.resolve();
    },
    settings: () => Promise.resolve(resolve({ flags: {}, env: {}, dotenv: {}, config: file })),
    tokenStore: () => Promise.resolve(store),
    info: (l) => void lines.push(l),
    warn: (l) => void lines.push(`warning: ${l}`),
    file: () => file,
    lines,
  };
}

Deno.test("ops config: create, list, set, get, export and import profiles", async () => {
  const deps = memoryDeps();
  const created = await runProfileCreate(
    { name: "work", clientId: "abc", clientSecret: "s3cret-value", use: true },
    deps,
  );
  assert.deepEqual(created, { name: "work", active: true, client_id: "abc", has_secret: true });
  await runProfileCreate({ name: "ci", baseUrl: "http://127.0.0.1:8787/" }, deps);
  assert.equal(deps.file().profiles.ci.base_url, "http://127.0.0.1:8787");
  assert.deepEqual((await runProfileList({}, deps)).map((p) => [p.name, p.active]), [["work", true], [
    "ci",
    false,
  ]]);
  await assert.rejects(runProfileCreate({ name: "work" }, deps), /already exists/);
  await assert.rejects(runProfileCreate({ name: "-bad" }, deps), /invalid profile name/);

  assert.deepEqual(await runSet({ key: "output", value: "yaml" }, deps), { key: "output", value: "yaml" });
  await assert.rejects(runSet({ key: "client_secret", value: "x" }, deps), /secrets are not accepted/);
  await assert.rejects(
    runSet({ key: "outptu", value: "x" }, deps),
    (e: { hint: string }) => /Did you mean output/.test(e.hint),
  );
  assert.equal((await runGet({ key: "client_secret" }, deps)).value, "s3cr…(12 chars)");
  assert.equal((await runGet({ key: "client_secret", showSecret: true }, deps)).value, "s3cret-value");

  const exported = await runProfileExport({ names: [] }, deps);
  assert.equal(exported.profiles.work.client_secret, undefined);
  const fresh = memoryDeps();
  const imported = await runProfileImport({ text: JSON.stringify(exported), source: "x.json" }, fresh);
  assert.deepEqual(imported, { imported: ["work", "ci"] });
  await assert.rejects(
    runProfileImport({ text: JSON.stringify(exported), source: "x.json" }, fresh),
    /force/,
  );
});

Deno.test("ops config: delete asks first, and current reports the chosen profile's source", async () => {
  const deps = memoryDeps();
  await runProfileCreate({ name: "work" }, deps);
  const no = await runProfileDelete({ name: "work", confirm: () => Promise.resolve(false) }, deps);
  assert.equal(no, undefined);
  assert.ok(deps.file().profiles.work);
  await assert.rejects(
    runProfileDelete({ name: "nope", confirm: () => Promise.resolve(true) }, deps),
    /nope/,
  );
  const current = await runProfileCurrent({ chosen: { name: "work", source: ".env" } }, deps);
  assert.deepEqual(current, { name: "work", exists: true, source: ".env" });
  const yes = await runProfileDelete({ name: "work", confirm: () => Promise.resolve(true) }, deps);
  assert.deepEqual(yes, { name: "work", deleted: true, tokens_removed: 0 });
  assert.equal(deps.file().active_profile, undefined);
});
