/**
 * OSS batch operations as real clients send them: 25 objects per request (signed upload URLs,
 * completion, signed download URLs), per-item results inside a 200, and the 25-item limit.
 */
import assert from "node:assert/strict";
import { api, withSandbox } from "./helpers.ts";
import { bucketWithToken, patternBytes, putToUrl } from "./object_helpers.ts";

const BUCKET = "batch-b1";
const OBJECTS = `/oss/v2/buckets/${BUCKET}/objects`;
const KEYS = Array.from({ length: 25 }, (_, i) => `dir/part ${i}.bin`);

Deno.test("oss batch: 25 objects uploaded, completed and signed for download in one request each", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, BUCKET);
    const signed = await api(sb, "POST", `${OBJECTS}/batchsigneds3upload?minutesExpiration=10`, t, {
      requests: KEYS.map((objectKey) => ({ objectKey })),
    });
    assert.equal(signed.status, 200, JSON.stringify(signed.json));
    assert.deepEqual(Object.keys(signed.json.results).sort(), [...KEYS].sort());
    const bytes = KEYS.map((_, i) => patternBytes(100 + i, i + 1));
    for (const [i, key] of KEYS.entries()) {
      const r = signed.json.results[key];
      assert.equal(r.urls.length, 1);
      assert.equal((await putToUrl(r.urls[0], bytes[i])).status, 200);
    }

    const completed = await api(sb, "POST", `${OBJECTS}/batchcompleteupload`, t, {
      requests: KEYS.map((objectKey) => ({
        objectKey,
        uploadKey: signed.json.results[objectKey].uploadKey,
        "x-ads-meta-Content-Type": "application/octet-stream",
      })),
    });
    assert.equal(completed.status, 200, JSON.stringify(completed.json));
    for (const [i, key] of KEYS.entries()) {
      const r = completed.json.results[key];
      assert.equal(r.status, undefined, `${key}: ${JSON.stringify(r)}`);
      assert.equal(r.size, bytes[i].length);
      assert.equal(r.objectKey, key);
    }

    const downloads = await api(sb, "POST", `${OBJECTS}/batchsigneds3download`, t, {
      requests: [...KEYS.map((objectKey) => ({ objectKey }))],
    });
    assert.equal(downloads.status, 200);
    for (const [i, key] of KEYS.entries()) {
      const r = downloads.json.results[key];
      assert.equal(r.status, "complete");
      const got = new Uint8Array(await (await fetch(r.url)).arrayBuffer());
      assert.deepEqual(got, bytes[i], key);
    }
  });
});

Deno.test("oss batch: a missing object is an error result inside the 200; over 25 items or no list is 400", async () => {
  await withSandbox(async (sb) => {
    const t = await bucketWithToken(sb, BUCKET);
    const mixed = await api(sb, "POST", `${OBJECTS}/batchsigneds3download`, t, {
      requests: [{ objectKey: "nope" }],
    });
    assert.equal(mixed.status, 200);
    assert.deepEqual(mixed.json.results.nope, { status: "error", reason: "Object not found" });
    const stale = await api(sb, "POST", `${OBJECTS}/batchcompleteupload`, t, {
      requests: [{ objectKey: "a", uploadKey: "no-such-upload" }],
    });
    assert.equal(stale.status, 200);
    assert.equal(stale.json.results.a.status, "error");

    const tooMany = Array.from({ length: 26 }, (_, i) => ({ objectKey: `k${i}` }));
    for (const op of ["batchsigneds3upload", "batchcompleteupload", "batchsigneds3download"]) {
      const over = await api(sb, "POST", `${OBJECTS}/${op}`, t, { requests: tooMany });
      assert.equal(over.status, 400, op);
      assert.match(over.json.reason, /at most 25/);
      assert.equal((await api(sb, "POST", `${OBJECTS}/${op}`, t, {})).status, 400, op);
    }
    const readOnly = await api(sb, "POST", `${OBJECTS}/batchsigneds3upload`, undefined, {
      requests: [{ objectKey: "a" }],
    });
    assert.equal(readOnly.status, 401);
  });
});
