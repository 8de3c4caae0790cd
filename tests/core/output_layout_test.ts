/**
 * The table's layout logic: which columns are identifiers (never cut), which give way first on a
 * narrow terminal, and the widths of the rest, as pure arithmetic on widths.
 */
import assert from "node:assert/strict";
import { columnRoles, isIdentifier } from "../../src/core/output_columns.ts";
import { type LayoutColumn, layoutColumns, TEXT_MIN } from "../../src/core/output_layout.ts";

Deno.test("isIdentifier: by name (keys, ids, URNs, URLs, hashes) or by every value; never free text", () => {
  for (
    const n of [
      "id",
      "bucketKey",
      "objectKey",
      "objectId",
      "hookId",
      "urn",
      "callbackUrl",
      "sha1",
      "client_id",
    ]
  ) {
    assert.ok(isIdentifier(n, ["x"]), n);
  }
  for (const n of ["name", "title", "status", "size", "displayName", "description"]) {
    assert.ok(!isIdentifier(n, ["short"]), n);
  }
  assert.ok(isIdentifier("folder", ["urn:adsk.wipprod:fs.folder:co.abc", ""]), "URN values");
  assert.ok(isIdentifier("hub", ["b.dc6589d2-9ad1-4301-a2e8-6a1ff3b25cec"]), "b.<guid> values");
  assert.ok(isIdentifier("link", ["https://example.com/a"]), "URL values");
  assert.ok(!isIdentifier("mixed", ["urn:x", "not one"]), "only when every value is one");
  assert.ok(!isIdentifier("title", ["urn:adsk.x"]), "free text by name stays free text");
});

Deno.test("columnRoles: the first identifier and the first free text are kept; low names and the command's hint rank last", () => {
  const names = ["type", "name", "id", "sha1", "lastModified", "size"];
  const roles = columnRoles(names, [["folders", "Plans", "urn:adsk.x:y", "abc", "today", "1 KiB"]], ["type"]);
  assert.deepEqual(roles.map((r) => r.essential), [false, true, true, false, false, false]);
  assert.deepEqual(roles.map((r) => r.identifier), [false, false, true, true, false, false]);
  const order = names.map((n, i) => [n, roles[i].rank] as const).sort((a, b) => b[1] - a[1]).map(([n]) => n);
  assert.deepEqual(order, ["sha1", "type", "size", "lastModified", "id", "name"], "first to give way first");
  const bare = columnRoles(["status", "count"], [["ok", "3"]]);
  assert.deepEqual(bare.map((r) => r.essential), [true, false], "neither: the first column is kept");
});

function col(natural: number, opts: Partial<LayoutColumn["role"]> & { header?: number } = {}): LayoutColumn {
  return {
    natural,
    header: opts.header ?? 2,
    role: { identifier: opts.identifier ?? false, essential: opts.essential ?? false, rank: opts.rank ?? 0 },
  };
}

Deno.test("layoutColumns: everything whole when it fits, without a width, or --wide", () => {
  const cols = [col(10), col(50, { identifier: true }), col(8)];
  assert.deepEqual(layoutColumns(cols, 100, 2), { shown: [0, 1, 2], widths: [10, 50, 8], hidden: [] });
  assert.deepEqual(layoutColumns(cols, undefined, 2).widths, [10, 50, 8]);
  assert.deepEqual(layoutColumns(cols, 20, 2, true), { shown: [0, 1, 2], widths: [10, 50, 8], hidden: [] });
});

Deno.test("layoutColumns: the highest rank gives way first, never an essential column; identifiers are never cut", () => {
  const cols = [
    col(30, { essential: true, rank: 0, header: 4 }), // name
    col(52, { identifier: true, essential: true, rank: 1 }), // id
    col(12, { rank: 2 }), // lastModified
    col(40, { identifier: true, rank: 9 }), // sha1
  ];
  const l = layoutColumns(cols, 80, 2);
  assert.deepEqual(l.hidden, [2, 3]);
  assert.deepEqual(l.shown, [0, 1]);
  assert.deepEqual(l.widths, [26, 52], "the name is cut to what the id leaves");
  const roomy = layoutColumns(cols, 120, 2);
  assert.deepEqual(roomy.hidden, [3], "only sha1 at 120");
  assert.deepEqual(roomy.widths, [30, 52, 12]);
});

Deno.test("layoutColumns: a column hidden early comes back when a wider one went after it", () => {
  const cols = [
    col(73, { identifier: true, essential: true, rank: 0 }),
    col(72, { identifier: true, rank: 1 }),
    col(9, { rank: 3 }),
    col(13, { rank: 4 }),
  ];
  const l = layoutColumns(cols, 120, 2);
  assert.deepEqual(l.hidden, [1]);
  assert.deepEqual(l.widths, [73, 9, 13]);
});

Deno.test("layoutColumns: free text keeps TEXT_MIN (or its header) while others can go; the room left widens the narrowest", () => {
  const cols = [
    col(40, { essential: true, header: 5 }),
    col(40, { rank: 1, header: 25 }),
    col(6, { rank: 2 }),
  ];
  assert.equal(TEXT_MIN, 20);
  const l = layoutColumns(cols, 60, 2);
  assert.deepEqual(l.hidden, []);
  assert.deepEqual(l.widths, [25, 25, 6], "the header's 25 columns kept; the 5 spare to the narrowest");
  assert.deepEqual(layoutColumns(cols, 54, 2).hidden, [2], "one column short: the last gives way");
});

Deno.test("layoutColumns: when the kept columns do not fit, text is cut to 3 and identifiers overflow", () => {
  const cols = [col(30, { essential: true }), col(60, { identifier: true, essential: true })];
  const l = layoutColumns(cols, 40, 2);
  assert.deepEqual(l.widths, [3, 60]);
});

Deno.test("columnRoles: a command's lowPriority makes even the first identifier give way first", () => {
  const names = ["displayId", "id", "title", "status"];
  const rows = [["1", "eb37a400-0b7c-4b33-aca4-f8835512f717", "Cracked slab", "open"]];
  const plain = columnRoles(names, rows);
  assert.ok(plain[1].identifier && !plain[1].essential && plain[0].essential);
  const guidOnly = columnRoles(["id", "title"], [["eb37a400-0b7c-4b33-aca4-f8835512f717", "x"]], ["id"]);
  assert.equal(guidOnly[0].essential, false, "named low: not kept however narrow");
  assert.ok(guidOnly[0].rank > guidOnly[1].rank, "and it gives way first");
  assert.equal(guidOnly[1].essential, true);
});
