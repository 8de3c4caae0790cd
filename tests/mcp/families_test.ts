/**
 * The tool server's families driven through tools only, by the SDK's client against the sandbox:
 * a webhook on a folder sees a version uploaded with item_upload.
 */
import assert from "node:assert/strict";
import path from "node:path";
import type { Client } from "../../src/mcp/sdk.ts";
import { fails, fixture, ok, startServe } from "./helpers.ts";

/** The first folder of the project named `name`, reached through hub_list, project_list and folder_list. */
async function topFolder(client: Client, name: string): Promise<{ project: string; folder: string }> {
  const hub = (await ok(client, "hub_list")).items[0].id;
  const project = (await ok(client, "project_list", { hub_id: hub })).items
    .find((p: { name: string }) => p.name === name).id;
  const top = await ok(client, "folder_list", { hub_id: hub, project_id: project });
  return { project, folder: top.items[0].id };
}

Deno.test("tools: a webhook created on a folder sees the version item_upload adds; webhook_delete needs confirm", async () => {
  const fx = await fixture();
  const delivered = Promise.withResolvers<Record<string, Record<string, unknown>>>();
  const receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.json();
    if (new URL(req.url).pathname === "/hook") delivered.resolve(body); // not the probe of webhook_test
    return new Response(null, { status: 200 });
  });
  const serve = await startServe(fx.env, ["--toolsets", "dm,events"]);
  try {
    const url = `http://127.0.0.1:${receiver.addr.port}/hook`;
    const events = await ok(serve.client, "webhook_events", { system: "data" });
    assert.ok(events.events.some((e: { event: string }) => e.event === "dm.version.added"));
    const probe = await ok(serve.client, "webhook_test", { url: url.replace("/hook", "/probe") });
    assert.equal(probe.ok, true);
    const { project, folder } = await topFolder(serve.client, "Harbor Bridge");
    const { hook } = await ok(serve.client, "webhook_create", {
      url,
      event: "dm.version.added",
      scope: { folder },
      confirm: true,
    });
    assert.equal(hook.status, "active");
    const listed = await ok(serve.client, "webhook_list", { event: "dm.version.added" });
    assert.ok(listed.items.some((h: { hookId: string }) => h.hookId === hook.hookId));
    await Deno.writeTextFile(path.join(fx.home.cwd, "hooked.dwg"), "x".repeat(500));
    const up = await ok(serve.client, "item_upload", {
      project_id: project,
      folder_id: folder,
      file: "hooked.dwg",
    });
    const body = await delivered.promise;
    assert.equal(body.hook.event, "dm.version.added");
    assert.equal(body.payload.lineageUrn, up.item.id);

    // Destructive: without elicitation the call must say confirm: true.
    const refused = await fails(serve.client, "webhook_delete", {
      hook_id: hook.hookId,
      event: "dm.version.added",
    });
    assert.match(refused.message, /This cannot be undone: confirm must be true$/);
    assert.doesNotMatch(refused.text, /--/);
    const deleted = await ok(serve.client, "webhook_delete", {
      hook_id: hook.hookId,
      event: "dm.version.added",
      confirm: true,
    });
    assert.equal(deleted.deleted, true);
    assert.equal((await ok(serve.client, "webhook_list", {})).count, 0);
  } finally {
    await serve.close();
    await receiver.shutdown();
    await fx.close();
  }
});

Deno.test("tools: reality capture from photos in the allowed directory to a downloaded result; item_download", async () => {
  const fx = await fixture(); // jobs take no sandbox time
  const allowed = path.join(fx.home.cwd, "site");
  await Deno.mkdir(path.join(allowed, "shots"), { recursive: true });
  for (let i = 0; i < 3; i++) {
    const bytes = new Uint8Array(32 * 1024).map((_, j) => (i * 31 + j * 7) % 251);
    await Deno.writeFile(path.join(allowed, "shots", `IMG_${i}.jpg`), bytes);
  }
  const serve = await startServe(fx.env, ["--toolsets", "reality,dm", "--allow-dir", allowed]);
  try {
    const scene = await ok(serve.client, "reality_create", { name: "Tools", formats: ["obj"] });
    const id = scene.photosceneid;
    const outside = await fails(serve.client, "reality_upload", { scene_id: id, files: [fx.home.cwd] });
    assert.match(outside.message, /outside the directories it was allowed/);
    const up = await ok(serve.client, "reality_upload", {
      scene_id: id,
      files: [path.join(allowed, "shots")],
    });
    assert.equal(up.uploaded, 3);
    await ok(serve.client, "reality_process", { scene_id: id });
    const status = await ok(serve.client, "reality_status", { scene_id: id, wait: true, timeout: 60 });
    assert.equal(status.done, true);
    const result = await ok(serve.client, "reality_result", { scene_id: id, format: "obj" });
    assert.equal(path.dirname(result.file), await Deno.realPath(allowed));
    assert.equal((await Deno.stat(result.file)).size, result.size);

    // A data management file downloaded into the allowed directory.
    const { project, folder } = await topFolder(serve.client, "Harbor Bridge");
    const listed = await ok(serve.client, "folder_list", {
      project_id: project,
      folder_id: folder,
      type: "items",
    });
    const item = listed.items[0];
    assert.ok(item, "an item to download");
    const got = await ok(serve.client, "item_download", { project_id: project, item_id: item.id });
    assert.equal(path.dirname(got.file), await Deno.realPath(allowed));
    assert.equal((await Deno.stat(got.file)).size, got.size);
    const versions = await ok(serve.client, "item_versions", { project_id: project, item_id: item.id });
    assert.equal(versions.items[0].id, got.version);
  } finally {
    await serve.close();
    await fx.close();
  }
});
