import assert from "node:assert/strict";
import path from "node:path";
import { createLimiter, mapSettled } from "../../src/core/concurrency.ts";
import { orderedRanges } from "../../src/transfer/download.ts";
import {
  choosePartSize,
  createBufferPool,
  DEFAULT_PART_SIZE,
  MAX_PARTS,
  partCount,
  partSizeBytes,
} from "../../src/transfer/upload.ts";
import { batchKey, expandInputs } from "../../src/transfer/upload_batch.ts";
import { deleteRecord, readRecord, recordPath, writeRecord } from "../../src/transfer/upload_state.ts";

const MiB = 1024 * 1024;

Deno.test("part sizes: the platform minimum, the default, growth for huge files", () => {
  assert.equal(partSizeBytes(5), 5 * MiB);
  assert.equal(partSizeBytes(16), 16 * MiB);
  assert.throws(() => partSizeBytes(1), /--part-size 1 is outside 5-512 MiB/);
  assert.throws(() => partSizeBytes(4.9), /outside/);
  assert.throws(() => partSizeBytes(513), /outside/);
  assert.equal(choosePartSize(1), DEFAULT_PART_SIZE);
  const huge = 200 * 1024 * MiB; // 200 GiB would need 25,600 parts of 8 MiB
  const grown = choosePartSize(huge);
  assert.ok(partCount(huge, grown) <= MAX_PARTS);
  assert.equal(grown % MiB, 0);
  assert.equal(partCount(0, DEFAULT_PART_SIZE), 1, "an empty file is one empty part");
  assert.equal(partCount(5 * MiB, 5 * MiB), 1);
  assert.equal(partCount(5 * MiB + 1, 5 * MiB), 2);
});

Deno.test("limiter: never more than n tasks at once; mapSettled keeps order and survives failures", async () => {
  const limiter = createLimiter(3);
  let active = 0;
  let peak = 0;
  await Promise.all(Array.from({ length: 20 }, (_, i) =>
    limiter.run(async () => {
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, i % 3));
      active--;
    })));
  assert.equal(peak, 3);
  const results = await mapSettled([1, 2, 3, 4, 5], 2, async (n) => {
    await new Promise((r) => setTimeout(r, 6 - n));
    if (n === 3) throw new Error("three");
    return n * 10;
  });
  assert.deepEqual(results.map((r) => r.status === "fulfilled" ? r.value : (r.reason as Error).message), [
    10,
    20,
    "three",
    40,
    50,
  ]);
});

Deno.test("buffer pool: at most count buffers out; take waits for give", async () => {
  const pool = createBufferPool(2, 4);
  const a = await pool.take();
  const b = await pool.take();
  let third: Uint8Array | undefined;
  const waiting = pool.take().then((x) => (third = x));
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(third, undefined, "a third buffer is not handed out while two are taken");
  pool.give(a);
  await waiting;
  assert.equal(third, a, "the returned buffer is reused");
  assert.notEqual(a, b);
});

Deno.test("download ranges are ordered by their start byte", () => {
  assert.deepEqual(orderedRanges({ "10-19": "b", "0-9": "a", "20-25": "c" }), ["a", "b", "c"]);
});

Deno.test("batch keys use / whatever the OS, under the prefix; directories are walked", async () => {
  assert.equal(batchKey("p/", ["a", "b.obj"].join(path.sep)), "p/a/b.obj");
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(path.join(dir, "sub", "deeper"), { recursive: true });
    await Deno.writeTextFile(path.join(dir, "top.obj"), "x");
    await Deno.writeTextFile(path.join(dir, "sub", "deeper", "d.stl"), "yy");
    const { entries, missing } = await expandInputs([dir, path.join(dir, "nope.obj")], "m/");
    assert.deepEqual(entries.map((e) => [e.objectKey, e.size]), [["m/sub/deeper/d.stl", 2], [
      "m/top.obj",
      1,
    ]]);
    assert.deepEqual(missing, [path.join(dir, "nope.obj")]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("resume records: keyed by platform, bucket, key, size and mtime; stored 0600", async () => {
  const stateDir = await Deno.makeTempDir();
  try {
    const id = { baseUrl: "http://x", bucketKey: "b", objectKey: "k", size: 10, mtimeMs: 5 };
    await writeRecord(stateDir, {
      ...id,
      file: "f",
      partSize: 5 * MiB,
      uploadKey: "U",
      parts: { 1: '"e1"' },
      updatedAt: "",
    });
    assert.equal((await readRecord(stateDir, id))?.uploadKey, "U");
    assert.equal(
      await readRecord(stateDir, { ...id, mtimeMs: 6 }),
      undefined,
      "a modified file is a new upload",
    );
    assert.equal(await readRecord(stateDir, { ...id, size: 11 }), undefined);
    assert.notEqual(recordPath(stateDir, id), recordPath(stateDir, { ...id, objectKey: "k2" }));
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(recordPath(stateDir, id))).mode! & 0o777, 0o600);
    }
    await Deno.writeTextFile(recordPath(stateDir, id), "{not json");
    assert.equal(await readRecord(stateDir, id), undefined, "a damaged record is ignored");
    await deleteRecord(stateDir, id);
    assert.equal(await readRecord(stateDir, id), undefined);
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
});
