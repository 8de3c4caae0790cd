/** The contract test's own machinery: the checker catches what strays from a file, and the runner its gaps. */

import assert from "node:assert/strict";
import { type NotServed, runPlan } from "./contract.ts";
import { loadSpec } from "./spec.ts";

const BUCKETS = "GET /oss/v2/buckets";

Deno.test("contract checker: a body that keeps the file passes; a wrong type and a missing property are named", async () => {
  const oss = await loadSpec("oss/oss.yaml");
  const ok = { items: [{ bucketKey: "b1", createdDate: 1700000000000, policyKey: "transient" }] };
  assert.deepEqual(
    await oss.check(BUCKETS, { status: 200, mediaType: "application/json", json: ok, hasBody: true }),
    [],
  );
  const bad = { items: [{ bucketKey: 7, policyKey: "transient" }] };
  const problems = await oss.check(BUCKETS, {
    status: 200,
    mediaType: "application/json",
    json: bad,
    hasBody: true,
  });
  assert.deepEqual(problems.map((p) => [p.kind, p.detail.split(" (")[0]]).sort(), [
    ["body", "/items/0/bucketKey: type"],
    ["body", "/items/0: required"],
  ]);
  assert.match(problems.find((p) => p.detail.includes("required"))!.detail, /missing createdDate$/);
});

Deno.test("contract checker: an undeclared status, a JSON media type with a body that is not JSON, a foreign media type", async () => {
  const oss = await loadSpec("oss/oss.yaml");
  const [status] = await oss.check(BUCKETS, { status: 418, mediaType: "", hasBody: false });
  assert.equal(status.kind, "status");
  assert.match(status.detail, /status 418 is not declared \(declared: 200, 400/);
  const [notJson] = await oss.check(BUCKETS, { status: 200, mediaType: "application/json", hasBody: true });
  assert.deepEqual([notJson.kind, notJson.detail], ["body", "the body is not JSON"]);
  const [media] = await oss.check(BUCKETS, { status: 200, mediaType: "text/html", hasBody: true });
  assert.equal(media.kind, "media-type");
});

Deno.test("contract checker: every official file is OpenAPI 3.0 and lists its operations", async () => {
  const counts: Record<string, number> = {};
  for (
    const file of [
      "authentication/authentication.yaml",
      "secureserviceaccount/secureServiceAccount.yaml",
      "oss/oss.yaml",
      "modelderivative/modelderivative.yaml",
      "datamanagement/datamanagement.yaml",
      "webhooks/webhooks.yaml",
      "construction/issues/Issues.yaml",
      "construction/accountadmin/accountadmin.yaml",
    ]
  ) counts[file] = (await loadSpec(file)).operations.size;
  assert.deepEqual(Object.values(counts), [8, 10, 19, 12, 41, 12, 14, 30]);
});

Deno.test("contract runner: an operation without an entry, and one called 'not served' that is served, fail", async () => {
  const oss = await loadSpec("oss/oss.yaml");
  const ops: Record<string, NotServed> = {};
  for (const op of oss.operations.keys()) ops[op] = { notServed: "pretend" };
  delete ops["DELETE /oss/v2/buckets/{bucketKey}"];
  await assert.rejects(
    runPlan({ file: "oss/oss.yaml", setup: () => Promise.resolve({}), ops }),
    (e: Error) => {
      assert.match(e.message, /DELETE \/oss\/v2\/buckets\/\{bucketKey\}: no entry in the plan/);
      assert.match(e.message, /GET \/oss\/v2\/buckets: listed as not served \(pretend\) but answers 401/);
      assert.doesNotMatch(e.message, /resumable/, "an operation not served passes the probe");
      return true;
    },
  );
});
