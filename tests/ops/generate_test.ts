/** ops/generate.ts: exact sizes on disk, no silent overwrite, "-" to a stream, and demo's object names. */
import assert from "node:assert/strict";
import path from "node:path";
import { runGenerate } from "../../src/families/generate/verbs.ts";
import { someObjects } from "../../src/families/demo/verbs.ts";
import { DiazoError } from "../../src/core/errors.ts";

Deno.test("runGenerate: a file of the exact size under cwd, refused when it exists unless forced", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const opts = { format: "obj", size: "10KiB", seed: 1, out: "m.obj" };
    const { generated, description } = await runGenerate(opts, { cwd });
    assert.equal(generated.file, path.join(cwd, "m.obj"));
    assert.equal((await Deno.stat(generated.file!)).size, 10240);
    assert.equal(generated.size, 10240);
    assert.match(generated.sha1, /^[0-9a-f]{40}$/);
    assert.match(description, /obj with \d+ objects \(seed 1\) to /);
    await assert.rejects(
      runGenerate(opts, { cwd }),
      (e: unknown) => e instanceof DiazoError && /m\.obj already exists/.test(e.message) && e.exitCode === 2,
    );
    const again = await runGenerate({ ...opts, force: true }, { cwd });
    assert.equal(again.generated.sha1, generated.sha1, "the same seed gives the same bytes");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("runGenerate: '-' hands every byte to the stream and reports no file", async () => {
  let bytes = 0;
  const { generated, description } = await runGenerate(
    {
      format: "stl",
      size: "3000",
      seed: 7,
      out: "-",
      toStream: async (chunks) => {
        for await (const c of chunks) bytes += c.length;
      },
    },
    { cwd: "/nonexistent" },
  );
  assert.equal(bytes, 3000);
  assert.equal(generated.file, undefined);
  assert.match(description, new RegExp(`to standard output, sha1 ${generated.sha1}$`));
  await assert.rejects(
    runGenerate({ format: "stl", size: "3000", seed: 7, out: "-" }, { cwd: "." }),
    DiazoError,
  );
});

Deno.test("runGenerate: an interrupted write is the catalog's interrupted error", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(
      runGenerate({ format: "ifc", size: "1MiB", seed: 1, signal: abort.signal }, { cwd }),
      (e: unknown) => e instanceof DiazoError && e.code === "interrupted",
    );
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("demo's object names: the root skipped, repeated names shown once, at most n", () => {
  const props = {
    data: {
      collection: [
        { objectid: 1, name: "tower.obj" },
        { objectid: 2, name: "Beam_0001" },
        { objectid: 3, name: "Beam_0001" },
        { objectid: 4, name: "Column_0002" },
        { objectid: 5, name: "Slab_0003" },
      ],
    },
  };
  assert.deepEqual(someObjects(props, 2), [{ objectid: 2, name: "Beam_0001" }, {
    objectid: 4,
    name: "Column_0002",
  }]);
  assert.deepEqual(someObjects({}, 3), []);
});
