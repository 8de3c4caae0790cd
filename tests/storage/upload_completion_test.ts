/**
 * Issue 14 items 2 and 10: a lost answer to the upload completion is checked against the stored
 * object (same → success, record gone; different → a conflict, never "Bucket already exists"), and
 * an object corrupted on the way is deleted, so no later download calls it verified.
 */
import assert from "node:assert/strict";
import { sandboxEnv } from "../e2e/harness.ts";
import { randomFile } from "../e2e/object_helpers.ts";
import { isCompletion, lostAnswer, startFaultProxy } from "./_proxy.ts";
import { storageFixture } from "./_cli.ts";

const MiB = 1024 * 1024;

/** The upload resume records left in `stateDir` (upload_state.ts keeps them under `uploads/`). */
async function resumeRecords(stateDir: string): Promise<string[]> {
  return await Array.fromAsync(Deno.readDir(`${stateDir}/uploads`), (e) => e.name).catch(() => []);
}

Deno.test("a completion whose answer is lost succeeds when the stored object is this file", async () => {
  const f = await storageFixture("st-lost-answer");
  let dropped = 0;
  const proxy = startFaultProxy(f.url, async (req, forward) => {
    if (!isCompletion(req) || dropped > 0) return undefined;
    dropped++;
    await (await forward(req)).body?.cancel(); // the platform stores the object…
    return lostAnswer(); // …and its answer never arrives
  });
  try {
    const sha1 = await randomFile(`${f.home.cwd}/big.bin`, 6 * MiB);
    const env = sandboxEnv(f.home, proxy.url);
    const r = await f.run(["object", "upload", f.bucket, "big.bin", "--part-size", "5", "-o", "json"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(dropped, 1);
    assert.equal(JSON.parse(r.stdout).sha1, sha1);
    assert.doesNotMatch(r.stderr, /Bucket already exists/);
    assert.deepEqual(await resumeRecords(f.home.stateDir), [], "the resume record is removed");
  } finally {
    await proxy.close();
    await f.close();
  }
});

Deno.test("a completion whose answer is lost while another file took the key is a clear conflict", async () => {
  const f = await storageFixture("st-lost-conflict");
  let dropped = 0;
  const proxy = startFaultProxy(f.url, async (req, forward) => {
    if (!isCompletion(req) || dropped > 0) return undefined;
    dropped++;
    await (await forward(req)).body?.cancel();
    // Meanwhile someone else stores other bytes under the same key.
    const other = await f.run(["object", "upload", f.bucket, "other.bin", "--key", "big.bin"]);
    assert.equal(other.code, 0, other.stderr);
    return lostAnswer();
  });
  try {
    await randomFile(`${f.home.cwd}/big.bin`, 6 * MiB);
    await Deno.writeTextFile(`${f.home.cwd}/other.bin`, "other bytes\n");
    const env = sandboxEnv(f.home, proxy.url);
    const r = await f.run(["object", "upload", f.bucket, "big.bin", "--part-size", "5"], env);
    assert.equal(r.code, 6, r.stderr);
    assert.match(
      r.stderr,
      /^error: Conflict: the upload of st-lost-conflict\/big\.bin was already completed, and the stored object differs from this file \(12 bytes/m,
    );
    assert.doesNotMatch(r.stderr, /Bucket already exists/);
  } finally {
    await proxy.close();
    await f.close();
  }
});

Deno.test("an upload corrupted on its way to storage is deleted and never downloaded as verified", async () => {
  const f = await storageFixture("st-corrupt");
  const proxy = startFaultProxy(f.url, async (req, forward) => {
    if (req.method !== "PUT" || !new URL(req.url).pathname.startsWith("/__s3/")) return undefined;
    const bytes = new Uint8Array(await req.arrayBuffer());
    bytes[0] ^= 0xff; // one flipped bit pattern in the first byte of every part
    return await forward(new Request(req.url, { method: "PUT", headers: req.headers, body: bytes }));
  });
  try {
    await randomFile(`${f.home.cwd}/m.bin`, 64 * 1024);
    const env = sandboxEnv(f.home, proxy.url);
    const r = await f.run(["object", "upload", f.bucket, "m.bin"], env);
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      /^error: Integrity check failed for st-corrupt\/m\.bin: .*the corrupt object was deleted/m,
    );
    const info = await f.run(["object", "info", f.bucket, "m.bin"]);
    assert.equal(info.code, 4, "the object is gone");
    const down = await f.run(["object", "download", f.bucket, "m.bin", "--out", "out.bin"]);
    assert.notEqual(down.code, 0);
    assert.doesNotMatch(down.stderr, /SHA-1 verified/);
  } finally {
    await proxy.close();
    await f.close();
  }
});

Deno.test("--resume after every completion answer was lost finishes the upload instead of failing forever", async () => {
  const f = await storageFixture("st-lost-resume");
  let drop = true;
  const proxy = startFaultProxy(f.url, async (req, forward) => {
    if (!drop || !isCompletion(req)) return undefined;
    await (await forward(req)).body?.cancel();
    return lostAnswer();
  });
  try {
    const sha1 = await randomFile(`${f.home.cwd}/big.bin`, 6 * MiB);
    const argv = ["object", "upload", f.bucket, "big.bin", "--part-size", "5", "-o", "json"];
    const env = sandboxEnv(f.home, proxy.url);
    const lost = await f.run(argv, env);
    assert.equal(lost.code, 5, lost.stderr);
    assert.equal((await resumeRecords(f.home.stateDir)).length, 1, "the record survives a network failure");
    drop = false;
    const resumed = await f.run([...argv, "--resume"], env);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual([JSON.parse(resumed.stdout).sha1, JSON.parse(resumed.stdout).partsSkipped], [sha1, 2]);
    assert.deepEqual(await resumeRecords(f.home.stateDir), []);
  } finally {
    await proxy.close();
    await f.close();
  }
});
