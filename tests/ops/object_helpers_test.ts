/** Issue 13 item 5: computed date helpers never throw on a platform date that is not epoch ms. */
import assert from "node:assert/strict";
import { withObjectHelpers, withObjectHelpersAll } from "../../src/families/object/verbs.ts";

Deno.test("withObjectHelpers: ISO helpers for epoch ms only; other values stay as they came, nothing thrown", () => {
  const ms = Date.parse("2026-03-01T12:00:00Z");
  const o: Record<string, unknown> = withObjectHelpers({
    objectId: "urn:adsk.objects:os.object:b/k",
    createdDate: ms,
    lastModifiedDate: 1e20,
    lastAccessedDate: "yesterday" as unknown as number,
  });
  assert.equal(o.createdAt, "2026-03-01T12:00:00.000Z");
  assert.equal("lastModifiedAt" in o, false);
  assert.equal("lastAccessedAt" in o, false);
  assert.equal(o.lastModifiedDate, 1e20);
  assert.equal(o.lastAccessedDate, "yesterday");
  assert.ok(o.urn);
});

Deno.test("withObjectHelpersAll: each row as withObjectHelpers gives it, fields in the same order", () => {
  const ms = Date.parse("2026-03-01T12:00:00Z");
  const list: Record<string, unknown>[] = [
    { bucketKey: "b", objectKey: "k", objectId: "urn:adsk.objects:os.object:b/k", size: 1 },
    { objectKey: "no-id", createdDate: ms },
    { objectId: "urn:adsk.objects:os.object:b/é", urn: "old", lastAccessedDate: ms, createdDate: ms },
    { objectId: "urn:adsk.objects:os.object:b/abc", lastModifiedDate: ms + 1 },
  ];
  const rows = withObjectHelpersAll(list);
  assert.equal(JSON.stringify(rows), JSON.stringify(list.map((o) => withObjectHelpers(o))));
  assert.deepEqual(Object.keys(rows[2]), [
    "objectId",
    "urn",
    "lastAccessedDate",
    "createdDate",
    "createdAt",
    "lastAccessedAt",
  ]);
  assert.equal(rows[0].urn, "dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6Yi9r");
  assert.equal("urn" in rows[1], false);
  // The records read are left as they came.
  assert.equal(list[2].urn, "old");
  assert.equal("urn" in list[0], false);
});
