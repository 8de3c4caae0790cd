/**
 * `--seed`: the example world file gives exactly the hubs, projects, folders, items, issues, buckets
 * and apps it declares, with their ids; a reset returns to it; the published schema is the one the
 * sandbox checks against; a malformed file is exit 2 at its `file:line:col`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSandbox } from "../../src/sandbox/server.ts";
import { readWorldFile } from "../../src/sandbox/seed/validate.ts";
import { WORLD_SCHEMA_PATH, worldSchemaText } from "../../src/sandbox/seed/schema.ts";
import { diazo, makeHome } from "../e2e/harness.ts";
import { testSigningKey } from "../e2e/test_sandbox.ts";
import { api, basic, control, token, tokenRequest } from "./helpers.ts";
import { login } from "./oauth_helpers.ts";
import { downloadObject, sha1Hex } from "./object_helpers.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const EXAMPLE = join(ROOT, "examples/sandbox/world.yaml");
const HUB = "b.5d1a1c4e-0000-4000-a000-000000000001";
const PROJECT = "b.5d1a1c4e-0000-4000-a000-000000000002";
const FILES = "urn:adsk.wipprod:fs.folder:co.pier9-project-files";
const ISSUE = "0b7c2f4e-0000-4000-a000-000000000003";

// deno-lint-ignore no-explicit-any
type Json = any;

Deno.test("seed: the example world is exactly what the sandbox serves, ids kept", async () => {
  const seed = await readWorldFile(EXAMPLE, ROOT);
  const sb = await startSandbox({ port: 0, seed, signingKey: await testSigningKey() });
  try {
    const t = await token(sb, "data:read bucket:read");
    const hubs = (await api(sb, "GET", "/project/v1/hubs", t)).json.data;
    assert.deepEqual(hubs.map((h: Json) => h.attributes.name), ["Example Builders", "Legacy Projects"]);
    assert.equal(hubs[0].id, HUB);
    const projects = (await api(sb, "GET", `/project/v1/hubs/${HUB}/projects`, t)).json.data;
    assert.deepEqual(projects.map((p: Json) => [p.id, p.attributes.name]), [[PROJECT, "Pier 9"]]);
    const top = (await api(sb, "GET", `/project/v1/hubs/${HUB}/projects/${PROJECT}/topFolders`, t)).json.data;
    assert.deepEqual(top.map((f: Json) => [f.id, f.attributes.name]), [[FILES, "Project Files"], [
      top[1].id,
      "Plans",
    ]]);
    const contents =
      (await api(sb, "GET", `/data/v1/projects/${PROJECT}/folders/${FILES}/contents`, t)).json.data;
    assert.deepEqual(contents.map((c: Json) => [c.type, c.attributes.displayName ?? c.attributes.name]), [
      ["folders", "Models"],
      ["items", "Notes.txt"],
    ]);
    const models = contents[0].id;
    const items =
      (await api(sb, "GET", `/data/v1/projects/${PROJECT}/folders/${models}/contents`, t)).json.data;
    assert.deepEqual(items.map((i: Json) => i.id), ["urn:adsk.wipprod:dm.lineage:pier9-bracket"]);
    const tip = (await api(sb, "GET", `/data/v1/projects/${PROJECT}/items/${items[0].id}/tip`, t)).json.data;
    const storage = tip.relationships.storage.data.id as string;
    const [bucketKey, objectKey] = storage.replace("urn:adsk.objects:os.object:", "").split("/");
    const bracket = await Deno.readFile(join(ROOT, "examples/sandbox/files/bracket.obj"));
    assert.equal(
      sha1Hex((await downloadObject(sb, t, bucketKey, objectKey))!),
      sha1Hex(bracket),
      "the item's file",
    );

    const state = (await control(sb, "GET", "state")).json;
    assert.ok(state.buckets.some((b: Json) => b.bucketKey === "example-models"));
    assert.equal(sha1Hex((await downloadObject(sb, t, "example-models", "bracket.obj"))!), sha1Hex(bracket));
    const u = (await login(sb, "data:read")).access_token;
    const issues =
      (await api(sb, "GET", `/construction/issues/v1/projects/${PROJECT.slice(2)}/issues`, u)).json;
    assert.deepEqual(issues.results.map((i: Json) => [i.id, i.title, i.status]), [[
      ISSUE,
      "Gate sticks in wet weather",
      "open",
    ]]);

    // The app may be granted only its scopes.
    const app = basic("my-app", "my-app-secret");
    assert.equal(
      (await tokenRequest(sb, { grant_type: "client_credentials", scope: "data:read" }, {
        authorization: app,
      })).status,
      200,
    );
    const refused = await tokenRequest(sb, { grant_type: "client_credentials", scope: "bucket:delete" }, {
      authorization: app,
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.error, "invalid_scope");

    // A reset returns to the seeded world, not the built-in one.
    await api(sb, "DELETE", "/oss/v2/buckets/example-models", await token(sb, "bucket:delete"));
    await control(sb, "POST", "reset");
    const t2 = await token(sb, "data:read bucket:read");
    assert.equal((await api(sb, "GET", "/project/v1/hubs", t2)).json.data.length, 2);
    assert.equal(sha1Hex((await downloadObject(sb, t2, "example-models", "bracket.obj"))!), sha1Hex(bracket));
  } finally {
    await sb.close();
  }
});

Deno.test("seed: the published schema is the one the sandbox checks", async () => {
  assert.equal(await Deno.readTextFile(join(ROOT, WORLD_SCHEMA_PATH)), worldSchemaText());
});

Deno.test("seed: a malformed world file is exit 2 with file:line:col", async () => {
  const home = await makeHome();
  try {
    const bad = join(home.dir, "bad.yaml");
    const run = async (text: string) => {
      await Deno.writeTextFile(bad, text);
      return await diazo(["sandbox", "--port", "0", "--seed", bad], { env: {}, cwd: home.dir });
    };
    const unknown = await run("version: 1\nhubs:\n  - name: A\n    projets: []\n");
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(
      unknown.stderr,
      /^error: .*bad\.yaml:4:5: unknown field 'projets' in world\.hubs\[0\] \(did you mean 'projects'\?\)\nhint: /,
    );
    const type = await run("buckets:\n  - key: ok-bucket\n    objects: nope\n");
    assert.match(type.stderr, /bad\.yaml:3:14: world\.buckets\[0\]\.objects must be a list, not a string/);
    const missing = await run(
      "buckets:\n  - key: ok-bucket\n    objects:\n      - key: a\n        file: nowhere.bin\n",
    );
    assert.match(
      missing.stderr,
      /bad\.yaml:5:15: world\.buckets\[0\]\.objects\[0\]\.file: no file nowhere\.bin/,
    );
    const syntax = await run("hubs: [\n");
    assert.equal(syntax.code, 2);
    assert.match(syntax.stderr, /^error: .*bad\.yaml:\d+:\d+: /);
  } finally {
    await home.cleanup();
  }
});
