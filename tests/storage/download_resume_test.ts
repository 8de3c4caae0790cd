/**
 * Issue 14 items 11 and 17 (downloads): a part file left by an earlier run is continued with an
 * HTTP Range request; a failed or interrupted download leaves no part file unless --resume asked
 * to keep it; Ctrl-C exits 130 without one; `--out -` is standard output; a symlink inside the `--out`
 * directory is written through only when it resolves inside it.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { cliCommand, sandboxEnv } from "../e2e/harness.ts";
import { randomFile, sha1Of } from "../e2e/object_helpers.ts";
import { humanBytes } from "../../src/core/output_human.ts";
import { startFaultProxy } from "./_proxy.ts";
import { type StorageFixture, storageFixture } from "./_cli.ts";

const MiB = 1024 * 1024;

/** Part files (`.<name>.diazo.part*`) anywhere under `dir`. */
async function partFiles(dir: string): Promise<string[]> {
  return await Array.fromAsync(Deno.readDir(dir), (e) => e.name).then((n) =>
    n.filter((x) => x.includes(".part"))
  );
}

/** True for a GET of the emulated storage (a signed S3 download). */
function isStorageGet(req: Request): boolean {
  return req.method === "GET" && new URL(req.url).pathname.startsWith("/__s3/");
}

/** The first `limit` bytes of `res`, then a dropped connection (the promised length never comes). */
function cutAfter(res: Response, limit: number): Response {
  let sent = 0;
  const reader = res.body!.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      const { value, done } = await reader.read();
      if (done) return c.close();
      const room = limit - sent;
      if (value.length < room) {
        sent += value.length;
        return c.enqueue(value);
      }
      c.enqueue(value.subarray(0, room));
      await reader.cancel();
      // Ended short of the Content-Length it promised: a dropped connection to the client, and no
      // stack trace in the test's output (Deno.serve prints an errored body's error).
      c.close();
    },
  });
  return new Response(body, { status: res.status, headers: res.headers });
}

Deno.test("a cut download with --resume keeps its part file, and the next run goes on with a Range request", async () => {
  const f = await storageFixture("st-dl-resume");
  let cut = true;
  const ranges: (string | null)[] = [];
  const proxy = startFaultProxy(f.url, async (req, forward) => {
    if (!isStorageGet(req)) return undefined;
    ranges.push(req.headers.get("range"));
    const res = await forward(req);
    return cut ? cutAfter(res, 1 * MiB) : res;
  });
  try {
    const sha1 = await randomFile(`${f.home.cwd}/big.bin`, 8 * MiB);
    assert.equal((await f.run(["object", "upload", f.bucket, "big.bin", "--key", "k.bin"])).code, 0);
    const env = sandboxEnv(f.home, proxy.url);
    const out = `${f.home.cwd}/dl`;
    await Deno.mkdir(out);

    const plain = await f.run(["object", "download", f.bucket, "k.bin", "--out", "dl/"], env);
    assert.equal(plain.code, 5, plain.stderr);
    assert.deepEqual(await partFiles(out), [], "without --resume a failed download leaves nothing");

    const kept = await f.run(["object", "download", f.bucket, "k.bin", "--out", "dl/", "--resume"], env);
    assert.equal(kept.code, 5, kept.stderr);
    const [part] = (await partFiles(out)).filter((n) => n.endsWith(".part"));
    assert.ok(part, "the part file is kept with --resume");
    const partSize = (await Deno.stat(path.join(out, part))).size;
    // Three rounds of at most 1 MiB each, each going on from the last; bytes in flight when a stream is cut
    // may not reach the file (the next round asks for them again), so the part holds up to 3 MiB.
    assert.ok(
      partSize > 2 * MiB && partSize <= 3 * MiB,
      `three rounds, each going on from the last: ${partSize}`,
    );

    cut = false;
    ranges.length = 0;
    const done = await f.run(["object", "download", f.bucket, "k.bin", "--out", "dl/"], env);
    assert.equal(done.code, 0, done.stderr);
    assert.deepEqual(ranges, [`bytes=${partSize}-`], "only the rest is asked for");
    assert.match(
      done.stderr,
      new RegExp(
        `\\(8\\.0 MiB, ${
          humanBytes(partSize).replace(".", "\\.")
        } of it from an earlier run, SHA-1 verified\\)`,
      ),
    );
    assert.equal(await sha1Of(`${out}/k.bin`), sha1);
    assert.deepEqual(await partFiles(out), []);
  } finally {
    await proxy.close();
    await f.close();
  }
});

