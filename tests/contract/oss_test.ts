/** Contract of oss.yaml: buckets, objects, direct-to-S3 uploads and downloads, signed resources. */

import assert from "node:assert/strict";
import { type Answer, bytesOf, runPlan, type Session } from "./contract.ts";

const SCOPES = "bucket:create bucket:read bucket:delete data:read data:write data:create";
const BUCKET = "contract-oss";
const OBJECT = `/oss/v2/buckets/${BUCKET}/objects/${encodeURIComponent("a/b.txt")}`;

/** The path and query of a URL the sandbox handed out. */
function local(s: Session, url: string): string {
  assert.ok(url.startsWith(s.sb.url), url);
  return url.slice(s.sb.url.length);
}

/** The signed resources made by the `signed` step, for the steps on them. */
const signed: { read?: Answer; readWrite?: Answer } = {};

Deno.test("contract: oss.yaml", async () => {
  await runPlan({
    file: "oss/oss.yaml",
    setup: async (s) => ({ t: await s.appToken(SCOPES) }),
    ops: {
      "POST /oss/v2/buckets": async (s, { t }) => {
        const op = "POST /oss/v2/buckets";
        for (const bucketKey of [BUCKET, "contract-gone"]) {
          const a = await s.call(op, "/oss/v2/buckets", {
            token: t,
            json: { bucketKey, policyKey: "transient" },
          });
          assert.equal(a.status, 200);
        }
        assert.equal(
          (await s.call(op, "/oss/v2/buckets", {
            token: t,
            json: { bucketKey: BUCKET, policyKey: "transient" },
          })).status,
          409,
        );
        assert.equal(
          (await s.call(op, "/oss/v2/buckets", {
            token: t,
            json: { bucketKey: "Bad Key", policyKey: "transient" },
          })).status,
          400,
        );
      },
      "GET /oss/v2/buckets": async (s, { t }) => {
        assert.equal(
          (await s.call("GET /oss/v2/buckets", "/oss/v2/buckets?limit=1", { token: t })).status,
          200,
        );
        assert.equal((await s.call("GET /oss/v2/buckets", "/oss/v2/buckets")).status, 401);
      },
      "GET /oss/v2/buckets/{bucketKey}/details": async (s, { t }) => {
        const op = "GET /oss/v2/buckets/{bucketKey}/details";
        assert.equal((await s.call(op, `/oss/v2/buckets/${BUCKET}/details`, { token: t })).status, 200);
        assert.equal((await s.call(op, "/oss/v2/buckets/contract-none/details", { token: t })).status, 404);
      },
      "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload": async (s, { t }) => {
        const a = await s.call(
          "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload",
          `${OBJECT}/signeds3upload`,
          { token: t },
        );
        assert.equal(a.status, 200);
        assert.equal((await s.send("PUT", a.json.urls[0], { body: bytesOf("contract bytes") })).status, 200);
        uploadKey = a.json.uploadKey;
      },
      "POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload": async (s, { t }) => {
        const a = await s.call(
          "POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3upload",
          `${OBJECT}/signeds3upload`,
          {
            token: t,
            json: { uploadKey },
            headers: { "x-ads-meta-Content-Type": "text/plain" },
          },
        );
        assert.equal(a.status, 200);
      },
      "GET /oss/v2/buckets/{bucketKey}/objects": async (s, { t }) => {
        const a = await s.call(
          "GET /oss/v2/buckets/{bucketKey}/objects",
          `/oss/v2/buckets/${BUCKET}/objects?limit=10`,
          { token: t },
        );
        assert.equal(a.json.items.length, 1);
      },
      "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/details": async (s, { t }) => {
        const op = "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/details";
        assert.equal((await s.call(op, `${OBJECT}/details`, { token: t })).status, 200);
        assert.equal((await s.call(op, `${OBJECT}/details?with=createdDate`, { token: t })).status, 200);
        assert.equal(
          (await s.call(op, `/oss/v2/buckets/${BUCKET}/objects/none/details`, { token: t })).status,
          404,
        );
      },
      "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3download": async (s, { t }) => {
        const a = await s.call(
          "GET /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signeds3download",
          `${OBJECT}/signeds3download`,
          { token: t },
        );
        assert.equal(a.status, 200);
      },
      "PUT /oss/v2/buckets/{bucketKey}/objects/{objectKey}/copyto/{newObjKey}": async (s, { t }) => {
        const a = await s.call(
          "PUT /oss/v2/buckets/{bucketKey}/objects/{objectKey}/copyto/{newObjKey}",
          `${OBJECT}/copyto/copy.txt`,
          { token: t },
        );
        assert.equal(a.status, 200);
      },
      "POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signed": async (s, { t }) => {
        const op = "POST /oss/v2/buckets/{bucketKey}/objects/{objectKey}/signed";
        signed.read = await s.call(op, `${OBJECT}/signed?access=Read`, {
          token: t,
          json: { minutesExpiration: 30 },
        });
        signed.readWrite = await s.call(op, `${OBJECT}/signed?access=ReadWrite`, { token: t, json: {} });
        assert.equal(signed.readWrite.status, 200);
      },
      "GET /oss/v2/signedresources/{hash}": async (s) => {
        const path = local(s, signed.read?.json.signedUrl);
        assert.equal((await s.call("GET /oss/v2/signedresources/{hash}", path)).status, 200);
        const part = await s.call("GET /oss/v2/signedresources/{hash}", path, {
          headers: { range: "bytes=0-3" },
        });
        assert.equal(part.status, 206);
      },
      "PUT /oss/v2/signedresources/{hash}": async (s) => {
        const path = local(s, signed.readWrite?.json.signedUrl);
        const a = await s.call("PUT /oss/v2/signedresources/{hash}", path, { body: bytesOf("new bytes") });
        assert.equal(a.status, 200);
      },
      "DELETE /oss/v2/signedresources/{hash}": async (s) => {
        const path = local(s, signed.readWrite?.json.signedUrl);
        assert.equal((await s.call("DELETE /oss/v2/signedresources/{hash}", path)).status, 200);
      },
      "PUT /oss/v2/signedresources/{hash}/resumable": {
        notServed:
          "resumable uploads through a signed resource are not emulated (diazo uploads through signeds3upload)",
      },
      "POST /oss/v2/buckets/{bucketKey}/objects/batchsigneds3upload": {
        notServed: "batch operations: issue 13, item 3",
      },
      "POST /oss/v2/buckets/{bucketKey}/objects/batchcompleteupload": {
        notServed: "batch operations: issue 13, item 3",
      },
      "POST /oss/v2/buckets/{bucketKey}/objects/batchsigneds3download": {
        notServed: "batch operations: issue 13, item 3",
      },
      "DELETE /oss/v2/buckets/{bucketKey}/objects/{objectKey}": async (s, { t }) => {
        const a = await s.call("DELETE /oss/v2/buckets/{bucketKey}/objects/{objectKey}", OBJECT, {
          token: t,
        });
        assert.equal(a.status, 200);
      },
      "DELETE /oss/v2/buckets/{bucketKey}": async (s, { t }) => {
        const a = await s.call("DELETE /oss/v2/buckets/{bucketKey}", "/oss/v2/buckets/contract-gone", {
          token: t,
        });
        assert.equal(a.status, 200);
      },
    },
  });
});

let uploadKey = "";
