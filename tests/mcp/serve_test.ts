/** `diazo serve` as a child process, driven by the SDK's Client over stdio against a sandbox. */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { encodeUrn, objectIdOf } from "../../src/aps/urn.ts";
import type { Tool } from "../../src/mcp/sdk.ts";
import { CUBE_OBJ } from "../e2e/md_helpers.ts";
import { diazo, spawnDiazo } from "../e2e/harness.ts";
import { toolsetOf } from "../../src/families/serve/tools.ts";
import { fails, fixture, loginAsUser, ok, startServe } from "./helpers.ts";

const SNAPSHOT = fileURLToPath(new URL("./tools_snapshot.json", import.meta.url));

/** What the snapshot keeps of a tool: renames and schema changes must be deliberate. */
function snapshotOf(tools: Tool[]) {
  return tools.map((t) => ({
    name: t.name,
    toolset: toolsetOf(t.name),
    title: t.title,
    annotations: t.annotations,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
  }));
}

const SEED_TOOLS = [
  "auth_test",
  "auth_status",
  "bucket_list",
  "bucket_create",
  "bucket_get",
  "bucket_delete",
  "object_list",
  "object_delete",
  "object_signed_url",
  "object_urn",
  "translate_start",
  "translate_status",
  "hub_list",
  "project_list",
];