Deno.test("a part file written for another object is not continued", async () => {
  const f = await storageFixture("st-dl-stale");
  try {
    const sha1 = await randomFile(`${f.home.cwd}/a.bin`, 1 * MiB);
    assert.equal((await f.run(["object", "upload", f.bucket, "a.bin"])).code, 0);
    await Deno.mkdir(`${f.home.cwd}/dl`);
    await Deno.writeTextFile(`${f.home.cwd}/dl/.a.bin.diazo.part`, "stale bytes");
    await Deno.writeTextFile(
      `${f.home.cwd}/dl/.a.bin.diazo.part.json`,
      JSON.stringify({ size: 1, sha1: "0" }),
    );
    const r = await f.run(["object", "download", f.bucket, "a.bin", "--out", "dl/"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await sha1Of(`${f.home.cwd}/dl/a.bin`), sha1);
    assert.deepEqual(await partFiles(`${f.home.cwd}/dl`), []);
  } finally {
    await f.close();
  }
});

Deno.test("Ctrl-C during a download exits 130, leaves no part file, and its hint says so", async () => {
  const f = await storageFixture("st-dl-sigint");
  // Storage answers with half the object, then holds the connection open.
  const proxy = startFaultProxy(f.url, async (req, forward) => {
    if (!isStorageGet(req)) return undefined;
    const res = await forward(req);
    const reader = res.body!.getReader();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent >= 2 * MiB) return await new Promise<void>(() => {}); // stall
        const { value, done } = await reader.read();
        if (done) return c.close();
        sent += value.length;
        c.enqueue(value);
      },
      cancel: () => reader.cancel(),
    });
    return new Response(body, { status: res.status, headers: res.headers });
  });
  try {
    await randomFile(`${f.home.cwd}/big.bin`, 6 * MiB);
    assert.equal((await f.run(["object", "upload", f.bucket, "big.bin"])).code, 0);
    const child = new Deno.Command(Deno.execPath(), {
      args: cliCommand(["object", "download", f.bucket, "big.bin", "--out", "dl/"]),
      env: sandboxEnv(f.home, proxy.url),
      clearEnv: true,
      cwd: f.home.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const dl = `${f.home.cwd}/dl`;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const parts = await partFiles(dl).catch(() => []);
      const part = parts.find((n) => n.endsWith(".part"));
      if (part && (await Deno.stat(path.join(dl, part))).size > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok((await partFiles(dl)).length > 0, "the download was under way");
    child.kill("SIGINT");
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 130, stderr);
    assert.deepEqual(await partFiles(dl), []);
    // The part file is gone: the hint must not promise that a new run continues from it.
    assert.match(stderr, /^hint: The partial download was removed: run the command again to start over\.$/m);
    assert.doesNotMatch(stderr, /continue/);
  } finally {
    await proxy.close();
    await f.close();
  }
});

/** `object download <bucket> <key> --out -` in a process of its own: its stdout bytes and stderr; it must succeed. */
async function downloadToStdout(f: StorageFixture, key: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: cliCommand(["object", "download", f.bucket, key, "--out", "-"]),
    env: f.env,
    clearEnv: true,
    cwd: f.home.cwd,
    stdin: "null",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  return { out, stderr };
}

Deno.test("--out - writes the object to standard output and no file named -", async () => {
  const f = await storageFixture("st-dl-stdout");
  try {
    await Deno.writeTextFile(`${f.home.cwd}/m.obj`, "o model\nv 1 2 3\n");
    assert.equal((await f.run(["object", "upload", f.bucket, "m.obj"])).code, 0);
    await Deno.remove(`${f.home.cwd}/m.obj`);
    const { out, stderr } = await downloadToStdout(f, "m.obj");
    assert.equal(new TextDecoder().decode(out.stdout), "o model\nv 1 2 3\n");
    assert.match(stderr, /to standard output \(16 B, SHA-1 verified\)/);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(f.home.cwd), (e) => e.name), []);
  } finally {
    await f.close();
  }
});

