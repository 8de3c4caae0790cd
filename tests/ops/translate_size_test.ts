/**
 * the specification's 5 GB translation input limit: `translate start` reads the object's size from OSS and
 * refuses (exit 2, no job) an input over it unless `--force`, which warns and starts the job. The
 * sandbox object only reports a size over 5 GB (control hook); no 5 GB file is made.
 */
import assert from "node:assert/strict";
import { diazo, requestLog } from "../e2e/harness.ts";
import { CUBE_OBJ, mdFixture } from "../e2e/md_helpers.ts";

Deno.test("translate start: an input over 5 GB exits 2 before any job; --force warns and starts it", async () => {
  const md = await mdFixture({ bucket: "size-limit" });
  try {
    const { urn } = await md.upload("huge.obj", CUBE_OBJ);
    const small = await diazo(["translate", "start", urn, "-f", "obj", "-o", "json"], { env: md.env });
    assert.equal(small.code, 0, small.stderr);
    assert.doesNotMatch(small.stderr, /5 GB/);

    const hook = await fetch(`${md.sb.url}/_sandbox/objects/reported-size`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ bucket_key: md.bucket, object_key: "huge.obj", size: 6 * 1024 ** 3 }),
    });
    assert.equal(hook.status, 200, await hook.text());
    await fetch(`${md.sb.url}/_sandbox/requests`, { method: "DELETE" });

    const refused = await diazo(["translate", "start", urn, "-f", "obj"], { env: md.env });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /^error: the translation input is 6\.0 GB, over the platform's limit of 5 GB/,
    );
    assert.match(refused.stderr, /hint: .*--force/);
    const jobs = (await requestLog(md.sb.url, "/modelderivative")).filter((r) => r.method === "POST");
    assert.deepEqual(jobs, [], "no job was started");

    const forced = await diazo(["translate", "start", urn, "-f", "obj", "--force", "-o", "json"], {
      env: md.env,
    });
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stderr, /over the platform's limit of 5 GB per file; starting anyway \(--force\)/);
    const started = (await requestLog(md.sb.url, "/modelderivative")).filter((r) => r.method === "POST");
    assert.equal(started.length, 1);
  } finally {
    await md.close();
  }
});
