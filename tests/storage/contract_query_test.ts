/** Issue 13 item 4: diazo's storage requests carry the contract's query values (oss.yaml `access`, `with`). */
import assert from "node:assert/strict";
import type { BucketKey, ObjectKey } from "../../src/aps/ids.ts";
import { createHttp } from "../../src/http/http.ts";
import { createSignedUrl, getObject, SIGNED_ACCESS } from "../../src/transfer/oss_objects.ts";
import { withServer } from "../services/_server.ts";

const B = "contract-b" as BucketKey;
const K = "m.obj" as ObjectKey;

Deno.test("object details send `with` at most once (oss.yaml types it as one value); signed URLs send Read/Write/ReadWrite", async () => {
  await withServer(
    (req) =>
      Response.json(
        new URL(req.url).pathname.endsWith("/details")
          ? { bucketKey: B, objectKey: K, objectId: "x", size: 1 }
          : { signedUrl: "http://s/x", expiration: 1 },
      ),
    async (base, seen) => {
      const http = createHttp({
        baseUrl: base,
        timeoutMs: 5000,
        maxAttempts: 1,
        retryBaseMs: 1,
        token: () => Promise.resolve("t"),
      });
      await getObject(http, B, K);
      assert.deepEqual(seen[0].url.searchParams.getAll("with"), ["createdDate"]);
      for (const access of SIGNED_ACCESS) {
        await createSignedUrl(http, B, K, { minutes: 5, access });
      }
      assert.deepEqual(seen.slice(1).map((s) => s.url.searchParams.getAll("access")), [
        ["Read"],
        ["Write"],
        ["ReadWrite"],
      ]);
    },
  );
});
