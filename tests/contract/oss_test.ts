/** Contract of oss.yaml: buckets, objects, direct-to-S3 uploads and downloads, signed resources. */

import assert from "node:assert/strict";
import { bytesOf, expect, runPlan, type Session, type World } from "./contract.ts";

const SCOPES = "bucket:create bucket:read bucket:delete data:read data:write data:create";

// Signed resources are public: the URL is the credential, so they are called without a token.

/** The hash of a signed resource URL the sandbox handed out. */
function hashOf(s: Session, url: string): string {
  assert.ok(url.startsWith(`${s.sb.url}/oss/v2/signedresources/`), url);
  return new URL(url).pathname.split("/").at(-1)!;
}

/** 25 object keys: the most one batch request names, as real clients fill it. */
const BATCH_KEYS = Array.from({ length: 25 }, (_, i) => `batch/${i}.txt`);

Deno.test("contract: oss.yaml", async () => {
  // The world holds path parameters (strings); a batch's upload keys are kept beside it.
  const batchUploadKeys: Record<string, string> = {};
  await runPlan<World>({
    file: "oss/oss.yaml",
    setup: async (s) => ({
      t: await s.appToken(SCOPES),
      bucketKey: "contract-oss",
      objectKey: "a/b.txt",
      newObjKey: "copy.txt",
    }),
    ops: {
      "POST /oss/v2/buckets": async (s, w) => {
        const op = "POST /oss/v2/buckets";
        await expect(s, w, op, 200, { json: { bucketKey: w.bucketKey, policyKey: "transient" } });
        await expect(s, w, op, 200, { json: { bucketKey: "contract-gone", policyKey: "persistent" } });
        await expect(s, w, op, 409, { json: { bucketKey: w.bucketKey, policyKey: "transient" } });
        await expect(s, w, op, 400, { json: { bucketKey: "Bad Key", policyKey: "transient" } });
      },
      "GET /oss/v2/buckets": async (s, w) => {
        await expect(s, w, "GET /oss/v2/buckets", 200, { query: "?limit=1" });
        assert.equal((await s.call("GET /oss/v2/buckets", "/oss/v2/buckets")).status, 401);
      },
      "GET /oss/v2/buckets/{bucketKey}/details": async (s, w) => {
        await expect(s, w, "GET /oss/v2/buckets/{bucketKey}/details", 200);
        const none = { bucketKey: "contract-none" };
        await expect(s, w, "GET /oss/v2/buckets/{bucketKey}/details", 404, { params: none });
      },
      "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload": async (s, w) => {
        const a = await expect(
          s,
          w,
          "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload",
          200,
        );
        assert.equal((await s.send("PUT", a.json.urls[0], { body: bytesOf("contract bytes") })).status, 200);
        w.uploadKey = a.json.uploadKey;
      },
      "POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload": async (s, w) => {
        await expect(s, w, "POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload", 200, {
          json: { uploadKey: w.uploadKey },
          headers: { "x-ads-meta-Content-Type": "text/plain" },
        });
      },
      "GET /oss/v2/buckets/{bucketKey}/objects": async (s, w) => {
        const a = await expect(s, w, "GET /oss/v2/buckets/{bucketKey}/objects", 200, { query: "?limit=10" });
        assert.equal(a.json.items.length, 1);
      },
      "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/details": async (s, w) => {
        const op = "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/details";
        await expect(s, w, op, 200);
        await expect(s, w, op, 200, { query: "?with=createdDate" });
        await expect(s, w, op, 404, { params: { objectKey: "none" } });
      },
      "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3download": async (s, w) => {
        await expect(s, w, "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3download", 200);
      },
      "PUT /oss/v2/buckets/{bucketKey}/objects/{objectKey}/copyto/{newObjKey}": async (s, w) => {
        await expect(s, w, "PUT /oss/v2/buckets/{bucketKey}/objects/{objectKey}/copyto/{newObjKey}", 200);
      },
      "POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signed": async (s, w) => {
        const op = "POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signed";
        const read = await expect(s, w, op, 200, { query: "?access=Read", json: { minutesExpiration: 30 } });
        const readWrite = await expect(s, w, op, 200, { query: "?access=ReadWrite", json: {} });
        w.readHash = hashOf(s, read.json.signedUrl);
        w.hash = hashOf(s, readWrite.json.signedUrl);
      },
      "GET /oss/v2/signedresources/{hash}": async (s, w) => {
        const op = "GET /oss/v2/signedresources/{hash}";
        await expect(s, w, op, 200, { token: undefined, params: { hash: w.readHash }, query: "?region=US" });
        await expect(s, w, op, 206, {
          token: undefined,
          params: { hash: w.readHash },
          headers: { range: "bytes=0-3" },
        });
      },
      "PUT /oss/v2/signedresources/{hash}": async (s, w) => {
        await expect(s, w, "PUT /oss/v2/signedresources/{hash}", 200, {
          token: undefined,
          body: bytesOf("new bytes"),
        });
      },
      "DELETE /oss/v2/signedresources/{hash}": async (s, w) => {
        await expect(s, w, "DELETE /oss/v2/signedresources/{hash}", 200, { token: undefined });
      },
      "PUT /oss/v2/signedresources/{hash}/resumable": {
        notServed:
          "resumable uploads to a signed resource are not emulated (diazo uploads through signeds3upload)",
      },
      "POST /oss/v2/buckets/{bucketKey}/objects/batchsigneds3upload": async (s, w) => {
        const op = "POST /oss/v2/buckets/{bucketKey}/objects/batchsigneds3upload";
        const a = await expect(s, w, op, 200, {
          json: { requests: BATCH_KEYS.map((objectKey) => ({ objectKey })) },
        });
        for (const key of BATCH_KEYS) {
          const put = await s.send("PUT", a.json.results[key].urls[0], { body: bytesOf(`batch ${key}`) });
          assert.equal(put.status, 200);
        }
        for (const key of BATCH_KEYS) batchUploadKeys[key] = a.json.results[key].uploadKey;
        const tooMany = [...BATCH_KEYS, "one-more"].map((objectKey) => ({ objectKey }));
        await expect(s, w, op, 400, { json: { requests: tooMany } });
      },
      "POST /oss/v2/buckets/{bucketKey}/objects/batchcompleteupload": async (s, w) => {
        const a = await expect(s, w, "POST /oss/v2/buckets/{bucketKey}/objects/batchcompleteupload", 200, {
          json: {
            requests: BATCH_KEYS.map((objectKey) => ({ objectKey, uploadKey: batchUploadKeys[objectKey] })),
          },
        });
        assert.ok(BATCH_KEYS.every((k) => a.json.results[k].status === undefined), JSON.stringify(a.json));
      },
      "POST /oss/v2/buckets/{bucketKey}/objects/batchsigneds3download": async (s, w) => {
        const requests = [...BATCH_KEYS, "missing"].slice(1).map((objectKey) => ({ objectKey }));
        const a = await expect(s, w, "POST /oss/v2/buckets/{bucketKey}/objects/batchsigneds3download", 200, {
          json: { requests },
        });
        assert.equal(a.json.results.missing.status, "error");
      },
      "DELETE /oss/v2/buckets/{bucketKey}/objects/{objectKey}": async (s, w) => {
        await expect(s, w, "DELETE /oss/v2/buckets/{bucketKey}/objects/{objectKey}", 200);
      },
      "DELETE /oss/v2/buckets/{bucketKey}": async (s, w) => {
        await expect(s, w, "DELETE /oss/v2/buckets/{bucketKey}", 200, {
          params: { bucketKey: "contract-gone" },
        });
      },
    },
  });
});
