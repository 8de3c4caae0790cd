/**
 * The human table: every line fits the width it is given (the widest columns cut with `…`), sizes
 * and times are readable, a computed helper repeating a platform field is one column, and json/csv
 * of the same value stay raw.
 */
import assert from "node:assert/strict";
import { render } from "../../src/core/output.ts";
import { displayWidth, fitWidths, truncate } from "../../src/core/output_fit.ts";
import { humanCell, oneColumnPerFact } from "../../src/core/output_table.ts";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const MIN = 60_000;

function objects(n = 3) {
  return Array.from({ length: n }, (_, i) => {
    const createdDate = NOW - (i + 1) * 3 * MIN;
    return {
      objectKey: `models/2026/tower-block-${i}/levels/a-rather-long-path-to-a-model-file-${i}.rvt`,
      objectId: `urn:adsk.objects:os.object:e2e-fit/models/2026/tower-block-${i}/model-${i}.rvt`,
      sha1: "0123456789abcdef0123456789abcdef0123456" + i,
      size: 64 * 1024 * 1024 * (i + 1),
      createdDate,
      createdAt: new Date(createdDate).toISOString(),
    };
  });
}

function lines(text: string): string[] {
  return text.trimEnd().split("\n");
}

Deno.test("fitWidths: the widest columns come down to one cap; narrow ones keep their width", () => {
  assert.deepEqual(fitWidths([5, 40, 30], 100), [5, 40, 30]);
  assert.deepEqual(fitWidths([5, 40, 30], 45), [5, 20, 20]);
  assert.deepEqual(fitWidths([5, 40, 30], 46), [5, 21, 20], "leftover goes to the leftmost cut column");
  assert.deepEqual(fitWidths([10, 10, 10], 3, 3), [3, 3, 3], "never under the minimum");
});

Deno.test("truncate: cuts with … to a display width, wide characters counting two", () => {
  assert.equal(truncate("abcdefgh", 5), "abcd…");
  assert.equal(truncate("abc", 5), "abc");
  assert.equal(truncate("日本語のファイル", 7), "日本語…");
  assert.equal(displayWidth(truncate("日本語のファイル", 7)), 7);
  assert.equal(truncate("line one is long\nok", 6), "line …\nok");
});