Deno.test("serve: initialize, tools/list as snapshotted, and a call of every tool with valid structured results", async () => {
  const fx = await fixture();
  const serve = await startServe(fx.env); // in fx.home.cwd
  const called = new Set<string>();
  const call = (name: string, args: Record<string, unknown> = {}) => {
    called.add(name);
    return ok(serve.client, name, args);
  };
  try {
    assert.equal(serve.client.getServerVersion()?.name, "diazo");
    assert.ok(serve.client.getServerCapabilities()?.tools);

    const { tools } = await serve.client.listTools();
    const names = tools.map((t) => t.name);
    for (const seed of SEED_TOOLS) assert.ok(names.includes(seed), `missing seed tool ${seed}`);
    for (const t of tools) {
      assert.match(t.name, /^[a-z0-9_]{1,64}$/);
      assert.ok(t.title && t.description && t.description.length > 40, `${t.name}: title and description`);
      assert.ok(t.outputSchema, `${t.name}: outputSchema`);
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
        assert.equal(typeof t.annotations?.[hint], "boolean", `${t.name}: ${hint}`);
      }
    }
    const snap = snapshotOf(tools);
    if (Deno.env.get("UPDATE_SNAPSHOT") === "1") {
      await Deno.writeTextFile(SNAPSHOT, JSON.stringify(snap, null, 2) + "\n");
    }
    assert.deepEqual(
      snap,
      JSON.parse(await Deno.readTextFile(SNAPSHOT)),
      "tools changed: UPDATE_SNAPSHOT=1 rewrites",
    );

    const test = await call("auth_test");
    assert.equal(test.client_id, "diazo-sandbox");
    assert.equal(test.base_url, fx.url);
    const status = await call("auth_status");
    assert.equal(status.app_credentials, true);
    assert.equal(status.user_login.logged_in, false);
    assert.deepEqual(status.tools.map((t: { name: string }) => t.name), names);
    type Use = { name: string; login: string; usable: boolean; reason?: string };
    assert.ok(
      status.tools.every((t: Use) => t.usable === (t.login !== "user")),
      "the app's login serves all but",
    );
    const userOnly = status.tools.filter((t: Use) => t.login === "user");
    assert.ok(userOnly.some((t: Use) => t.name === "issue_list"), "the construction cloud wants a user");
    assert.ok(userOnly.every((t: Use) => /^no user login \(see how_to_log_in\)/.test(t.reason ?? "")));
    assert.ok(status.how_to_log_in.some((h: string) => /diazo auth login/.test(h)));

    // Every toolset is offered already: enabling one adds nothing.
    assert.deepEqual(await call("toolset_enable", { toolset: "storage" }), {
      toolset: "storage",
      added: [],
      offered: tools.length,
    });

    const bucket = "mcp-flow";
    assert.equal(
      (await call("bucket_create", { bucket_key: bucket, policy: "temporary" })).policyKey,
      "temporary",
    );
    const listed = await call("bucket_list", {});
    assert.deepEqual(listed.items.map((b: { bucketKey: string }) => b.bucketKey), [bucket]);
    assert.equal(listed.has_more, false);
    assert.equal((await call("bucket_get", { bucket_key: bucket })).bucketOwner, "diazo-sandbox");

    const file = path.join(fx.home.cwd, "cube.obj");
    await Deno.writeTextFile(file, CUBE_OBJ);
    const up = await call("object_upload", { bucket_key: bucket, file: "cube.obj" }); // relative to the cwd
    assert.equal(up.size, new TextEncoder().encode(CUBE_OBJ).length);
    const objectId = objectIdOf(bucket, "cube.obj");
    assert.equal(up.urn, encodeUrn(objectId));
    const objects = await call("object_list", { bucket_key: bucket });
    assert.deepEqual(objects.items.map((o: { objectKey: string; sha1: string }) => [o.objectKey, o.sha1]), [[
      "cube.obj",
      up.sha1,
    ]]);
    const urn = await call("object_urn", { bucket_key: bucket, object_key: "cube.obj" });
    assert.deepEqual([urn.objectId, urn.urn], [objectId, up.urn]);
    const signed = await call("object_signed_url", {
      bucket_key: bucket,
      object_key: "cube.obj",
      minutes: 5,
      confirm: true,
    });
    const fetched = await fetch(signed.signedUrl);
    assert.equal(await fetched.text(), CUBE_OBJ);

    const started = await call("translate_start", { urn: up.urn, formats: ["svf2", "obj"] });
    assert.deepEqual([started.objectId, started.alreadyTranslated, started.formats], [objectId, false, [
      "svf2",
      "obj",
    ]]);
    const done = await call("translate_status", { urn: objectId, wait_seconds: 30 }); // a raw urn works too
    assert.deepEqual([done.status, done.done, done.percent], ["success", true, 100]);
    const manifest = await call("translate_manifest", { urn: up.urn });
    assert.deepEqual(manifest.derivatives.map((d: { outputType: string }) => d.outputType).sort(), [
      "obj",
      "svf2",
    ]);
    const props = await call("translate_properties", { urn: up.urn, limit: 1 });
    assert.equal(props.count, 1);
    assert.ok(props.total >= 2, JSON.stringify(props));
    assert.equal(props.has_more, true);
    const rest = await call("translate_properties", { urn: up.urn, limit: 200, cursor: props.next_cursor });
    assert.deepEqual([rest.count, rest.has_more], [props.total - 1, false]);
    assert.notEqual(rest.items[0].objectid, props.items[0].objectid);
    const one = await call("translate_properties", { urn: up.urn, object_id: rest.items[0].objectid });
    assert.deepEqual(one.items.map((o: { objectid: number }) => o.objectid), [rest.items[0].objectid]);
    const tree = await call("translate_tree", { urn: up.urn });
    assert.ok(tree.items.some((n: { objectid: number }) => n.objectid === rest.items[0].objectid));

    const hubs = await call("hub_list");
    assert.deepEqual(
      hubs.items.map((h: { id: string }) => h.id.slice(0, 2)),
      ["b.", "b."],
      "an app sees no personal hub",
    );
    const hub = hubs.items[0].id;
    const projects = await call("project_list", { hub_id: hub });
    assert.ok(projects.count >= 2);
    const project = projects.items.find((p: { name: string }) => p.name.startsWith("Riverside")) ??
      projects.items[0];
    const top = await call("folder_list", { hub_id: hub, project_id: project.id.slice(2) }); // bare GUID gets b.
    const projectFiles = top.items.find((f: { name: string }) => f.name === "Project Files");
    assert.ok(projectFiles, JSON.stringify(top.items.map((f: { name: string }) => f.name)));
    const architecture = (await call("folder_list", { project_id: project.id, folder_id: projectFiles.id }))
      .items.find((f: { name: string }) => f.name === "Architecture");
    const files = await call("folder_list", {
      project_id: project.id,
      folder_id: architecture.id,
      type: "items",
    });
    const rvt = files.items.find((i: { name: string }) => i.name.endsWith(".rvt"));
    assert.ok(rvt?.related?.tip, "an item names its tip version");
    const found = await call("folder_search", { project_id: project.id, hub_id: hub, name: rvt.name });
    assert.ok(found.items.some((i: { id: string }) => i.id === rvt.id), "folder_search finds the item");
    const versions = await call("item_versions", { project_id: project.id, item_id: rvt.id });
    assert.equal(versions.items[0].id, rvt.related.tip, "newest first");
    assert.ok(versions.items.every((v: { related?: { storage?: string } }) => v.related?.storage));
    const formats = await call("item_formats", { project_id: project.id, item_id: rvt.id });
    assert.equal(formats.version, rvt.related.tip, "an item's formats are its tip's");
    assert.ok(formats.formats.includes("pdf"));
    const made = await call("folder_create", {
      project_id: project.id,
      parent_folder_id: architecture.id,
      name: "From the tool server",
    });
    const filed = await call("item_upload", {
      project_id: project.id,
      folder_id: made.folder.id,
      file: "cube.obj",
    });
    assert.equal(filed.version.attributes.versionNumber, 1);
    for (const name of ["rfi_list", "asset_list", "submittal_list", "checklist_list"]) {
      called.add(name); // they act as the user only: without a user login, a failure before any request
      const refused = await fails(serve.client, name, { project_id: project.id });
      assert.match(refused.message, /Authentication required \(3-legged OAuth\)/);
    }

    assert.equal(
      (await call("object_delete", { bucket_key: bucket, object_key: "cube.obj", confirm: true })).deleted,
      true,
    );
    assert.equal((await call("object_list", { bucket_key: bucket })).count, 0);
    assert.equal((await call("bucket_delete", { bucket_key: bucket, confirm: true })).deleted, true);

    // Construction-cloud tools act as a member of a project: tests/e2e/issue_test.ts calls them.
    // The other families' tools: tests/mcp/families_test.ts and acc_admin_tools_test.ts.
    const elsewhere = (n: string) =>
      /^(issue_|webhook_|da_|reality_|admin_|item_download|auth_login)|^(rfi|asset|submittal|checklist)_get$/
        .test(n);
    assert.deepEqual(
      [...called].sort(),
      names.filter((n) => !elsewhere(n)).sort(),
      "every listed tool was called",
    );
    assert.doesNotMatch(serve.stderr(), /eyJ[\w-]{8,}\.eyJ/, "no token in the server's log");
  } finally {
    await serve.close();
    await fx.close();
  }
});

