/** e2e: `--query` as the README shows it, the AWS CLI's legacy literal form included. */
import assert from "node:assert/strict";
import { json, withSandboxHome } from "./harness.ts";

Deno.test("bucket list --query '[?policyKey==`persistent`].bucketKey' returns the persistent buckets", () =>
  withSandboxHome(async (h) => {
    for (
      const [key, policy] of [["q-keep", "persistent"], ["q-temp", "transient"], ["q-also", "persistent"]]
    ) {
      const r = await h.run(["bucket", "create", "--key", key, "--policy", policy]);
      assert.equal(r.code, 0, r.stderr);
    }
    const legacy = await h.run(["bucket", "list", "--query", "[?policyKey==`persistent`].bucketKey"]);
    assert.equal(legacy.code, 0, legacy.stderr);
    assert.deepEqual(json<string[]>(legacy).sort(), ["q-also", "q-keep"]);
    const standard = await h.run(["bucket", "list", "--query", "[?policyKey=='persistent'].bucketKey"]);
    assert.deepEqual(json<string[]>(standard).sort(), ["q-also", "q-keep"]);
  }));
