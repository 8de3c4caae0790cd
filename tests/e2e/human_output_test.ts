/**
 * What a person at a terminal sees beside tables: an empty list says so on stderr (stdout empty,
 * exit 0); a batch is its summary and one line per failure (every row with -o json); a size reads
 * the same in the summary line and in the record. The streams are terminals of 100 columns here.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { nounOf } from "../../src/command/context.ts";
import { json } from "./harness.ts";
import { objectFixture } from "./object_helpers.ts";

const TERMINAL = { terminal: 100 };

Deno.test("empty lists on a terminal: 'No … found' on stderr, nothing on stdout, exit 0; piped: []", async () => {
  const fx = await objectFixture("e2e-empty-lists");
  try {
    const objects = await fx.run(["object", "list", fx.bucket], TERMINAL);
    assert.deepEqual([objects.code, objects.stdout], [0, ""]);
    assert.match(objects.stderr, /^No objects found\.$/m);
    const hooks = await fx.run(["webhook", "list"], TERMINAL);
    assert.deepEqual([hooks.code, hooks.stdout], [0, ""]);
    assert.match(hooks.stderr, /^No webhooks found\.$/m);
    const asJson = await fx.run(["object", "list", fx.bucket, "-o", "json"], TERMINAL);
    assert.deepEqual(json(asJson), []);
    assert.doesNotMatch(asJson.stderr, /found/);
    const piped = await fx.run(["object", "list", fx.bucket]);
    assert.deepEqual(json(piped), []);
    assert.doesNotMatch(piped.stderr, /found/);
  } finally {
    await fx.close();
  }
});

Deno.test("nounOf: what a listing command lists, from its name", () => {
  assert.equal(nounOf("bucket list"), "buckets");
  assert.equal(nounOf("da engine list"), "engines");
  assert.equal(nounOf("rfi list"), "RFIs");
  assert.equal(nounOf("acc asset ls"), "assets");
  assert.equal(nounOf("translate views"), "results");
  assert.equal(nounOf(undefined), "results");
});

Deno.test("a batch on a terminal: the summary and one line per failure; -o json keeps every row", async () => {
  const fx = await objectFixture("e2e-batch-lines");
  try {
    const dir = path.join(fx.home.cwd, "drawings");
    await Deno.mkdir(dir);
    for (let i = 0; i < 5; i++) await Deno.writeTextFile(path.join(dir, `d${i}.dxf`), `drawing ${i}`);
    const args = ["object", "upload", fx.bucket, "drawings", "missing.dxf", "--batch"];
    const shown = await fx.run(args, TERMINAL);
    assert.notEqual(shown.code, 0, "a failure fails the run");
    const lines = shown.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 2, shown.stdout);
    assert.match(lines[0], /^Uploaded 5 of 6 files \(45 B\) in [\d.]+ s; 1 failed$/);
    assert.match(lines[1], /^failed: missing\.dxf: /);
    assert.doesNotMatch(shown.stderr, /failed: /, "the failure is said once");

    const rows = json<{ status: string; file: string }[]>(await fx.run([...args, "-o", "json"], TERMINAL));
    assert.equal(rows.length, 6);
    assert.deepEqual(rows.filter((r) => r.status === "failed").map((r) => r.file), ["missing.dxf"]);
  } finally {
    await fx.close();
  }
});

Deno.test("object upload: the summary line and the record say the size the same way", async () => {
  const fx = await objectFixture("e2e-size-words");
  try {
    await Deno.writeFile(path.join(fx.home.cwd, "model.obj"), new Uint8Array(1536).fill(7));
    const up = await fx.run(["object", "upload", fx.bucket, "model.obj"], TERMINAL);
    assert.equal(up.code, 0, up.stderr);
    assert.match(up.stderr, /^Uploaded model\.obj to e2e-size-words\/model\.obj \(1\.5 KiB, 1 part\(s\), /m);
    assert.match(up.stdout, /^size +1\.5 KiB$/m);
    assert.doesNotMatch(up.stderr + up.stdout, /1536/);
  } finally {
    await fx.close();
  }
});

Deno.test("auth diagnose says each check once: a table on stdout, not the same lines on stderr too", async () => {
  const fx = await objectFixture("e2e-diagnose-once");
  try {
    const checks = json<{ check: string }[]>(await fx.run(["auth", "diagnose", "-o", "json"]));
    assert.ok(checks.length >= 3);
    const shown = await fx.run(["auth", "diagnose"], TERMINAL);
    for (const { check } of checks) {
      const said = (shown.stdout + shown.stderr).split("\n").filter((l) => l.includes(check));
      assert.equal(said.length, 1, `${check} once:\n${shown.stdout}${shown.stderr}`);
      assert.ok(shown.stdout.includes(check), `${check} in the table`);
    }
  } finally {
    await fx.close();
  }
});

Deno.test("--wide on a narrow terminal shows the columns it would hide, nothing cut", async () => {
  const fx = await objectFixture("e2e-wide");
  try {
    const key = "models/2026/a-key-long-enough-to-crowd-a-narrow-terminal.ifc";
    await Deno.writeTextFile(path.join(fx.home.cwd, "m.ifc"), "ISO-10303-21;");
    assert.equal((await fx.run(["object", "upload", fx.bucket, "m.ifc", "--key", key])).code, 0);
    const narrow = await fx.run(["object", "list", fx.bucket], { terminal: 70 });
    assert.match(narrow.stdout, /^1 column hidden \(sha1\): --wide shows all$/m);
    assert.ok(narrow.stdout.includes(key));
    const wide = await fx.run(["object", "list", fx.bucket, "--wide"], { terminal: 70 });
    assert.match(wide.stdout, /^objectKey +size +sha1$/m);
    assert.doesNotMatch(wide.stdout, /hidden|…/);
  } finally {
    await fx.close();
  }
});
