/**
 * Issue 14 item 5: platform text holding terminal controls (ESC colour codes, an OSC 8 hyperlink,
 * BEL, CR, a C1 CSI) reaches a person's terminal only as visible escapes, in tables, csv and
 * stderr lines; json keeps the exact text for programs.
 */
import assert from "node:assert/strict";
import { visible } from "../../src/core/sanitize.ts";
import { storageFixture } from "../storage/_cli.ts";

const HOSTILE = "red\x1b[31mkey\x1b]8;;https://evil.example/\x07link\x1b]8;;\x07\rover\x9b2J";

/** Any byte a terminal acts on: C0 controls but the line feed, DEL, and C1 controls. */
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

Deno.test("visible shows every control character as an escape and leaves other text alone", () => {
  assert.equal(visible("a\x1b[31mb\x07c\rd\x9be\x00"), "a\\e[31mb\\ac\\rd\\x9Be\\x00");
  assert.equal(visible("line1\nline2", { keepLines: true }), "line1\nline2");
  assert.equal(visible("line1\nline2"), "line1\\nline2");
  assert.equal(visible("plain é 漢字 ✓"), "plain é 漢字 ✓");
});

Deno.test("an object key with ESC, OSC 8, BEL, CR and C1: table and csv escaped, json exact", async () => {
  const fx = await storageFixture("st-escapes");
  try {
    const file = `${fx.home.cwd}/payload.txt`;
    await Deno.writeTextFile(file, "hello");
    const up = await fx.run(["object", "upload", fx.bucket, file, "--key", HOSTILE]);
    assert.equal(up.code, 0, up.stderr);
    assert.doesNotMatch(up.stderr, RAW_CONTROL, "the upload's stderr lines quote the key escaped");

    const table = await fx.run(["object", "list", fx.bucket, "-o", "table"]);
    assert.equal(table.code, 0, table.stderr);
    // Into a pipe a table is tab-separated: only the separators may be raw tabs.
    assert.doesNotMatch(table.stdout.replaceAll("\t", " "), RAW_CONTROL);
    assert.equal(table.stdout.split("\n")[1].split("\t").length, 3, "the key's own controls are escaped");
    assert.match(table.stdout, /red\\e\[31mkey/);

    const csv = await fx.run(["object", "list", fx.bucket, "-o", "csv"]);
    assert.equal(csv.code, 0, csv.stderr);
    // csv lines end in CRLF (RFC 4180): only the line ends may hold a raw CR.
    assert.doesNotMatch(csv.stdout.replaceAll("\r\n", "\n"), RAW_CONTROL);
    assert.match(csv.stdout, /red\\e\[31mkey\\e\]8;;https:\/\/evil\.example\/\\alink/);

    const json = await fx.run(["object", "list", fx.bucket, "-o", "json"]);
    assert.equal(json.code, 0, json.stderr);
    const keys = (JSON.parse(json.stdout) as { objectKey: string }[]).map((o) => o.objectKey);
    assert.deepEqual(keys, [HOSTILE], "json keeps the key exactly");
  } finally {
    await fx.close();
  }
});

Deno.test("an error quoting a key with controls is escaped on stderr", async () => {
  const fx = await storageFixture("st-escapes-err");
  try {
    const missing = await fx.run(["object", "info", fx.bucket, `gone${HOSTILE}`]);
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /^error: /);
    assert.doesNotMatch(missing.stderr, RAW_CONTROL);
    assert.match(missing.stderr, /gonered\\e\[31mkey/);
  } finally {
    await fx.close();
  }
});
