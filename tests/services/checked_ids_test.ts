/**
 * The services take checked ids: `deno check` fails this file if a plain string is ever accepted
 * where a BucketKey or ObjectKey is expected (each `@ts-expect-error` must meet an error).
 */
import assert from "node:assert/strict";
import { parseBucketKey, parseObjectKey } from "../../src/aps/ids.ts";
import type { Http } from "../../src/http/http.ts";
import { deleteBucket, getBucket } from "../../src/families/bucket/api.ts";
import { getObject, objectsRequest } from "../../src/transfer/oss_objects.ts";
import { uploadFile } from "../../src/transfer/upload.ts";

Deno.test("services refuse plain strings as bucket and object keys (checked by deno check)", () => {
  const http = {} as Http;
  // Never called: the test is the type checker's verdict on these lines.
  const typeOnly = () => {
    // @ts-expect-error a plain string is not a BucketKey
    getBucket(http, "myco-models");
    // @ts-expect-error a plain string is not a BucketKey
    deleteBucket(http, "myco-models");
    // @ts-expect-error a plain string is not an ObjectKey
    getObject(http, parseBucketKey("myco-models"), "house.rvt");
    // @ts-expect-error a plain string is not a BucketKey
    objectsRequest("myco-models");
    uploadFile(http, {
      // @ts-expect-error a plain string is not a BucketKey
      bucketKey: "myco-models",
      objectKey: parseObjectKey("house.rvt"),
      file: "house.rvt",
      concurrency: 1,
      stateDir: ".",
    });
  };
  assert.equal(typeof typeOnly, "function");
  // Checked values are the same strings at run time.
  assert.equal(objectsRequest(parseBucketKey("myco-models")).path, "/oss/v2/buckets/myco-models/objects");
});
