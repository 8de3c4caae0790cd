/** The object store keeps a listed bucket's key order as keys come and go, instead of re-sorting it. */
import assert from "node:assert/strict";
import { createClock } from "../../src/sandbox/clock.ts";
import { deleteObject, listObjects, putObject } from "../../src/sandbox/oss/object_store.ts";
import { createOssStore } from "../../src/sandbox/oss/store.ts";

Deno.test("oss: a listed bucket's keys stay in order through puts, replacements and deletes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const oss = createOssStore(dir, createClock());
    const keys = () => listObjects(oss, "b", { limit: 100 }).items.map((o) => o.objectKey);
    const put = (k: string) => putObject(oss, "b", k, new Uint8Array([1]));
    for (const k of ["m", "c", "x"]) await put(k);
    assert.deepEqual(keys(), ["c", "m", "x"]);
    for (const k of ["a", "z", "n", "m"]) await put(k);
    assert.ok(oss.objects.get("b")!.sortedKeys, "kept, not dropped");
    assert.deepEqual(keys(), ["a", "c", "m", "n", "x", "z"]);
    await deleteObject(oss, "b", "n");
    await deleteObject(oss, "b", "a");
    assert.deepEqual(keys(), ["c", "m", "x", "z"]);
    assert.deepEqual(listObjects(oss, "b", { limit: 2, startAt: "c" }), {
      items: ["m", "x"].map((k) => oss.objects.get("b")!.byKey.get(k)!),
      more: true,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
