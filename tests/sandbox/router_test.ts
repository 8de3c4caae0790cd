import assert from "node:assert/strict";
import { createRouter, type Route } from "../../src/sandbox/router.ts";

const noop = () => new Response(null);
const route = (method: string, pattern: string, scopes: string[] = []): Route => ({
  method,
  pattern,
  scopes,
  handler: noop,
});

Deno.test("router: literal and parameter segments, decoded", () => {
  const details = route("GET", "/oss/v2/buckets/:bucketKey/details");
  const object = route("GET", "/oss/v2/buckets/:bucketKey/objects/:objectKey");
  const r = createRouter([details], [object]);
  const m = r.match("GET", "/oss/v2/buckets/my-bucket/details");
  assert.equal(m?.route, details);
  assert.deepEqual(m?.params, { bucketKey: "my-bucket" });
  const o = r.match("GET", "/oss/v2/buckets/b1/objects/dir%2Fa%20b.rvt");
  assert.equal(o?.route, object);
  assert.deepEqual(o?.params, { bucketKey: "b1", objectKey: "dir/a b.rvt" });
});

Deno.test("router: method, segment count, empty parameters and bad encoding do not match", () => {
  const r = createRouter([route("GET", "/oss/v2/buckets/:bucketKey/details")]);
  assert.equal(r.match("POST", "/oss/v2/buckets/x/details"), undefined);
  assert.equal(r.match("GET", "/oss/v2/buckets/x"), undefined);
  assert.equal(r.match("GET", "/oss/v2/buckets/x/details/more"), undefined);
  assert.equal(r.match("GET", "/oss/v2/buckets//details"), undefined);
  assert.equal(r.match("GET", "/oss/v2/buckets/%E0%A4%A/details"), undefined);
  assert.equal(r.match("GET", "/oss/v2/bucketz/x/details"), undefined);
});

Deno.test("router: a trailing * takes the rest; earlier routes win", () => {
  const specific = route("PUT", "/__s3/:uploadId/1");
  const rest = route("PUT", "/__s3/*");
  const r = createRouter([specific, rest]);
  assert.equal(r.match("PUT", "/__s3/u1/1")?.route, specific);
  const m = r.match("PUT", "/__s3/u1/2/extra");
  assert.equal(m?.route, rest);
  assert.deepEqual(m?.params, { "*": "u1/2/extra" });
});
