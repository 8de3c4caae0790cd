/** A list's next link to another origin is refused as a redirect there is: nothing is sent there. */
import assert from "node:assert/strict";
import { hostileHome, startHostile } from "./_hostile.ts";
import { run } from "./_run.ts";

Deno.test("item 4: bucket list whose next link names localhost for a 127.0.0.1 platform fails; no request reaches it", async () => {
  const h = startHostile((_req, url, h) => {
    if (!url.pathname.startsWith("/oss/")) return undefined;
    if (url.searchParams.has("startAt")) return Response.json({ items: [{ bucketKey: "stolen" }] });
    const port = new URL(h.url).port;
    return Response.json({
      items: [{ bucketKey: "first", policyKey: "transient" }],
      next: `http://localhost:${port}/oss/v2/buckets?startAt=stolen`,
    });
  });
  const { home, env } = await hostileHome(h);
  try {
    const r = await run(["bucket", "list", "--region", "US", "-o", "json"], env, home.cwd);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(r.stdout, "");
    assert.match(
      r.stderr,
      /^error: .*next link points to another host \(localhost:\d+\), which diazo does not follow/m,
    );
    assert.equal(
      h.hits.filter((x) => x.path.startsWith("/oss/")).length,
      1,
      "only the first page was asked for",
    );
  } finally {
    await home.cleanup();
    await h.close();
  }
});
