/** Unit: atomic saves and the temp files a killed save leaves behind. */
import assert from "node:assert/strict";
import path from "node:path";
import { removeAtomicLeftovers, writeFileAtomic } from "../../src/platform/fs_write.ts";
import { deleteRecord, recordPath, type UploadIdentity } from "../../src/transfer/upload_state.ts";

async function names(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("removeAtomicLeftovers: only the temp files of that file; with olderThanMs, only stale ones", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = path.join(dir, "rec.json");
    await Deno.writeTextFile(file, "{}");
    const fresh = path.join(dir, ".rec.json.aaaa.tmp");
    const stale = path.join(dir, ".rec.json.bbbb.tmp");
    await Deno.writeTextFile(fresh, "x");
    await Deno.writeTextFile(stale, "x");
    await Deno.utime(stale, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    await Deno.writeTextFile(path.join(dir, ".other.json.cccc.tmp"), "x");
    await Deno.writeTextFile(path.join(dir, ".rec.json.keep"), "x");

    assert.equal(await removeAtomicLeftovers(file, { olderThanMs: 60_000 }), 1);
    assert.deepEqual(await names(dir), [
      ".other.json.cccc.tmp",
      ".rec.json.aaaa.tmp",
      ".rec.json.keep",
      "rec.json",
    ]);
    assert.equal(await removeAtomicLeftovers(file), 1);
    assert.deepEqual(await names(dir), [".other.json.cccc.tmp", ".rec.json.keep", "rec.json"]);
    assert.equal(
      await removeAtomicLeftovers(path.join(dir, "missing", "x.json")),
      0,
      "a missing dir is no error",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeFileAtomic tidies a stale temp file of the same file, and keeps a fresh one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = path.join(dir, "config.yaml");
    const stale = path.join(dir, ".config.yaml.dead.tmp");
    const fresh = path.join(dir, ".config.yaml.live.tmp");
    await Deno.writeTextFile(stale, "half");
    await Deno.utime(stale, new Date(Date.now() - 600_000), new Date(Date.now() - 600_000));
    await Deno.writeTextFile(fresh, "half");
    await writeFileAtomic(file, "a: 1\n");
    assert.equal(await Deno.readTextFile(file), "a: 1\n");
    assert.deepEqual(await names(dir), [".config.yaml.live.tmp", "config.yaml"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deleteRecord removes the record and a temp file a killed save of it left", async () => {
  const stateDir = await Deno.makeTempDir();
  try {
    const id: UploadIdentity = { baseUrl: "http://x", bucketKey: "b", objectKey: "k", size: 1, mtimeMs: 2 };
    const file = recordPath(stateDir, id);
    await Deno.mkdir(path.dirname(file), { recursive: true });
    await Deno.writeTextFile(file, "{}");
    await Deno.writeTextFile(path.join(path.dirname(file), `.${path.basename(file)}.1234.tmp`), "{");
    await deleteRecord(stateDir, id);
    assert.deepEqual(await names(path.dirname(file)), []);
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
});
