/**
 * `-o`/`--output` is the output format in every command; destinations are `--out`. A value of `-o`
 * that is no format is a usage error (exit 2) that names `--out` in the commands that write files,
 * before any request and with nothing written.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { json, openSandboxHome, requestLog } from "../e2e/harness.ts";

const PROJECT = "b.1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081";
const ITEM = "urn:adsk.wipprod:dm.lineage:AeYgDtcTSuqYoyMweWFhhQ";
const URN = "dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6Yi9tLm9iag";
const SCENE = "3f7a9c2e4b1d4e8fa0c5d6e7f8091a2b";

/** Every command that once took a path with `-o`, as a command line without its destination. */
const WRITERS: readonly string[][] = [
  ["object", "download", "out-b", "m.obj"],
  ["item", "download", PROJECT, ITEM],
  ["dm", "download", PROJECT, ITEM],
  ["translate", "download", URN],
  ["translate", "thumbnail", URN],
  ["generate", "obj", "--size", "1KiB"],
  ["reality-capture", "result", SCENE, "--out", "r/"],
  ["da", "workitem", "run", "Copy+prod"],
];

Deno.test("object download B K -o json: the JSON format, the file in the working directory under its key (or --out)", async () => {
  const h = await openSandboxHome();
  try {
    await Deno.writeTextFile(path.join(h.home.cwd, "m.obj"), "v 0 0 0\n");
    assert.equal((await h.run(["bucket", "create", "--key", "out-b"])).code, 0);
    assert.equal((await h.run(["object", "upload", "out-b", "m.obj", "--key", "dir/m.obj"])).code, 0);
    await Deno.remove(path.join(h.home.cwd, "m.obj"));
    const r = await h.run(["object", "download", "out-b", "dir/m.obj", "-o", "json"]);
    assert.equal(r.code, 0, r.stderr);
    const got = json<{ file: string; size: number }>(r);
    assert.equal(got.file, path.join(h.home.cwd, "dir", "m.obj"));
    assert.equal(await Deno.readTextFile(got.file), "v 0 0 0\n");
    await assert.rejects(Deno.stat(path.join(h.home.cwd, "json")), "no file named json");

    const to = await h.run(["object", "download", "out-b", "dir/m.obj", "--out", "copy.obj", "-o", "yaml"]);
    assert.equal(to.code, 0, to.stderr);
    assert.match(to.stdout, /^file: .*copy\.obj$/m);
    assert.equal(await Deno.readTextFile(path.join(h.home.cwd, "copy.obj")), "v 0 0 0\n");
  } finally {
    await h.close();
  }
});

Deno.test("-o with a path in a command that writes files: exit 2 naming --out, no request, nothing written", async () => {
  const h = await openSandboxHome();
  try {
    const before = await Array.fromAsync(Deno.readDir(h.home.cwd));
    const requests = (await requestLog(h.sb.url)).length;
    for (const command of WRITERS) {
      for (const flags of [["-o", "./dir/"], ["--output", "./dir/"], ["-o./dir/"], ["--output=./dir/"]]) {
        const r = await h.run([...command, ...flags]);
        const line = command.join(" ") + " " + flags.join(" ");
        assert.equal(r.code, 2, `${line}: ${r.stderr}`);
        assert.equal(r.stdout, "", line);
        assert.match(
          r.stderr,
          /^error: `-o` sets the output format \(json, yaml, table, csv, text\); use --out \.\/dir\/ for the destination\nhint: .+\n$/,
          line,
        );
      }
    }
    assert.deepEqual(await Array.fromAsync(Deno.readDir(h.home.cwd)), before, "nothing written");
    assert.equal((await requestLog(h.sb.url)).length, requests, "no request made");
  } finally {
    await h.close();
  }
});

Deno.test("-o with no format in a command without --out: the format error, exit 2", async () => {
  const h = await openSandboxHome();
  try {
    const r = await h.run(["bucket", "list", "-o", "xml"]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^error: invalid output format 'xml' \(from --output\)\nhint: Use one of: json, yaml, table, csv, text\.\n$/,
    );
  } finally {
    await h.close();
  }
});
