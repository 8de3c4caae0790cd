import assert from "node:assert/strict";
import { chooseFormat, render } from "../../src/core/output.ts";
import { applyQuery, compileQuery } from "../../src/core/output_query.ts";
import { batched, jsonPieces } from "../../src/core/output_pieces.ts";
import { renderCsv } from "../../src/core/output_csv.ts";
import { DiazoError } from "../../src/core/errors.ts";

const rows = [{ bucketKey: "a", policyKey: "transient", n: 1 }, {
  bucketKey: "b,c",
  policyKey: 'say "hi"',
  extra: { x: 1 },
}];

Deno.test("json renders the value unchanged", async () => {
  assert.deepEqual(JSON.parse(await render(rows, { format: "json" })), rows);
});

Deno.test("yaml renders parseable YAML", async () => {
  const { parse } = await import("yaml");
  assert.deepEqual(parse(await render(rows, { format: "yaml" })), rows);
});

Deno.test("csv quotes fields and takes the union of keys as header", () => {
  const text = renderCsv(rows);
  assert.equal(text, 'bucketKey,policyKey,n,extra\r\na,transient,1,\r\n"b,c","say ""hi""",,"{""x"":1}"\r\n');
});

Deno.test("table shows every row and chosen columns", async () => {
  const text = await render(rows, { format: "table", columns: ["bucketKey", "policyKey"] });
  assert.match(text, /bucketKey/);
  assert.match(text, /b,c/);
  assert.doesNotMatch(text, /extra/);
  assert.equal(await render([], { format: "table" }), "");
});

Deno.test("query filters before rendering; a bad query is a usage error", async () => {
  assert.deepEqual(await applyQuery(rows, "[].bucketKey"), ["a", "b,c"]);
  await assert.rejects(() => compileQuery("[?"), (e: unknown) => e instanceof DiazoError && e.exitCode === 2);
});

Deno.test("format: flag > DIAZO_OUTPUT > setting > terminal; invalid values are usage errors", () => {
  assert.equal(chooseFormat(undefined, undefined, undefined, true), "table");
  assert.equal(chooseFormat(undefined, undefined, undefined, false), "json");
  assert.equal(chooseFormat(undefined, undefined, "yaml", false), "yaml");
  assert.equal(chooseFormat(undefined, "csv", "yaml", false), "csv");
  assert.equal(chooseFormat("table", "csv", "yaml", false), "table");
  assert.throws(() => chooseFormat(undefined, "xml", undefined, false), /DIAZO_OUTPUT/);
});

Deno.test("query: the AWS CLI's legacy literal (`persistent` as a string) beside standard JMESPath", async () => {
  const buckets = [{ bucketKey: "p", policyKey: "persistent" }, { bucketKey: "t", policyKey: "transient" }];
  assert.deepEqual(await applyQuery(buckets, "[?policyKey==`persistent`].bucketKey"), ["p"]);
  assert.deepEqual(await applyQuery(buckets, '[?policyKey==`"persistent"`].bucketKey'), ["p"]);
  assert.deepEqual(await applyQuery(buckets, "[?policyKey=='transient'].bucketKey"), ["t"]);
  assert.deepEqual(await applyQuery({ a: 2 }, "[a, `2`, `[1]`, `true`, `null`]"), [2, 2, [1], true, null]);
  assert.equal(await applyQuery({}, "`it\\`s`"), "it`s", "an escaped backtick inside the literal");
  assert.equal(await applyQuery({}, "'`raw`'"), "`raw`", "a raw string's backticks are not a literal");
  await compileQuery("[?policyKey==`persistent`]");
  await assert.rejects(
    () => compileQuery("[?a==`x"),
    (e: unknown) => e instanceof DiazoError && e.exitCode === 2,
  );
});

Deno.test("item 7: jsonPieces joins to exactly the json format's text, the long list item by item", () => {
  const records: unknown[] = [
    {
      file: "a.yaml",
      valid: true,
      name: "n",
      steps: [{ index: 1, name: "s", id: undefined, x: [1, { y: "a\nb" }] }],
    },
    { file: "b", steps: [1, null, "t", [], {}], after: { z: 1 } },
    { steps: [] },
    { other: 1 },
    [1, 2],
    "text",
    null,
  ];
  for (const record of records) {
    const pieces = [...jsonPieces(record, "steps")];
    assert.equal(pieces.join(""), JSON.stringify(record, null, 2) + "\n");
    assert.equal([...batched(pieces, 8)].join(""), pieces.join(""));
  }
  const long = { steps: Array.from({ length: 1000 }, (_, i) => ({ index: i })) };
  assert.ok([...jsonPieces(long, "steps")].length > 1000);
});