Deno.test("serve: failures are isError results with the catalog's message and hint", async () => {
  const fx = await fixture();
  // A profile whose app tokens lack data:read: object_list must fail on the scope.
  await Deno.mkdir(fx.home.configDir, { recursive: true });
  await Deno.writeTextFile(
    path.join(fx.home.configDir, "config.json"),
    JSON.stringify({ profiles: { narrow: { scopes: ["bucket:read", "bucket:create"] } } }),
  );
  const serve = await startServe(fx.env, ["--profile", "narrow"]);
  try {
    const bad = await fails(serve.client, "bucket_get", { bucket_key: "Not_Valid!" });
    assert.equal(bad.code, "usage");
    assert.match(bad.message, /^bucket_key: invalid bucket key 'Not_Valid!'/);
    assert.match(bad.hint, /3-128 characters/);

    const unknown = await fails(serve.client, "bucket_get", { bucket_key: "no-such-bucket" });
    assert.deepEqual([unknown.code, unknown.message, unknown.status], [
      "bucket_not_found",
      "Bucket not found",
      404,
    ]);
    assert.match(unknown.hint, /bucket_list/);

    await ok(serve.client, "bucket_create", { bucket_key: "mcp-scoped" });
    const scope = await fails(serve.client, "object_list", { bucket_key: "mcp-scoped" });
    assert.deepEqual([scope.code, scope.message, scope.status], [
      "insufficient_scope",
      "Insufficient privileges to access this resource",
      403,
    ]);
    assert.match(scope.hint, /data:read/);
    const status = await ok(serve.client, "auth_status");
    const objectList = status.tools.find((t: { name: string }) => t.name === "object_list");
    assert.equal(objectList.usable, false);
    assert.match(objectList.reason, /`diazo auth extend-scopes`, adding data:read/);

    const args = await fails(serve.client, "bucket_list", { limit: 0 });
    assert.match(args.message, /^invalid arguments: limit: /);
    const typo = await fails(serve.client, "bucket_list", { limt: 3 });
    assert.match(typo.message, /unknown argument 'limt' \(did you mean 'limit'\?\)/);
    const cursor = await fails(serve.client, "bucket_list", { cursor: "not-a-cursor" });
    assert.equal(cursor.message, "cursor: invalid cursor");

    const user = await fails(serve.client, "hub_list", { auth: "user" });
    assert.equal(user.code, "three_legged_required");
    assert.match(user.hint, /diazo auth login/);
  } finally {
    await serve.close();
    await fx.close();
  }
});

