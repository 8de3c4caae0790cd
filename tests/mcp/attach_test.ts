/**
 * Things to attach and guided flows: resources (toolsets; templates of a design's manifest, tree and
 * properties), prompts (upload → translate → inspect; issue triage), the data management search and
 * the object hierarchy that gives translate_properties its object_id.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { CUBE_OBJ } from "../e2e/md_helpers.ts";
import { fails, fixture, ok, startServe } from "./helpers.ts";

Deno.test("attach: resources, resource templates and prompts; a manifest, tree and properties read by URN", async () => {
  const fx = await fixture();
  const serve = await startServe(fx.env);
  const c = serve.client;
  try {
    const { resources } = await c.listResources();
    assert.deepEqual(resources.map((r) => r.uri), ["diazo://server/toolsets"]);
    const { resourceTemplates } = await c.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), [
      "diazo://derivative/{urn}/manifest",
      "diazo://derivative/{urn}/tree",
      "diazo://derivative/{urn}/properties",
    ]);
    const { prompts } = await c.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name), ["upload_translate_inspect", "triage_issues"]);
    const triage = await c.getPrompt({ name: "triage_issues", arguments: { project_id: "b.123" } });
    const text = (triage.messages[0].content as { text: string }).text;
    assert.match(text, /issue_list with project_id b\.123 and status \["open"\]/);
    await assert.rejects(c.getPrompt({ name: "triage_issues", arguments: {} }), /needs project_id/);
    const flow = await c.getPrompt({
      name: "upload_translate_inspect",
      arguments: { file: "a.rvt", bucket_key: "b" },
    });
    assert.match(
      (flow.messages[0].content as { text: string }).text,
      /object_upload.*translate_start.*translate_tree/s,
    );

    const toolsets = await c.readResource({ uri: "diazo://server/toolsets" });
    assert.match((toolsets.contents[0] as { text: string }).text, /toolset_enable/);

    await Deno.writeTextFile(path.join(fx.home.cwd, "cube.obj"), CUBE_OBJ);
    await ok(c, "bucket_create", { bucket_key: "seat-attach" });
    const { urn } = await ok(c, "object_upload", { bucket_key: "seat-attach", file: "cube.obj" });
    await ok(c, "translate_start", { urn, formats: ["svf2"] });
    await ok(c, "translate_status", { urn, wait_seconds: 60 });
    const manifest = await c.readResource({ uri: `diazo://derivative/${urn}/manifest` });
    assert.equal(JSON.parse((manifest.contents[0] as { text: string }).text).status, "success");
    const props = await c.readResource({ uri: `diazo://derivative/${urn}/properties` });
    assert.ok(JSON.parse((props.contents[0] as { text: string }).text).data.collection.length > 0);

    // The hierarchy names the object ids translate_properties takes.
    const tree = await ok(c, "translate_tree", { urn });
    assert.equal(tree.total, tree.count);
    assert.equal(tree.items[0].depth, 0);
    assert.equal(tree.items[0].parent, null);
    const leaf = tree.items.find((n: { children: number }) => n.children === 0);
    const one = await ok(c, "translate_properties", { urn, object_id: leaf.objectid });
    assert.equal(one.items[0].objectid, leaf.objectid);
    const treeRes = await c.readResource({ uri: `diazo://derivative/${urn}/tree` });
    assert.ok(JSON.parse((treeRes.contents[0] as { text: string }).text).data.objects.length > 0);
    await assert.rejects(c.readResource({ uri: "diazo://derivative/x/nothing" }), /Unknown resource/);
  } finally {
    await serve.close();
    await fx.close();
  }
});

Deno.test("folder_search: finds folders and files by name in a project, with their path, paged", async () => {
  const fx = await fixture();
  const serve = await startServe(fx.env, ["--toolsets", "dm"]);
  const c = serve.client;
  try {
    const hub = (await ok(c, "hub_list")).items[0].id;
    const project = (await ok(c, "project_list", { hub_id: hub })).items
      .find((p: { name: string }) => p.name.startsWith("Riverside")).id;
    const sheets = await ok(c, "folder_search", {
      project_id: project,
      hub_id: hub,
      name: "sheets",
      type: "folders",
    });
    assert.equal(sheets.count, 1, JSON.stringify(sheets.items.map((i: { name: string }) => i.name)));
    assert.equal(sheets.items[0].name, "Sheets");
    assert.equal(sheets.items[0].path, "/Project Files");
    assert.equal(sheets.complete, true);
    // The 450 drawings of Sheets: paged, each once.
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await ok(c, "folder_search", {
        project_id: project,
        folder_id: sheets.items[0].id,
        name: ".dwg",
        type: "items",
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      for (const i of page.items) seen.add(i.id);
      cursor = page.next_cursor;
    } while (cursor);
    assert.ok(seen.size >= 400, `${seen.size} drawings`);
    const hubless = await fails(c, "folder_search", { project_id: project, name: "x" });
    assert.match(hubless.message, /hub_id is needed/);
  } finally {
    await serve.close();
    await fx.close();
  }
});
