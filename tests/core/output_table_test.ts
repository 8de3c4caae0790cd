/**
 * The human table: every line fits the width it is given (the widest columns cut with `…`), sizes
 * and times are readable, a computed helper repeating a platform field is one column, and json/csv
 * of the same value stay raw.
 */
import assert from "node:assert/strict";
import { render } from "../../src/core/output.ts";
import { displayWidth, fitWidths, truncate } from "../../src/core/output_fit.ts";
import { oneColumnPerFact } from "../../src/core/output_table.ts";

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

Deno.test("table: every line fits the width, the widest columns cut with …, short ones whole", async () => {
  for (const width of [100, 80, 60]) {
    const text = await render(objects(), { format: "table", width, now: NOW });
    for (const l of lines(text)) assert.ok(displayWidth(l) <= width, `${displayWidth(l)} > ${width}: ${l}`);
    assert.match(text, /…/);
    assert.match(text, /64\.0 MiB/, "the size column is narrow and stays whole");
    assert.match(text, /\bsize\b/);
  }
  const wide = await render(objects(), { format: "table", width: 400, now: NOW });
  assert.doesNotMatch(wide, /…/, "nothing is cut when it fits");
  assert.match(wide, /a-rather-long-path-to-a-model-file-0\.rvt/);
});

Deno.test("table: a single record's vertical table fits too, its field names whole", async () => {
  const text = await render(objects(1)[0], { format: "table", width: 50, now: NOW });
  for (const l of lines(text)) assert.ok(displayWidth(l) <= 50, l);
  assert.match(text, /│ objectKey {3}│ models\/2026\/tower-block-0\/level… │/);
});

Deno.test("table: without a width nothing is fitted; a cell is at most 80 columns", async () => {
  const long = { key: "k".repeat(200) };
  const text = await render([long], { format: "table" });
  assert.match(text, new RegExp(`k{79}…`));
  assert.doesNotMatch(text, /k{80}/);
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
  assert.match(one, /createdDate +│ 3 minutes ago/);
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
  assert.match(table, /\{"when":"soon"\}/);
  assert.match(table, /100000000000000000000/);
  assert.match(table, /not a date/);
  assert.match(table, /NaN/);
  const one = await render({ createdDate: "yesterday", size: "big" }, { format: "table", now: NOW });
  assert.match(one, /yesterday/);
  assert.match(one, /big/);
});