Deno.test("table: every line fits; identifiers whole, sha1 hidden first and named in a footer", async () => {
  for (const width of [160, 120, 100]) {
    const text = await render(objects(), { format: "table", width, now: NOW });
    for (const l of lines(text)) assert.ok(displayWidth(l) <= width, `${displayWidth(l)} > ${width}: ${l}`);
    const shownIds = lines(text)[0].includes("objectId");
    for (const o of objects()) {
      assert.ok(text.includes(o.objectKey), `${o.objectKey} whole at ${width}`);
      if (shownIds) assert.ok(text.includes(o.objectId), `${o.objectId} whole at ${width}`);
      else assert.match(text, /hidden \(objectId/, "a hidden identifier is named");
    }
    assert.doesNotMatch(text, /…|│|├|┼/);
    assert.match(text, /64\.0 MiB/, "the size column is narrow and stays whole");
  }
  const narrow = await render(objects(), { format: "table", width: 100, now: NOW });
  assert.match(narrow, /^\d columns? hidden \(.*sha1.*\): --wide shows all$/m);
  assert.doesNotMatch(narrow, /0123456789abcdef/, "the hidden column is not drawn");
  const wide = await render(objects(), { format: "table", width: 400, now: NOW });
  assert.doesNotMatch(wide, /…|hidden/, "nothing is cut or hidden when it fits");
  const forced = await render(objects(), { format: "table", width: 60, wide: true, now: NOW });
  assert.match(forced, /0123456789abcdef0123456789abcdef01234560/, "--wide shows every column");
  assert.doesNotMatch(forced, /…|hidden/);
});

Deno.test("table: gh's layout: a header, a rule under it, one line per row, two spaces between columns", async () => {
  const text = await render([{ id: "a", status: "ok" }, { id: "bb", status: "failed" }], {
    format: "table",
    width: 80,
  });
  assert.equal(text, "id  status\n──  ──────\na   ok\nbb  failed\n");
});

Deno.test("table: free text is cut with … once nothing else can give way; identifiers never", async () => {
  const rows = [{
    id: "urn:adsk.wipprod:fs.folder:co.3dhfINwASgJ5FjpKtfA5fA",
    name: "A very long folder name that a person gave it long ago",
  }];
  const text = await render(rows, { format: "table", width: 70 });
  for (const l of lines(text)) assert.ok(displayWidth(l) <= 70, l);
  assert.ok(text.includes(rows[0].id));
  assert.match(text, /A very long folder…|A very long f.*…/);
  const tight = await render(rows, { format: "table", width: 30 });
  assert.ok(tight.includes(rows[0].id), "an identifier overflows rather than being cut");
});

Deno.test("table: a single record reads as field and value lines, nested lists as small tables", async () => {
  const text = await render(objects(1)[0], { format: "table", width: 50, now: NOW });
  assert.match(
    text,
    /^objectKey +models\/2026\/tower-block-0\/levels\/a-rather-long-path-to-a-model-file-0\.rvt$/m,
  );
  assert.match(text, /^size +64\.0 MiB$/m);
  const manifest = {
    status: "success",
    derivatives: [{ name: "house.obj", outputType: "svf2", status: "success", children: [{ name: "{3D}" }] }],
    messages: [],
    acceptedJobs: { output: { formats: [{ type: "svf2", views: ["2d", "3d"] }] } },
  };
  const shown = await render(manifest, { format: "table", width: 80, now: NOW });
  assert.doesNotMatch(shown, /[{}[\]"]/, `no JSON in:\n${shown}`);
  assert.match(shown, /^derivatives$/m);
  assert.match(shown, /^ {2}name {7}outputType {2}status {3}children$/m);
  assert.match(shown, /^ {2}house\.obj {2}svf2 {8}success {2}1 item$/m);
  assert.match(
    shown,
    /^acceptedJobs\n {2}output\n {4}formats\n {6}type {2}views\n {6}─+ {2}─+\n {6}svf2 {2}2d, 3d$/m,
  );
  const plain = await render(manifest, { format: "table", plain: true, now: NOW });
  assert.match(plain, /^derivatives\[0\]\.name\thouse\.obj$/m);
  assert.match(plain, /^derivatives\[0\]\.children\[0\]\.name\t\{3D\}$/m);
  assert.match(plain, /^acceptedJobs\.output\.formats\[0\]\.views\t2d, 3d$/m);
});

Deno.test("table: a record with the command's columns shows those fields, as lines", async () => {
  const text = await render(objects(1)[0], {
    format: "table",
    columns: ["objectKey", "size"],
    width: 80,
    now: NOW,
  });
  assert.equal(text.trimEnd().split("\n").length, 2);
  assert.match(text, /^size +64\.0 MiB$/m);
});

Deno.test("table: without a width nothing is hidden; free text is at most 80 columns, identifiers whole", async () => {
  const text = await render([{ title: "t".repeat(200), key: "k".repeat(200) }], { format: "table" });
  assert.match(text, new RegExp(`t{79}…`));
  assert.doesNotMatch(text, /t{80}/);
  assert.match(text, /k{200}/);
});

Deno.test("table into a pipe: tab-separated lines, a header first, raw values, nothing cut", async () => {
  const items = objects();
  const text = await render(items, { format: "table", plain: true, width: 20, now: NOW });
  const [head, ...rows] = lines(text);
  assert.deepEqual(head.split("\t"), ["objectKey", "objectId", "sha1", "size", "createdDate"]);
  assert.deepEqual(rows[0].split("\t"), [
    items[0].objectKey,
    items[0].objectId,
    items[0].sha1,
    String(items[0].size),
    String(items[0].createdDate),
  ]);
});

Deno.test("humanCell: lists of scalars joined, records as their fields, lists of records counted", () => {
  assert.equal(humanCell(["data:read", "bucket:read"]), "data:read, bucket:read");
  assert.equal(humanCell({ id: "X1", type: "user", more: { a: 1 } }), "id: X1, type: user");
  assert.equal(humanCell([{ a: 1 }, { a: 2 }]), "2 items");
  assert.equal(humanCell(null), "");
  assert.equal(humanCell("a\x1b[31mb"), "a\\e[31mb");
});

Deno.test("table: sizes and times readable; json and csv keep raw bytes, epochs and full keys", async () => {
  const items = objects();
  const table = await render(items, { format: "table", width: 200, now: NOW });
  assert.match(table, /64\.0 MiB/);
  assert.match(table, /128\.0 MiB/);
  assert.match(table, /3 minutes ago/);
  assert.match(table, /9 minutes ago/);
  assert.doesNotMatch(table, /67108864/);

  const json = JSON.parse(await render(items, { format: "json", width: 20, now: NOW }));
  assert.deepEqual(json, items);
  const csv = await render(items, { format: "csv", width: 20, now: NOW });
  assert.match(csv, /,67108864,/);
  assert.ok(csv.includes(items[0].objectKey));
  assert.ok(csv.includes(String(items[0].createdDate)) && csv.includes(items[0].createdAt), "csv keeps both");
});

Deno.test("field once: a computed ISO helper gives way to the platform's epoch field it repeats", async () => {
  const items = objects();
  assert.deepEqual(oneColumnPerFact(items, ["objectKey", "createdDate", "createdAt"]), [
    "objectKey",
    "createdDate",
  ]);
  assert.deepEqual(oneColumnPerFact(items, ["objectKey", "createdAt"]), ["objectKey", "createdDate"]);
  const table = await render(items, { format: "table", width: 300, now: NOW });
  assert.match(table, /createdDate/);
  assert.doesNotMatch(table, /createdAt/);
  assert.equal(table.match(/3 minutes ago/g)?.length, 1, "the instant shows once per row");
  const one = await render(items[0], { format: "table", width: 300, now: NOW });
  assert.doesNotMatch(one, /createdAt/);
  assert.match(one, /^createdDate {2}3 minutes ago$/m);
});

Deno.test("field once: an ISO field that is its own fact keeps its column", () => {
  const items = [
    { name: "a", createdDate: NOW, updatedAt: new Date(NOW + MIN).toISOString() },
    { name: "b", createdDate: NOW, updatedAt: new Date(NOW).toISOString() },
  ];
  assert.deepEqual(oneColumnPerFact(items, ["name", "createdDate", "updatedAt"]), [
    "name",
    "createdDate",
    "updatedAt",
  ]);
  const lonely = [{ name: "a", createdAt: new Date(NOW).toISOString() }];
  assert.deepEqual(oneColumnPerFact(lonely, ["name", "createdAt"]), ["name", "createdAt"]);
});

Deno.test("table: date fields holding anything else show their raw value and never throw", async () => {
  const items = [
    { bucketKey: "a", createdDate: "yesterday", createdAt: null },
    { bucketKey: "b", createdDate: null, createdAt: { when: "soon" } },
    { bucketKey: "c", createdDate: 1e20, createdAt: "not a date" },
    { bucketKey: "d", createdDate: NaN, lastModified: -1 },
  ];
  const table = await render(items, { format: "table", width: 100, now: NOW });
  assert.match(table, /yesterday/);
  assert.match(table, /when: soon/);
  assert.match(table, /100000000000000000000/);
  assert.match(table, /not a date/);
  assert.match(table, /NaN/);
  const one = await render({ createdDate: "yesterday", size: "big" }, { format: "table", now: NOW });
  assert.match(one, /yesterday/);
  assert.match(one, /big/);
});
