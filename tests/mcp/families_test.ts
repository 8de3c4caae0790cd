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
