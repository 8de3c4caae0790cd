/**
 * Named snapshots and health of the control API: a snapshot then a restore puts every service back
 * (buckets, object bytes, a folder, an issue, a webhook, the clock), a restore can be repeated, and
 * the built-in world's snapshot and restore times are printed.
 */
import assert from "node:assert/strict";
import { api, control, token, withSandbox } from "./helpers.ts";
import { login } from "./oauth_helpers.ts";
import { bucketWithToken, downloadObject, patternBytes, sha1Hex, uploadObject } from "./object_helpers.ts";
import { makeFolder, makeHook, makeIssue, seededProject } from "./world_helpers.ts";

Deno.test("snapshot: health answers ok with the uptime", async () => {
  await withSandbox(async (sb) => {
    const a = await control(sb, "GET", "health");
    assert.equal(a.status, 200);
    assert.equal(a.json.status, "ok");
    assert.equal(typeof a.json.uptime_seconds, "number");
  });
});

Deno.test("snapshot: restore returns every service to the snapshot, and again", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, "kept");
    const bytes = patternBytes(1000, 3);
    await uploadObject(sb, t, "kept", "a.bin", bytes);
    const base = await control(sb, "POST", "snapshot", { name: "base" });
    assert.equal(base.status, 201);
    console.log(`snapshot of a small world: ${base.json.duration_ms} ms`);

    // Change every kind of thing: a replaced and a new object, a bucket, a folder, an issue, a hook.
    await uploadObject(sb, t, "kept", "a.bin", patternBytes(10, 9));
    await uploadObject(sb, t, "kept", "b.bin", patternBytes(10, 8));
    assert.equal(
      (await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey: "later", policyKey: "transient" })).status,
      200,
    );
    const folder = await makeFolder(sb, "After snapshot");
    const issue = await makeIssue(sb, "After snapshot");
    const hook = await makeHook(sb, "http://127.0.0.1:9/hook");
    await control(sb, "POST", "clock", { advance_seconds: 3600 });

    for (let round = 0; round < 2; round++) {
      const restored = await control(sb, "POST", "restore", { name: "base" });
      assert.equal(restored.status, 200);
      const state = (await control(sb, "GET", "state")).json;
      assert.deepEqual(state.buckets.map((b: { bucketKey: string }) => b.bucketKey), ["kept"]);
      assert.equal(state.objects.count, 1);
      assert.equal(state.clock.offset_seconds, 0);
      const t2 = await token(sb, "data:read bucket:read bucket:create data:write");
      assert.equal(
        sha1Hex((await downloadObject(sb, t2, "kept", "a.bin"))!),
        sha1Hex(bytes),
        "the snapshot's bytes",
      );
      assert.equal(await downloadObject(sb, t2, "kept", "b.bin"), undefined, "the object made after is gone");
      const { projectId } = seededProject();
      const f = await api(
        sb,
        "GET",
        `/data/v1/projects/${projectId}/folders/${encodeURIComponent(folder)}`,
        t2,
      );
      assert.equal(f.status, 404, "the folder made after is gone");
      const u = (await login(sb, "data:read")).access_token;
      const i = await api(
        sb,
        "GET",
        `/construction/issues/v1/projects/${projectId.slice(2)}/issues/${issue}`,
        u,
      );
      assert.equal(i.status, 404, "the issue made after is gone");
      const h = await api(sb, "GET", `/webhooks/v1/systems/data/events/dm.folder.added/hooks/${hook}`, t2);
      assert.equal(h.status, 404, "the hook made after is gone");
      // Changing the world again does not change the snapshot.
      await uploadObject(sb, t2, "kept", "a.bin", patternBytes(10, 7));
    }
    assert.deepEqual((await control(sb, "GET", "snapshots")).json.map((s: { name: string }) => s.name), [
      "base",
    ]);
  });
});

Deno.test("snapshot: the built-in world, saved and restored (milliseconds printed)", async () => {
  await withSandbox(async (sb) => {
    await makeFolder(sb, "Make the world its own"); // a written world is copied, not shared
    const saved = await control(sb, "POST", "snapshot", { name: "builtin" });
    const restored = await control(sb, "POST", "restore", { name: "builtin" });
    assert.equal(restored.status, 200);
    console.log(
      `built-in world: snapshot ${saved.json.duration_ms} ms, restore ${restored.json.duration_ms} ms`,
    );
  });
});

Deno.test("snapshot: an unknown name is 404, a bad name 400", async () => {
  await withSandbox(async (sb) => {
    assert.equal((await control(sb, "POST", "restore", { name: "none" })).status, 404);
    assert.equal((await control(sb, "POST", "snapshot", { name: "a/b" })).status, 400);
    assert.equal((await control(sb, "POST", "snapshot", {})).status, 400);
  });
});
