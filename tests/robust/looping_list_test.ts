/**
 * Lists whose server misbehaves, through `bucket list` (fetchPage): pages that loop end with a
 * warning, items listed once; a list that goes on says so every 1,000 pages, naming --limit.
 */
import assert from "node:assert/strict";
import { hostileHome, startHostile } from "./_hostile.ts";
import { run } from "./_run.ts";

Deno.test("item 15: bucket list of a server that loops its pages under new cursors warns and lists each item once", async () => {
  let n = 0;
  const h = startHostile((_req, url, h) => {
    if (!url.pathname.startsWith("/oss/")) return undefined;
    n++;
    return Response.json({
      items: [{ bucketKey: "a", policyKey: "transient" }, { bucketKey: "b", policyKey: "transient" }],
      next: `${h.url}/oss/v2/buckets?startAt=c${n}`,
    });
  });
  const { home, env } = await hostileHome(h);
  try {
    const r = await run(["bucket", "list", "--region", "US", "-o", "json"], env, home.cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).map((b: { bucketKey: string }) => b.bucketKey), ["a", "b"]);
    assert.match(r.stderr, /page 2 of \/oss\/v2\/buckets repeats an earlier page/);
    assert.equal(n, 2);
  } finally {
    await home.cleanup();
    await h.close();
  }
});

Deno.test("item 15: bucket list of a list that goes on with ever-new cursors says so at 1,000 pages, naming --limit", async () => {
  let n = 0;
  const h = startHostile((_req, url, h) => {
    if (!url.pathname.startsWith("/oss/")) return undefined;
    n++;
    return Response.json({
      items: [{ bucketKey: `b${n}`, policyKey: "transient" }],
      ...(n < 1001 ? { next: `${h.url}/oss/v2/buckets?startAt=c${n}` } : {}),
    });
  });
  const { home, env } = await hostileHome(h);
  try {
    const r = await run(["bucket", "list", "--region", "US", "-o", "json"], env, home.cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).length, 1001);
    assert.match(
      r.stderr,
      /notice: \/oss\/v2\/buckets has given 1000 pages \(1000 items\) and goes on; --limit/,
    );
  } finally {
    await home.cleanup();
    await h.close();
  }
});
