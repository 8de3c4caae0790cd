/**
 * Issue 18 item 2: files sent through the batch operations get the single-file flow's integrity
 * checks — an object whose stored SHA-1 differs from its file is deleted and reported on its own —
 * and a batch completion whose answer is lost still ends with every file uploaded.
 */
import assert from "node:assert/strict";
import { sandboxEnv } from "../e2e/harness.ts";
import { lostAnswer, startFaultProxy } from "./_proxy.ts";
import { storageFixture } from "./_cli.ts";

type Outcome = { file: string; status: string; error?: string; exitCode?: number };

/** Writes five small files `b0.txt`..`b4.txt` in `dir`. */
async function fiveFiles(dir: string): Promise<string[]> {
  const names = [0, 1, 2, 3, 4].map((i) => `b${i}.txt`);
  for (const n of names) await Deno.writeTextFile(`${dir}/${n}`, `content of ${n}\n`);
  return names;
}

Deno.test("batch: an object corrupted on its way to storage is deleted and reported, the others stored", async () => {
  const f = await storageFixture("st-batch-corrupt");
  let corrupted = 0;
  const proxy = startFaultProxy(f.url, async (req, forward) => {
    if (req.method !== "PUT" || !new URL(req.url).pathname.startsWith("/__s3/") || corrupted > 0) {
      return undefined;
    }
    corrupted++;
    const bytes = new Uint8Array(await req.arrayBuffer());
    bytes[0] ^= 0xff;
    return await forward(new Request(req.url, { method: "PUT", headers: req.headers, body: bytes }));
  });
  try {
    const names = await fiveFiles(f.home.cwd);
    const env = sandboxEnv(f.home, proxy.url);
    const r = await f.run(["object", "upload", f.bucket, ...names, "--batch", "-o", "json"], env);
    const outcomes = JSON.parse(r.stdout) as Outcome[];
    const failed = outcomes.filter((o) => o.status === "failed");
    assert.equal(failed.length, 1, r.stdout);
    assert.match(failed[0].error ?? "", /Integrity check failed .*the corrupt object was deleted/);
    assert.equal(failed[0].exitCode, 1);
    assert.equal(r.code, 1, r.stderr);
    const listed = JSON.parse((await f.run(["object", "list", f.bucket, "-o", "json"])).stdout);
    assert.deepEqual(
      listed.map((o: { objectKey: string }) => o.objectKey).sort(),
      names.filter((n) => n !== failed[0].file),
    );
  } finally {
    await proxy.close();
    await f.close();
  }
});

Deno.test("batch: a lost answer to the batch completion still ends with every file uploaded", async () => {
  const f = await storageFixture("st-batch-lost");
  let dropped = 0;
  const proxy = startFaultProxy(f.url, async (req, forward) => {
    if (!new URL(req.url).pathname.endsWith("/batchcompleteupload") || dropped > 0) return undefined;
    dropped++;
    await (await forward(req)).body?.cancel(); // the platform completes the uploads…
    return lostAnswer(); // …and its answer never arrives
  });
  try {
    const names = await fiveFiles(f.home.cwd);
    const env = sandboxEnv(f.home, proxy.url);
    const r = await f.run(["object", "upload", f.bucket, ...names, "--batch", "-o", "json"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(dropped, 1);
    assert.ok((JSON.parse(r.stdout) as Outcome[]).every((o) => o.status === "ok"), r.stdout);
    const listed = JSON.parse((await f.run(["object", "list", f.bucket, "-o", "json"])).stdout);
    assert.equal(listed.length, 5);
  } finally {
    await proxy.close();
    await f.close();
  }
});