Deno.test("serve: lists page with limit and cursor until has_more is false", async () => {
  const fx = await fixture();
  const serve = await startServe(fx.env, [
    "--tools",
    "bucket_create,bucket_list,hub_list,project_list,folder_list",
  ]);
  try {
    const keys = Array.from({ length: 7 }, (_, i) => `mcp-page-${i}`);
    for (const k of keys) await ok(serve.client, "bucket_create", { bucket_key: k });
    const seen: string[] = [];
    let cursor: string | undefined;
    let calls = 0;
    do {
      const page = await ok(serve.client, "bucket_list", { limit: 3, ...(cursor ? { cursor } : {}) });
      assert.ok(page.count <= 3);
      seen.push(...page.items.map((b: { bucketKey: string }) => b.bucketKey));
      assert.equal(page.has_more, page.next_cursor !== undefined);
      cursor = page.next_cursor;
      calls++;
    } while (cursor);
    assert.deepEqual(seen, keys);
    assert.equal(calls, 3);

    // A data management folder of 450 drawings: every item once, answers capped in size (so
    // fewer than 200 per call, with truncated: true) and continued by the cursor.
    const hub = (await ok(serve.client, "hub_list")).items[0].id;
    const project = (await ok(serve.client, "project_list", { hub_id: hub })).items
      .find((p: { name: string }) => p.name.startsWith("Riverside"));
    const top = await ok(serve.client, "folder_list", { hub_id: hub, project_id: project.id });
    const files = top.items.find((f: { name: string }) => f.name === "Project Files");
    const sheets = (await ok(serve.client, "folder_list", { project_id: project.id, folder_id: files.id }))
      .items.find((f: { name: string }) => f.name === "Sheets");
    const ids = new Set<string>();
    cursor = undefined;
    calls = 0;
    do {
      const page = await ok(serve.client, "folder_list", {
        project_id: project.id,
        folder_id: sheets.id,
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      for (const item of page.items) ids.add(item.id);
      assert.ok(JSON.stringify(page).length <= 60_000);
      if (page.count < 200 && page.has_more) assert.equal(page.truncated, true);
      cursor = page.next_cursor;
      calls++;
    } while (cursor);
    assert.equal(ids.size, 450);
    assert.ok(calls >= 3, `${calls} calls`);
  } finally {
    await serve.close();
    await fx.close();
  }
});

Deno.test("serve: --read-only lists only read-only tools; --exclude-tools wins over --tools", async () => {
  const fx = await fixture();
  try {
    const ro = await startServe(fx.env, ["--read-only"]);
    try {
      const { tools } = await ro.client.listTools();
      assert.ok(tools.length >= 8);
      assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true));
      for (
        const write of ["bucket_create", "bucket_delete", "object_delete", "object_upload", "translate_start"]
      ) {
        assert.ok(!tools.some((t) => t.name === write), `${write} is listed`);
      }
      assert.ok(tools.some((t) => t.name === "bucket_list"));
      const hidden = await ro.client.callTool({ name: "bucket_delete", arguments: { bucket_key: "x-y-z" } })
        .then(() => "answered", (e: Error) => e.message);
      assert.match(
        hidden,
        /Unknown tool 'bucket_delete': it is not offered by this server now: toolset_enable .* unless the server's read-only mode/,
      );
    } finally {
      await ro.close();
    }
    const some = await startServe(fx.env, [
      "--read-only",
      "--tools",
      "bucket_list,bucket_get,bucket_delete,object_list",
      "--exclude-tools",
      "bucket_get",
    ]);
    try {
      const { tools } = await some.client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ["bucket_list", "object_list"]);
    } finally {
      await some.close();
    }
    const wrong = await diazo(["serve", "--tools", "bucket_lst"], { env: fx.env });
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /unknown tool 'bucket_lst' \(did you mean 'bucket_list'\?\)/);
    assert.equal(wrong.stdout, "");
  } finally {
    await fx.close();
  }
});

