/** Issue 13 item 5: computed date helpers never throw on a platform date that is not epoch ms. */
import assert from "node:assert/strict";
import { withObjectHelpers } from "../../src/families/object/verbs.ts";

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
