/**
 * e2e: a batch upload of 1,050 files, then a listing that follows all 11 pages (its own file, so that
 * the longest object test runs beside the others rather than after them).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { diazo, json, requestLog } from "./harness.ts";
import { objectFixture } from "./object_helpers.ts";

Deno.test("batch upload of 1,050 files, then list follows all 11 pages with every key exactly once", async () => {
  const fx = await objectFixture();
  try {
    const dir = path.join(fx.home.cwd, "many");
    await Deno.mkdir(path.join(dir, "sub"), { recursive: true });
    const keys: string[] = [];
    for (let i = 0; i < 1050; i++) {
      const rel = i % 10 === 0
        ? `sub/f${String(i).padStart(4, "0")}.txt`
        : `f${String(i).padStart(4, "0")}.txt`;
      await Deno.writeTextFile(path.join(dir, rel), `file ${i}\n`);
      keys.push(`m/${rel}`);
    }
    const up = await diazo(
      [
        "object",
        "upload",
        fx.bucket,
        dir,
        "--batch",
        "--prefix",
        "m/",
        "--concurrency",
        "16",
        "--output",
        "json",
      ],
      { env: fx.env },
    );
    assert.equal(up.code, 0, up.stderr);
    const outcomes = json<{ status: string }[]>(up);
    assert.equal(outcomes.length, 1050);
    assert.ok(outcomes.every((o) => o.status === "ok"));
    assert.match(up.stderr, /Uploaded 1050 of 1050 files/);

    const list = await diazo(["object", "list", fx.bucket, "--output", "json"], { env: fx.env });
    assert.equal(list.code, 0, list.stderr);
    const listed = json<{ objectKey: string }[]>(list).map((o) => o.objectKey);
    assert.deepEqual(listed, [...keys].sort());
    const pages = (await requestLog(fx.sb.url, `/oss/v2/buckets/${fx.bucket}/objects`))
      .filter((e) => e.method === "GET" && e.path === `/oss/v2/buckets/${fx.bucket}/objects`);
    assert.equal(pages.length, 11, "100 per page: 11 pages");

    const limited = await diazo([
      "object",
      "list",
      fx.bucket,
      "--limit",
      "150",
      "--prefix",
      "m/sub/",
      "--output",
      "json",
    ], {
      env: fx.env,
    });
    assert.deepEqual(
      json<{ objectKey: string }[]>(limited).map((o) => o.objectKey),
      keys.filter((k) => k.startsWith("m/sub/")).sort().slice(0, 150),
    );
  } finally {
    await fx.close();
  }
});
