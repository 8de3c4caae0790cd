/**
 * Every body read bounded, every redirect checked: a work item's huge report, a receiver answering
 * `webhook test` endlessly, `api` of a large answer, redirects to other hosts (README.md "Safety").
 */
import assert from "node:assert/strict";
import { createHttp } from "../../src/http/http.ts";
import { rawFetch } from "../../src/http/raw_transport.ts";
import { getReport } from "../../src/families/da/workitems_api.ts";
import { endless, endlessSha1, hashingIo, hostileHome, runWith, startHostile } from "./_hostile.ts";
import { run } from "./_run.ts";

const MiB = 1024 * 1024;

Deno.test("item 1: a work item's 200 MB report is read to 1 MiB and cut with a note, not held whole", async () => {
  const h = startHostile((_req, url, h) =>
    url.pathname === "/report" ? new Response(endless(h, 200 * MiB)) : undefined
  );
  try {
    const http = createHttp({
      baseUrl: h.url,
      timeoutMs: 30_000,
      maxAttempts: 1,
      retryBaseMs: 1,
      rawFetch,
    });
    const report = await getReport(http, `${h.url}/report`);
    assert.match(report, /\[report cut at 1 MiB; the whole report is at its reportUrl\]$/);
    assert.ok(report.length < 1.1 * MiB, `${report.length} characters kept`);
    assert.ok(h.sent() < 32 * MiB, `the server sent ${h.sent()} bytes`);
  } finally {
    await h.close();
  }
});

Deno.test("item 4: webhook test against a receiver answering 200 MB reads a bounded part of it and passes", async () => {
  const h = startHostile((req, url, h) => {
    if (url.pathname !== "/hook") return undefined;
    return req.body!.cancel().then(() => new Response(endless(h, 200 * MiB)));
  });
  const { home, env } = await hostileHome(h);
  try {
    const r = await run(["webhook", "test", `${h.url}/hook`, "-o", "json"], env, home.cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).ok, true);
    assert.ok(h.sent() < 32 * MiB, `the receiver sent ${h.sent()} bytes before diazo stopped reading`);
  } finally {
    await home.cleanup();
    await h.close();
  }
});

Deno.test("item 9: webhook test does not follow a receiver's 307, as the platform's delivery does not", async () => {
  const h = startHostile((req, url) => {
    if (url.pathname === "/hook") {
      return req.body!.cancel().then(() =>
        new Response(null, { status: 307, headers: { location: "/elsewhere" } })
      );
    }
    if (url.pathname === "/elsewhere") return new Response("ok");
    return undefined;
  });
  const { home, env } = await hostileHome(h);
  try {
    const r = await run(["webhook", "test", `${h.url}/hook`, "-o", "json"], env, home.cwd);
    const report = JSON.parse(r.stdout);
    assert.equal(report.ok, false);
    assert.equal(report.status, 307);
    assert.equal(
      h.hits.filter((x) => x.path === "/elsewhere").length,
      0,
      "the signed payload went to the target",
    );
  } finally {
    await home.cleanup();
    await h.close();
  }
});

Deno.test("item 10: a platform redirect to another host is refused: api and bucket list fail, nothing reaches it", async () => {
  const foreign = startHostile(() => Response.json({ items: [], foreign: true }));
  const h = startHostile((_req, url) =>
    url.pathname.startsWith("/oss/")
      ? new Response(null, { status: 302, headers: { location: `${foreign.url}/steal` } })
      : undefined
  );
  const { home, env } = await hostileHome(h);
  try {
    for (const argv of [["api", "/oss/v2/buckets"], ["bucket", "list", "--region", "US"]]) {
      const r = await run(argv, env, home.cwd);
      assert.equal(r.code, 1, `${argv.join(" ")}: ${r.stdout} ${r.stderr}`);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /redirects to another host \(127\.0\.0\.1:\d+\), which diazo does not follow/);
    }
    assert.equal(foreign.hits.length, 0, "a request reached the other host");
  } finally {
    await home.cleanup();
    await h.close();
    await foreign.close();
  }
});

Deno.test("item 5: api streams a 64 MB answer to stdout as it came (SHA-1 checked), without a byte added", async () => {
  const size = 64 * MiB;
  const h = startHostile((_req, url, h) =>
    url.pathname === "/big"
      ? new Response(endless(h, size), { headers: { "content-type": "text/plain" } })
      : undefined
  );
  const { home, env } = await hostileHome(h);
  try {
    const cap = await hashingIo();
    const code = await runWith(cap.io, ["api", "/big"], env, home.cwd);
    assert.equal(code, 0, cap.err());
    assert.equal(cap.bytes(), size);
    assert.equal(cap.sha1(), await endlessSha1(size));
  } finally {
    await home.cleanup();
    await h.close();
  }
});
