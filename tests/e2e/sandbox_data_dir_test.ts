/**
 * e2e: `diazo sandbox --data-dir` as a process. Buckets, objects (one multipart), a folder, an issue
 * and a webhook made, then the process SIGKILLed while a part is streaming in; restarted on the
 * same directory, everything finished before the kill is there with its SHA-1, the interrupted
 * upload goes on and completes, and nothing half-written remains.
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { api, control, type SandboxAt, token } from "../sandbox/helpers.ts";
import { login } from "../sandbox/oauth_helpers.ts";
import {
  completeUpload,
  downloadObject,
  filesUnder,
  MIB5,
  OBJECT_SCOPES,
  patternBytes,
  putToUrl,
  sha1Hex,
  signedUploadUrls,
  uploadObject,
} from "../sandbox/object_helpers.ts";
import { makeFolder, makeHook, makeIssue, seededProject } from "../sandbox/world_helpers.ts";
import { makeHome, spawnSandboxProcess, type TestHome } from "./harness.ts";

/** A sandbox process on `dataDir`: its base URL once it serves. */
function start(home: TestHome, dataDir: string): Promise<{ child: Deno.ChildProcess; url: string }> {
  return spawnSandboxProcess(home, ["sandbox", "--port", "0", "--data-dir", dataDir]);
}

/** Resolves once a part file of part `n` has some bytes on disk under `dir`. */
async function partStreaming(dir: string, n: number): Promise<void> {
  for (;;) {
    for (const f of await filesUnder(dir)) {
      if (basename(f).startsWith(`${n}.`) && (await Deno.stat(join(dir, f))).size > 0) return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("sandbox --data-dir: SIGKILL mid-upload, restart, everything finished is there", async () => {
  const home = await makeHome();
  const dataDir = join(home.dir, "data");
  const first = await start(home, dataDir);
  const sb: SandboxAt = { url: first.url };
  const small = patternBytes(1000, 1);
  const [partA, partB] = [patternBytes(MIB5, 2), patternBytes(4096, 3)];
  const interrupted = [patternBytes(MIB5, 4), patternBytes(MIB5, 5), patternBytes(777, 6)];
  let t: string, folder: string, issue: string, hook: string, uploadKey: string;
  let second: { child: Deno.ChildProcess; url: string } | undefined;
  try {
    t = await token(sb, OBJECT_SCOPES);
    for (const bucketKey of ["kept-alpha", "kept-beta"]) {
      assert.equal(
        (await api(sb, "POST", "/oss/v2/buckets", t, { bucketKey, policyKey: "persistent" })).status,
        200,
      );
    }
    await uploadObject(sb, t, "kept-alpha", "small.bin", small);
    const multi = await signedUploadUrls(sb, t, "kept-beta", "multi.bin", "?parts=2");
    assert.equal((await putToUrl(multi.urls[0], partA)).status, 200);
    assert.equal((await putToUrl(multi.urls[1], partB)).status, 200);
    assert.equal(
      (await completeUpload(sb, t, "kept-beta", "multi.bin", { uploadKey: multi.uploadKey })).status,
      200,
    );
    folder = await makeFolder(sb, "Survives");
    issue = await makeIssue(sb, "Survives a restart");
    hook = await makeHook(sb, "http://127.0.0.1:9/hook");

    // The interrupted upload: part 1 in, part 2 streaming when the process dies.
    const open = await signedUploadUrls(sb, t, "kept-beta", "resumed.bin", "?parts=3");
    uploadKey = open.uploadKey;
    assert.equal((await putToUrl(open.urls[0], interrupted[0])).status, 200);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(interrupted[1].subarray(0, 1024 * 1024)); // then nothing more: the kill comes first
      },
    });
    const streaming = fetch(open.urls[1], { method: "PUT", body }).catch(() => undefined);
    await partStreaming(join(dataDir, "uploads"), 2);
    first.child.kill("SIGKILL");
    await first.child.status;
    await streaming;

    second = await start(home, dataDir);
    const again: SandboxAt = { url: second.url };
    // A token from before the kill still works: the signing key is kept too.
    const alpha = await api(again, "GET", "/oss/v2/buckets/kept-alpha/details", t);
    assert.equal(alpha.status, 200, JSON.stringify(alpha.json));
    const state = (await control(again, "GET", "state")).json;
    assert.deepEqual(state.buckets.map((b: { bucketKey: string }) => b.bucketKey), [
      "kept-alpha",
      "kept-beta",
    ]);
    assert.equal(state.objects.count, 2, "the two finished objects, not the interrupted one");
    assert.equal(sha1Hex((await downloadObject(again, t, "kept-alpha", "small.bin"))!), sha1Hex(small));
    assert.equal(sha1Hex((await downloadObject(again, t, "kept-beta", "multi.bin"))!), sha1Hex(partA, partB));
    const details = await api(again, "GET", "/oss/v2/buckets/kept-beta/objects/multi.bin/details", t);
    assert.equal(details.json.sha1, sha1Hex(partA, partB), "the recorded SHA-1 is the bytes'");
    const { projectId } = seededProject();
    const f = await api(
      again,
      "GET",
      `/data/v1/projects/${projectId}/folders/${encodeURIComponent(folder)}`,
      t,
    );
    assert.equal(f.status, 200);
    assert.equal(f.json.data.attributes.name, "Survives");
    const u = (await login(again, "data:read")).access_token;
    const i = await api(
      again,
      "GET",
      `/construction/issues/v1/projects/${projectId.slice(2)}/issues/${issue}`,
      u,
    );
    assert.equal(i.status, 200);
    assert.equal(i.json.title, "Survives a restart");
    const h = await api(again, "GET", `/webhooks/v1/systems/data/events/dm.folder.added/hooks/${hook}`, t);
    assert.equal(h.status, 200);

    // The interrupted upload goes on from part 2 with the same upload key.
    const more = await signedUploadUrls(
      again,
      t,
      "kept-beta",
      "resumed.bin",
      `?uploadKey=${uploadKey}&firstPart=2&parts=2`,
    );
    assert.equal((await putToUrl(more.urls[0], interrupted[1])).status, 200);
    assert.equal((await putToUrl(more.urls[1], interrupted[2])).status, 200);
    const done = await completeUpload(again, t, "kept-beta", "resumed.bin", { uploadKey });
    assert.equal(done.status, 200, JSON.stringify(done.json));
    assert.equal(
      sha1Hex((await downloadObject(again, t, "kept-beta", "resumed.bin"))!),
      sha1Hex(...interrupted),
    );
    // Nothing half-written: no upload parts remain, and every object folder belongs to an object.
    assert.deepEqual(await filesUnder(join(dataDir, "uploads")), [], "no part files remain");
    const folders = new Set((await filesUnder(join(dataDir, "objects"))).map((f) => f.split("/")[0]));
    assert.equal(folders.size, 3, "one object folder per object");
  } finally {
    for (const c of [first.child, second?.child]) {
      try {
        c?.kill("SIGKILL");
      } catch { /* gone */ }
      await c?.status;
    }
    await home.cleanup();
  }
});