Deno.test("serve --print-config: the assistant's server entry runs this diazo with the chosen options", async () => {
  const fx = await fixture();
  try {
    for (const client of ["claude", "cursor", "vscode"]) {
      // A process: the entry names the running program (Deno.mainModule), which here is the test file.
      const r = await spawnDiazo(["serve", "--print-config", client, "--read-only", "--profile", "work"], {
        env: fx.env,
      });
      assert.equal(r.code, 0, r.stderr);
      const cfg = JSON.parse(r.stdout);
      const entry = client === "vscode" ? cfg.servers.diazo : cfg.mcpServers.diazo;
      if (client === "vscode") assert.equal(entry.type, "stdio");
      assert.ok(path.isAbsolute(entry.command), entry.command);
      assert.equal(entry.command, Deno.execPath(), "under deno run: the deno binary");
      const main = entry.args.find((a: string) => a.endsWith("main.ts"));
      assert.ok(main && path.isAbsolute(main), JSON.stringify(entry.args));
      assert.deepEqual(entry.args.slice(entry.args.indexOf(main) + 1), [
        "serve",
        "--profile",
        "work",
        "--read-only",
      ]);
      assert.ok(entry.args.includes("--allow-net"));
      assert.ok(!JSON.stringify(cfg).includes("diazo-sandbox-secret"), "no secret in the snippet");
    }
  } finally {
    await fx.close();
  }
});

Deno.test("serve: with a user login, auth auto sees the personal hub; the app alone is told how to log in", async () => {
  const fx = await fixture();
  try {
    const env = await loginAsUser(fx.url, fx.env);
    const serve = await startServe(env);
    try {
      const status = await ok(serve.client, "auth_status");
      assert.deepEqual([status.user_login.logged_in, status.user_login.scopes], [true, ["data:read"]]);
      assert.ok(!status.how_to_log_in.some((h: string) => h.includes("auth login")));
      const auto = await ok(serve.client, "hub_list");
      const prefixes = auto.items.map((h: { id: string }) => h.id.slice(0, 2)).sort();
      assert.deepEqual(prefixes, ["a.", "b.", "b."]);
      const personal = auto.items.find((h: { id: string }) => h.id.startsWith("a.")).id;
      assert.ok((await ok(serve.client, "project_list", { hub_id: personal })).count >= 1);
      const asApp = await fails(serve.client, "project_list", { hub_id: personal, auth: "app" });
      assert.match(asApp.message, /only with a user's login/);
      assert.match(asApp.hint, /auth "user".*diazo auth login/);
      const appHubs = await ok(serve.client, "hub_list", { auth: "app" });
      assert.deepEqual(appHubs.items.map((h: { id: string }) => h.id.slice(0, 2)), ["b.", "b."]);
    } finally {
      await serve.close();
    }
  } finally {
    await fx.close();
  }
});
