/**
 * Issue 14 item 1: object keys `.` and `..` never reach another resource — not the bucket, not the
 * object list — from the CLI or the tool server; other keys stay one encoded segment.
 */
import assert from "node:assert/strict";
import { apiPath, segment } from "../../src/http/path.ts";
import { assertUsageError, requestLog } from "../e2e/harness.ts";
import { fails, startServe } from "../mcp/helpers.ts";
import { storageFixture } from "./_cli.ts";

Deno.test("segment keeps any key one segment and refuses the dot segments URLs drop", () => {
  assert.equal(
    apiPath`/oss/v2/buckets/${"b"}/objects/${"a/../b ?#"}`,
    "/oss/v2/buckets/b/objects/a%2F..%2Fb%20%3F%23",
  );
  assert.equal(segment("..."), "...");
  assert.equal(segment("%2E"), "%252E");
  for (const dots of [".", ".."]) {
    assert.throws(() => segment(dots), /cannot be used as a name in a request path/, dots);
  }
});

Deno.test("object info/delete with key . or .. send nothing to the bucket or the object list", async () => {
  const f = await storageFixture();
  try {
    await Deno.writeTextFile(`${f.home.cwd}/m.obj`, "o\n");
    assert.equal((await f.run(["object", "upload", f.bucket, "m.obj"])).code, 0);
    const before = (await requestLog(f.url)).length;
    for (
      const argv of [
        ["object", "info", f.bucket, ".."],
        ["object", "delete", f.bucket, "..", "--yes"],
        ["object", "delete", f.bucket, ".", "--yes"],
        ["object", "signed-url", f.bucket, ".."],
      ]
    ) {
      assertUsageError(await f.run(argv), /cannot be used as a name in a request path/);
    }
    const sent = (await requestLog(f.url)).slice(before);
    assert.deepEqual(sent.filter((e) => e.path.startsWith("/oss/")), [], "no storage request was sent");
    // The bucket and its object are untouched.
    const list = await f.run(["object", "list", f.bucket, "-o", "json"]);
    assert.deepEqual(JSON.parse(list.stdout).map((o: { objectKey: string }) => o.objectKey), ["m.obj"]);
  } finally {
    await f.close();
  }
});

Deno.test("the object tools refuse keys . and .. before any storage request", async () => {
  const f = await storageFixture("st-safety-mcp");
  const serve = await startServe(f.env);
  try {
    await Deno.writeTextFile(`${f.home.cwd}/m.obj`, "o\n");
    const before = (await requestLog(f.url)).length;
    const calls: [string, Record<string, unknown>][] = [
      ["object_delete", { bucket_key: f.bucket, object_key: "..", confirm: true }],
      ["object_delete", { bucket_key: f.bucket, object_key: ".", confirm: true }],
      ["object_signed_url", { bucket_key: f.bucket, object_key: "..", confirm: true }],
      ["object_upload", { bucket_key: f.bucket, file: "m.obj", object_key: ".." }],
    ];
    for (const [name, args] of calls) {
      const e = await fails(serve.client, name, args);
      assert.match(e.message, /cannot be used as a name in a request path/, name);
      assert.equal(e.code, "usage", name);
    }
    const sent = (await requestLog(f.url)).slice(before);
    assert.deepEqual(sent.filter((e) => e.path.startsWith("/oss/")), [], "no storage request was sent");
  } finally {
    await serve.close();
    await f.close();
  }
});

Deno.test("every API module builds its paths through segment(): no bare encodeURIComponent in src/families, src/http, src/transfer", async () => {
  const offenders: string[] = [];
  const walk = async (dir: URL): Promise<void> => {
    for await (const e of Deno.readDir(dir)) {
      if (e.isDirectory) await walk(new URL(`${e.name}/`, dir));
      // http/path.ts is segment() itself; http/url_text.ts form-encodes query names and values (as
      // URLSearchParams writes them), never a path.
      else if (
        e.name.endsWith(".ts") &&
        !(["path.ts", "url_text.ts"].includes(e.name) && dir.pathname.endsWith("/http/"))
      ) {
        const text = await Deno.readTextFile(new URL(e.name, dir));
        if (/encodeURIComponent\(/.test(text)) offenders.push(`${dir.pathname.split("/src/")[1]}${e.name}`);
      }
    }
  };
  for (const room of ["families", "http", "transfer"]) {
    await walk(new URL(`../../src/${room}/`, import.meta.url));
  }
  assert.deepEqual(offenders, []);
});
