/**
 * `object upload --batch` over the OSS batch operations (issue 18 item 2): few signing and completion
 * requests per file, every object's SHA-1 checked, and a failed item retried or reported on its own.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { addFault, json, requestLog } from "../e2e/harness.ts";
import { objectFixture, sha1Of } from "../e2e/object_helpers.ts";

type Outcome = { file: string; objectKey: string; status: string; sha1?: string; exitCode?: number };

/** Writes `n` small files of distinct content under `dir`; returns their names. */
async function smallFiles(dir: string, n: number): Promise<string[]> {
  await Deno.mkdir(dir, { recursive: true });
  const names = Array.from({ length: n }, (_, i) => `f${String(i).padStart(3, "0")}.txt`);
  for (const [i, name] of names.entries()) {
    await Deno.writeTextFile(path.join(dir, name), `file ${i}\n`.repeat(i + 1));
  }
  return names;
}

/** The platform requests that sign URLs or complete uploads, from the sandbox's log. */
async function signAndComplete(url: string, bucket: string): Promise<{ batch: number; single: number }> {
  const log = await requestLog(url, `/oss/v2/buckets/${bucket}/objects`);
  return {
    batch: log.filter((e) => /\/batch(signeds3upload|completeupload)$/.test(e.path)).length,
    single: log.filter((e) => e.path.endsWith("/signeds3upload")).length,
  };
}

Deno.test("batch upload of 100 files: at most 0.2 signing/completion requests per file, every SHA-1 matches", async () => {
  const fx = await objectFixture("batch-ops");
  try {
    const dir = path.join(fx.home.cwd, "hundred");
    const names = await smallFiles(dir, 100);
    const up = await fx.run(["object", "upload", fx.bucket, dir, "--batch", "--prefix", "h/", "-o", "json"]);
    assert.equal(up.code, 0, up.stderr);
    const outcomes = json<Outcome[]>(up);
    assert.equal(outcomes.length, 100);
    assert.ok(outcomes.every((o) => o.status === "ok"), up.stdout);

    const counts = await signAndComplete(fx.sb.url, fx.bucket);
    assert.equal(counts.single, 0, "no file went through the single-file flow");
    assert.ok(counts.batch / 100 <= 0.2, `${counts.batch} requests for 100 files`);
    assert.equal(counts.batch, 8, "4 groups of 25: one signing and one completion each");

    const listed = json<{ objectKey: string; sha1: string; size: number }[]>(
      await fx.run(["object", "list", fx.bucket, "-o", "json"]),
    );
    assert.equal(listed.length, 100);
    for (const name of names) {
      const local = await sha1Of(path.join(dir, name));
      assert.equal(listed.find((o) => o.objectKey === `h/${name}`)?.sha1, local, name);
      assert.equal(outcomes.find((o) => o.objectKey === `h/${name}`)?.sha1, local, name);
    }
  } finally {
    await fx.close();
  }
});

Deno.test("batch: a file whose PUT fails is retried on its own and the batch succeeds", async () => {
  const fx = await objectFixture("batch-retry");
  try {
    const dir = path.join(fx.home.cwd, "some");
    const names = await smallFiles(dir, 30);
    await addFault(fx.sb.url, { method: "PUT", path: "/__s3/", status: 403, count: 1 });
    const up = await fx.run(["object", "upload", fx.bucket, dir, "--batch", "-o", "json"]);
    assert.equal(up.code, 0, up.stderr);
    const outcomes = json<Outcome[]>(up);
    assert.deepEqual(outcomes.map((o) => o.status), names.map(() => "ok"));
    for (const o of outcomes) assert.equal(o.sha1, await sha1Of(o.file), o.file);
    const counts = await signAndComplete(fx.sb.url, fx.bucket);
    assert.equal(counts.single, 2, "the failed item alone: one signing and one completion of its own");
    assert.equal(counts.batch, 4, "2 groups: 25 + 5 files");
  } finally {
    await fx.close();
  }
});

Deno.test("batch: a file that cannot be uploaded at all is reported alone with its exit code", async () => {
  const fx = await objectFixture("batch-fail");
  try {
    const dir = path.join(fx.home.cwd, "some");
    await smallFiles(dir, 10);
    await addFault(fx.sb.url, { method: "PUT", path: "/__s3/", status: 403, count: 1 });
    // Only the fallback of the failed item signs on its own: refuse that, for good.
    await addFault(fx.sb.url, { method: "GET", path: "glob:**/signeds3upload", status: 403 });
    const up = await fx.run(["object", "upload", fx.bucket, dir, "--batch", "-o", "json"]);
    const outcomes = json<Outcome[]>(up);
    const failed = outcomes.filter((o) => o.status === "failed");
    assert.equal(failed.length, 1, up.stdout);
    assert.equal(outcomes.filter((o) => o.status === "ok").length, 9);
    assert.ok(failed[0].exitCode && failed[0].exitCode > 0);
    assert.equal(up.code, failed[0].exitCode, up.stderr);
    assert.match(up.stderr, new RegExp(`failed: .*${failed[0].objectKey}`));
    assert.match(up.stderr, /Uploaded 9 of 10 files/);
    const listed = json<{ objectKey: string }[]>(await fx.run(["object", "list", fx.bucket, "-o", "json"]));
    assert.equal(listed.length, 9, "the failed file left no object");
  } finally {
    await fx.close();
  }
});
