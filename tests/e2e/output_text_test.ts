/**
 * e2e: `-o text`, as aws's `--output text`: a value bare, a list one item per line, a record's fields
 * separated by tabs; `--query` picks what is printed.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { json, withSandboxHome } from "./harness.ts";
import { renderText } from "../../src/core/output_text.ts";

Deno.test("object info B K --query urn -o text prints the bare URN; bucket list -o text one line per bucket", () =>
  withSandboxHome(async ({ run, home }) => {
    for (const key of ["text-b1", "text-b2"]) {
      const made = await run(["bucket", "create", "-k", key]);
      assert.equal(made.code, 0, made.stderr);
    }
    await Deno.writeTextFile(path.join(home.cwd, "m.obj"), "v 0 0 0\n");
    const up = await run(["object", "upload", "text-b1", "m.obj", "-o", "json"]);
    assert.equal(up.code, 0, up.stderr);
    const urn = json<{ urn: string }>(up).urn;

    const info = await run(["object", "info", "text-b1", "m.obj", "--query", "urn", "-o", "text"]);
    assert.equal(info.code, 0, info.stderr);
    assert.equal(info.stdout, `${urn}\n`);

    const list = await run(["bucket", "list", "-o", "text"]);
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.trimEnd().split("\n");
    assert.deepEqual(lines.map((l) => l.split("\t")[0]).sort(), ["text-b1", "text-b2"]);
    const asJson = json<Record<string, unknown>[]>(await run(["bucket", "list", "-o", "json"]));
    const b1 = asJson.find((b) => b.bucketKey === "text-b1")!;
    assert.deepEqual(lines.find((l) => l.startsWith("text-b1\t"))!.split("\t"), [
      "text-b1",
      b1.policyKey,
      b1.region,
      b1.createdAt,
    ], "the table's columns, tab-separated, no header");

    const keys = await run(["bucket", "list", "--query", "[].bucketKey", "-o", "text"]);
    assert.deepEqual(keys.stdout.split("\n").sort(), ["", "text-b1", "text-b2"]);
  }));

Deno.test("-o text: scalars bare, lists one per line, records tab-separated; control characters escaped", () => {
  assert.equal(renderText("urn:x"), "urn:x\n");
  assert.equal(renderText(42), "42\n");
  assert.equal(renderText(null), "");
  assert.equal(renderText([]), "");
  assert.equal(renderText(["a", "b"]), "a\nb\n");
  assert.equal(renderText({ k: "v", n: 2, nested: { a: 1 } }), 'v\t2\t{"a":1}\n');
  assert.equal(renderText([{ a: 1, b: 2 }, { b: 3, c: 4 }]), "1\t2\t\n\t3\t4\n");
  assert.equal(renderText([{ a: 1, b: 2 }], ["b"]), "2\n");
  assert.equal(renderText([["x", "y"]]), "x\ty\n");
  assert.equal(renderText("two\nlines\tand a tab"), "two\\nlines\\tand a tab\n");
});
