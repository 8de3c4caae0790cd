/**
 * Issue 18 item 2, the download half: `object download` of several keys or a prefix signs 25 objects
 * per `batchsigneds3download` (no per-object signing), writes each under its key, and keeps the
 * single download's checks — a corrupted object fails alone with its part file removed, a missing
 * key fails alone (exit 4), an existing file is not overwritten without --force, bad input sends nothing.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { requestLog, sandboxEnv } from "../e2e/harness.ts";
import { startFaultProxy } from "./_proxy.ts";
import { storageFixture } from "./_cli.ts";

type Row = {
  status: string;
  objectKey: string;
  file: string;
  size?: number;
  error?: string;
  exitCode?: number;
};

const rows = (stdout: string) => JSON.parse(stdout) as Row[];

Deno.test("download of a prefix: 25 signed per request, every object written under its key, checks kept", async () => {
  // long: one sandbox and bucket for the whole story (prefix, corruption, missing key, overwrite, bad input)
  const f = await storageFixture("st-batch-download");
  try {
    const src = path.join(f.home.cwd, "src");
    await Deno.mkdir(path.join(src, "sub"), { recursive: true });
    for (let i = 0; i < 30; i++) {
      await Deno.writeTextFile(path.join(src, `f${i}.txt`), `file ${i}\n`.repeat(i + 1));
    }
    await Deno.writeTextFile(path.join(src, "sub", "deep.txt"), "deep\n");
    const up = await f.run([
      "object",
      "upload",
      f.bucket,
      "src",
      "--batch",
      "--prefix",
      "p/",
      "--output",
      "json",
    ]);
    assert.equal(up.code, 0, up.stderr);

    const prefixTo = (dir: string, env = f.env) =>
      f.run(["object", "download", f.bucket, "--prefix", "p/", "--out", dir, "--output", "json"], env);
    const before = (await requestLog(f.url)).length;
    const r = await prefixTo("out");
    assert.equal(r.code, 0, r.stderr);
    const got = rows(r.stdout);
    assert.equal(got.length, 31);
    assert.ok(got.every((o) => o.status === "ok"), r.stdout);
    assert.match(r.stderr, /Downloaded 31 of 31 objects .*SHA-1 verified/);
    for (let i = 0; i < 30; i++) {
      assert.equal(
        await Deno.readTextFile(path.join(f.home.cwd, "out", "p", `f${i}.txt`)),
        `file ${i}\n`.repeat(i + 1),
      );
    }
    assert.equal(await Deno.readTextFile(path.join(f.home.cwd, "out", "p", "sub", "deep.txt")), "deep\n");
    const log = (await requestLog(f.url)).slice(before);
    assert.equal(
      log.filter((e) => e.path.endsWith("/batchsigneds3download")).length,
      2,
      "31 objects, 2 batches",
    );
    assert.equal(log.filter((e) => e.path.endsWith("/signeds3download")).length, 0, "no per-object signing");

    // Without --force, files already there are not overwritten: each is its own failure (usage, exit 2).
    const again = await f.run([
      "object",
      "download",
      f.bucket,
      "p/f1.txt",
      "p/f2.txt",
      "--out",
      "out",
      "--output",
      "json",
    ]);
    assert.equal(again.code, 2);
    assert.ok(rows(again.stdout).every((o) => o.status === "failed" && /already exists/.test(o.error ?? "")));

    // A missing key fails alone (not found, exit 4); the named others are written.
    const named = await f.run([
      "object",
      "download",
      f.bucket,
      "p/f3.txt",
      "p/nope.txt",
      "p/f4.txt",
      "--out",
      "named",
      "--output",
      "json",
    ]);
    assert.equal(named.code, 4, named.stderr);
    assert.deepEqual(rows(named.stdout).map((o) => o.status), ["ok", "failed", "ok"]);
    assert.match(rows(named.stdout)[1].error ?? "", /not found/i);

    // One object corrupted on its way: that one fails the SHA-1 check, nothing of it is left.
    let corrupted = 0;
    const proxy = startFaultProxy(f.url, async (req, forward) => {
      if (req.method !== "GET" || !new URL(req.url).pathname.startsWith("/__s3/") || corrupted > 0) {
        return undefined;
      }
      corrupted++;
      const res = await forward(req);
      const bytes = new Uint8Array(await res.arrayBuffer());
      bytes[0] ^= 0xff;
      return new Response(bytes, { status: res.status, headers: res.headers });
    });
    try {
      const bad = await prefixTo("again", sandboxEnv(f.home, proxy.url));
      const failed = rows(bad.stdout).filter((o) => o.status === "failed");
      assert.equal(failed.length, 1, bad.stdout);
      assert.match(failed[0].error ?? "", /Integrity check failed/);
      assert.equal(bad.code, failed[0].exitCode);
      const leftovers = [...Deno.readDirSync(path.dirname(failed[0].file))].map((e) => e.name);
      assert.ok(!leftovers.some((n) => n.startsWith(path.basename(failed[0].file))), leftovers.join(", "));
    } finally {
      await proxy.close();
    }

    // Bad input: no key and no prefix is a usage error before any request.
    const count = (await requestLog(f.url)).length;
    const none = await f.run(["object", "download", f.bucket]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^error: name an object key, or --prefix/m);
    assert.equal((await requestLog(f.url)).length, count, "no request sent");
  } finally {
    await f.close();
  }
});
