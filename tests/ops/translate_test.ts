/** ops/translate.ts: the one wait (failures as errors or as answers), downloads, the default model view. */
import assert from "node:assert/strict";
import { parseUrn } from "../../src/aps/urn.ts";
import { isDiazoError } from "../../src/core/errors.ts";
import {
  runTranslateDownload,
  runTranslateProperties,
  runTranslateStart,
  runTranslateStatus,
  runTranslateViews,
} from "../../src/families/translate/verbs.ts";
import { createBucket, CUBE_OBJ, sandboxConfig, sandboxToken, uploadObject } from "../e2e/md_helpers.ts";
import { type OpsWorld, withOpsDeps } from "./helpers.ts";

/** Uploads `bytes` as `key` into a bucket of the sandbox (instant jobs) and returns its checked URN. */
async function design(w: OpsWorld, key: string, bytes: Uint8Array | string) {
  const token = await sandboxToken(w.sb.url);
  await createBucket(w.sb.url, token, "ops-md");
  await sandboxConfig(w.sb.url, { job_seconds: 0 });
  return parseUrn((await uploadObject(w.sb.url, token, "ops-md", key, bytes)).urn);
}

Deno.test("ops translate: start, wait with progress, then download the obj derivatives", async () => {
  await withOpsDeps(async (w) => {
    const { urn, objectId } = await design(w, "cube.obj", CUBE_OBJ);
    const { existed } = await runTranslateStart({ urn, formats: [{ type: "obj" }] }, w.deps);
    assert.equal(existed, false);
    const seen: string[] = [];
    const manifest = await runTranslateStatus({
      urn,
      wait: { timeoutMs: 30_000, onProgress: (m) => seen.push(m.status) },
    }, w.deps);
    assert.equal(manifest.status, "success");
    assert.equal(seen.at(-1), "success");

    const dir = `${w.home.dir}/out`;
    const done = await runTranslateDownload({ urn, objectId, dir, outputType: "obj", manifest }, w.deps);
    assert.equal(done.exitCode, 0);
    assert.ok(done.rows.length > 0 && done.rows.every((r) => r.ok && r.file?.startsWith(dir)));
    assert.equal(done.bytes, done.rows.reduce((n, r) => n + (r.size ?? 0), 0));
    assert.ok((await Deno.stat(done.rows[0].file!)).size > 0);

    await assert.rejects(
      () => runTranslateDownload({ urn, objectId, dir, outputType: "stl" }, w.deps),
      (e) =>
        isDiazoError(e) && e.exitCode === 4 &&
        /downloadable stl derivatives .*output types: obj/.test(e.message),
    );
  });
});

Deno.test("ops translate: a failed job is the translation_failed error, or the answer when asked", async () => {
  await withOpsDeps(async (w) => {
    const garbage = new Uint8Array(4096);
    crypto.getRandomValues(garbage);
    const { urn } = await design(w, "broken.obj", garbage);
    await runTranslateStart({ urn, formats: [{ type: "obj" }] }, w.deps);
    await assert.rejects(
      () => runTranslateStatus({ urn, wait: { timeoutMs: 30_000 } }, w.deps),
      (e) => isDiazoError(e) && e.code === "translation_failed",
    );
    const answer = await runTranslateStatus(
      { urn, wait: { timeoutMs: 30_000 }, endedIsAnswer: true },
      w.deps,
    );
    assert.equal(answer.status, "failed");
  });
});

Deno.test("ops translate: properties without a guid read the master 3D view", async () => {
  await withOpsDeps(async (w) => {
    const { urn } = await design(w, "cube.obj", CUBE_OBJ);
    await runTranslateStart({ urn, formats: [{ type: "svf2", views: ["2d", "3d"] }] }, w.deps);
    await runTranslateStatus({ urn, wait: { timeoutMs: 30_000 } }, w.deps);
    const views = await runTranslateViews({ urn }, w.deps);
    const master = views.find((v) => v.role === "3d" && v.isMasterView) ?? views.find((v) => v.role === "3d");
    assert.ok(master, JSON.stringify(views));
    const { guid, data } = await runTranslateProperties({ urn, timeoutMs: 30_000 }, w.deps);
    assert.equal(guid, master.guid);
    assert.ok((data as { data?: { collection?: unknown[] } }).data?.collection?.length);
  });
});
