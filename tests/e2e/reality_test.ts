/** e2e: the reality-capture family against a sandbox — a scene from create to delete, and refusals. */
import assert from "node:assert/strict";
import path from "node:path";
import { sandboxConfig } from "./md_helpers.ts";
import {
  addFault,
  assertOneError,
  assertUsageError,
  json,
  openSandboxHome,
  requestLog,
  type SandboxHome,
} from "./harness.ts";

const fixture = openSandboxHome({ DIAZO_POLL_BASE_MS: "20" });
let users = 2;
async function sandbox(): Promise<SandboxHome> {
  return await fixture;
}
async function done(): Promise<void> {
  if (--users === 0) await (await fixture).close();
}

/** Writes `n` distinct "photos" of `size` bytes into `dir` (under the home's working dir). */
async function photos(h: SandboxHome, dir: string, n: number, size = 64 * 1024): Promise<string[]> {
  await Deno.mkdir(path.join(h.home.cwd, dir), { recursive: true });
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const bytes = new Uint8Array(size).map((_, j) => (i * 31 + j * 7) % 251);
    const name = path.join(dir, `IMG_${i}.jpg`);
    await Deno.writeFile(path.join(h.home.cwd, name), bytes);
    names.push(name);
  }
  return names;
}

async function advanceClock(url: string, seconds: number): Promise<void> {
  const res = await fetch(`${url}/_sandbox/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ advance_seconds: seconds }),
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
}

type Uploaded = {
  uploaded: number;
  skipped: number;
  failed: number;
  photos: { status: string; file: string }[];
};

Deno.test("reality-capture: create -> upload (parallel, resumable) -> process -> status --wait -> result -> delete", async () => {
  const h = await sandbox();
  try {
    const created = await h.run([
      "reality-capture",
      "create",
      "--name",
      "Lion",
      "--format",
      "rcm,obj",
      "-o",
      "json",
    ]);
    assert.equal(created.code, 0, created.stderr);
    const scene = json<{ photosceneid: string; formats: string[] }>(created);
    assert.deepEqual(scene.formats, ["rcm", "obj"]);
    const id = scene.photosceneid;

    await photos(h, "shots", 5);
    await Deno.writeTextFile(path.join(h.home.cwd, "shots", "notes.txt"), "not a photo");
    const upArgs = [
      "reality-capture",
      "upload",
      id,
      "shots",
      "--per-request",
      "2",
      "--concurrency",
      "2",
      "-o",
      "json",
    ];
    // One request refused with 503 is sent again (with a fresh stream of its photos).
    await addFault(h.sb.url, { method: "POST", path: "/photo-to-3d/v1/file", status: 503, count: 1 });
    const up = await h.run(upArgs);
    assert.equal(up.code, 0, up.stderr);
    const first = json<Uploaded>(up);
    assert.deepEqual([first.uploaded, first.skipped, first.failed], [5, 0, 0]);
    assert.ok(first.photos.every((p) => p.file.endsWith(".jpg")), "only the JPEG files of the directory");
    const posts = await requestLog(h.sb.url, "/photo-to-3d/v1/file");
    assert.deepEqual(
      posts.map((e) => e.status).sort(),
      [200, 200, 200, 503],
      "5 photos, 2 per request, 1 retry",
    );
    // The sandbox stored every photo byte for byte (the multipart stream was read whole).
    const stored = [...Deno.readDirSync(path.join(h.sb.dataDir, "reality", id))]
      .map((e) => Deno.readFileSync(path.join(h.sb.dataDir, "reality", id, e.name)));
    const original = Deno.readFileSync(path.join(h.home.cwd, "shots", "IMG_3.jpg"));
    assert.equal(stored.length, 5);
    assert.ok(stored.some((b) => b.length === original.length && b.every((v, i) => v === original[i])));

    const again = json<Uploaded>(await h.run(upArgs));
    assert.deepEqual([again.uploaded, again.skipped], [0, 5], "a re-run skips what the scene has");
    assert.equal((await requestLog(h.sb.url, "/photo-to-3d/v1/file")).length, 4, "and sends nothing");
    await photos(h, "more", 1);
    const extra = json<Uploaded>(
      await h.run(["reality-capture", "upload", id, "shots", "more", "-o", "json"]),
    );
    assert.deepEqual([extra.uploaded, extra.skipped], [1, 5]);

    const early = await h.run(["reality-capture", "result", id, "--format", "obj", "--out", "out"]);
    assertOneError(early, 2, /not processed yet/, /status .* --wait/);

    // A long job on the sandbox clock: wall time passing while the test runs stays under 1%.
    await sandboxConfig(h.sb.url, { job_seconds: 1000 });
    const started = await h.run(["reality-capture", "process", id, "-o", "json"]);
    assert.equal(started.code, 0, started.stderr);
    const seen: string[] = [];
    const waited = await h.run(["reality-capture", "status", id, "--wait", "-o", "json"], {
      onStderr: (text) => {
        // The sandbox clock drives the scene: 0% -> 50% -> done, as each step is reported.
        if (text.includes("(0%)") && !seen.includes("0")) seen.push("0"), advanceClock(h.sb.url, 500);
        if (text.includes("(50%)") && !seen.includes("50")) seen.push("50"), advanceClock(h.sb.url, 600);
      },
    });
    assert.equal(waited.code, 0, waited.stderr);
    assert.match(waited.stderr, /Processing \(0%\)\n.*Processing \(50%\)\n.*DONE \(100%\)/s);
    assert.deepEqual(json(waited), {
      photosceneid: id,
      progressmsg: "DONE",
      progress: "100",
      percent: 100,
      done: true,
    });

    const result = await h.run([
      "reality-capture",
      "result",
      id,
      "--format",
      "obj",
      "--out",
      "out",
      "--output",
      "json",
    ]);
    assert.equal(result.code, 0, result.stderr);
    const got = json<{ file: string; size: number }>(result);
    assert.equal(got.file, path.join(h.home.cwd, "out", "Lion.obj"));
    const obj = await Deno.readTextFile(got.file);
    assert.match(obj, /^# Lion: .* 6 photos\n/);
    assert.equal(obj.match(/^f /gm)?.length, 6);
    assert.deepEqual([...Deno.readDirSync(path.join(h.home.cwd, "out"))].map((e) => e.name), ["Lion.obj"]);
    const twice = await h.run(["reality-capture", "result", id, "--format", "obj", "--out", "out"]);
    assertUsageError(twice, /already exists/);
    const fbx = await h.run(["reality-capture", "result", id, "--format", "fbx", "--out", "out"]);
    assertOneError(fbx, 2, /Format 'fbx' was not requested/);

    const before = (await requestLog(h.sb.url)).length;
    const unconfirmed = await h.run(["reality-capture", "delete", id]);
    assertOneError(unconfirmed, 2, /confirmation required/, /--yes/);
    assert.equal((await requestLog(h.sb.url)).length, before, "nothing deleted, no request");
    const deleted = await h.run(["reality-capture", "delete", id, "--yes", "-o", "json"]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(json(deleted), { photosceneid: id, deleted: true });
    const gone = await h.run(["reality-capture", "status", id]);
    assertOneError(gone, 4, new RegExp(`Photoscene not found: ${id}`));
  } finally {
    await done();
  }
});

Deno.test("reality-capture: too few photos, bad input before any request", async () => {
  const h = await sandbox();
  try {
    const few = await h.run([
      "reality-capture",
      "create",
      "--name",
      "Few",
      "--format",
      "obj,ortho",
      "-o",
      "json",
    ]);
    assert.match(few.stderr, /warning: ortho is a result of aerial scenes only: pass --scene-type aerial/);
    const id = json<{ photosceneid: string }>(few).photosceneid;
    const two = await photos(h, "two", 2);
    assert.equal((await h.run(["reality-capture", "upload", id, ...two])).code, 0);
    const process = await h.run(["reality-capture", "process", id]);
    assertOneError(
      process,
      2,
      /^error: Not enough images: a photoscene needs at least 3 images/,
      new RegExp(`reality-capture upload ${id}`),
    );

    const before = (await requestLog(h.sb.url)).length;
    assertUsageError(
      await h.run(["reality-capture", "upload", id, "missing.jpg"]),
      /File not found: missing\.jpg/,
    );
    assertUsageError(await h.run(["reality-capture", "status", "../x"]), /invalid photoscene id/);
    assertUsageError(
      await h.run(["reality-capture", "create", "--name", "x", "--format", "rcm,stl"]),
      /unknown output format 'stl'/,
    );
    assertUsageError(await h.run(["reality-capture", "upload", id, "shots-none"]), /File not found/);
    assertUsageError(
      await h.run(["reality-capture", "upload", id, ...two, "--per-request", "21"]),
      /--per-request must be at most 20/,
    );
    assert.equal((await requestLog(h.sb.url)).length, before, "bad input sends no request");

    const createHelp = await h.run(["reality-capture", "create", "--help"]);
    assert.match(createHelp.stdout, /\(default: rcm\)/);
    const help = await h.run(["reality-capture", "upload", "--help"]);
    assert.match(help.stdout, /Examples:\n.*diazo reality-capture upload/);
  } finally {
    await done();
  }
});