Deno.test("--out - streams a multi-MiB object to standard output byte for byte through the reused read buffer", async () => {
  const f = await storageFixture("st-dl-stdout-big");
  try {
    // Several reads of the 1 MiB buffer, the last one short: a piece lost, repeated or overwritten shows.
    const bytes = new Uint8Array(3 * 1024 * 1024 + 17);
    for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
    await Deno.writeFile(`${f.home.cwd}/big.bin`, bytes);
    assert.equal((await f.run(["object", "upload", f.bucket, "big.bin"])).code, 0);
    const { out, stderr } = await downloadToStdout(f, "big.bin");
    assert.equal(out.stdout.length, bytes.length);
    const digest = async (b: Uint8Array<ArrayBuffer>) =>
      new Uint8Array(await crypto.subtle.digest("SHA-1", b));
    assert.deepEqual(await digest(out.stdout), await digest(bytes));
    assert.match(
      stderr,
      new RegExp(`to standard output \\(${humanBytes(bytes.length).replace(".", "\\.")}, SHA-1 verified\\)`),
    );
  } finally {
    await f.close();
  }
});

Deno.test("a symlink inside the -o directory is written through only when it resolves inside it", async () => {
  const f = await storageFixture("st-dl-link");
  try {
    await Deno.writeTextFile(`${f.home.cwd}/m.obj`, "o model\n");
    assert.equal((await f.run(["object", "upload", f.bucket, "m.obj", "--key", "sub/m.obj"])).code, 0);
    const outside = await Deno.makeTempDir();
    const dl = `${f.home.cwd}/dl`;
    await Deno.mkdir(`${dl}/real`, { recursive: true });
    try {
      await Deno.symlink(outside, `${dl}/sub`);
      const refused = await f.run(["object", "download", f.bucket, "sub/m.obj", "--out", "dl/", "--force"]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(
        refused.stderr,
        /^error: refusing to write 'sub\/m\.obj' outside .*: a symlink in it leads to /m,
      );
      assert.deepEqual(await Array.fromAsync(Deno.readDir(outside)), [], "nothing written outside");

      await Deno.remove(`${dl}/sub`);
      await Deno.symlink(`${dl}/real`, `${dl}/sub`);
      const inside = await f.run(["object", "download", f.bucket, "sub/m.obj", "--out", "dl/"]);
      assert.equal(inside.code, 0, inside.stderr);
      assert.equal(await Deno.readTextFile(`${dl}/real/m.obj`), "o model\n");
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  } finally {
    await f.close();
  }
});

/** The first `limit` bytes of `res`, then a clean end: a body that stops short without an error. */
function endAfter(res: Response, limit: number): Response {
  const reader = res.body!.getReader();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      const { value, done } = await reader.read();
      if (done || sent >= limit) {
        await reader.cancel();
        return c.close();
      }
      const piece = value.subarray(0, Math.min(value.length, limit - sent));
      sent += piece.length;
      c.enqueue(piece);
    },
  });
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return new Response(body, { status: res.status, headers });
}

Deno.test("a body that ends short without an error is a cut stream: the download goes on with a Range request", async () => {
  const f = await storageFixture("st-dl-short");
  let first = true;
  const ranges: (string | null)[] = [];
  const proxy = startFaultProxy(f.url, async (req, forward) => {
    if (!isStorageGet(req)) return undefined;
    ranges.push(req.headers.get("range"));
    const res = await forward(req);
    if (!first) return res;
    first = false;
    return endAfter(res, 1 * MiB);
  });
  try {
    const sha1 = await randomFile(`${f.home.cwd}/short.bin`, 4 * MiB);
    assert.equal((await f.run(["object", "upload", f.bucket, "short.bin"])).code, 0);
    const env = sandboxEnv(f.home, proxy.url);
    const r = await f.run(["object", "download", f.bucket, "short.bin", "--out", "got.bin"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await sha1Of(`${f.home.cwd}/got.bin`), sha1);
    assert.deepEqual(ranges, [null, `bytes=${1 * MiB}-`]);
  } finally {
    await proxy.close();
    await f.close();
  }
});
