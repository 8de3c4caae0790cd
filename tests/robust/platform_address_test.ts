/**
 * The platform address (aps/base_url.ts, http/http.ts `checkBaseUrl`): a password in it is shown by
 * nothing (`--debug`, `auth status`, the `auth_status` tool); one with a query or a fragment is a usage
 * error before any request.
 */
import assert from "node:assert/strict";
import { startServe } from "../mcp/helpers.ts";
import { ok } from "../mcp/helpers.ts";
import { hostileHome, startHostile } from "./_hostile.ts";
import { run } from "./_run.ts";

const PASSWORD = "hunter2-platform-pass";

Deno.test("a password in DIAZO_BASE_URL is shown by neither --debug, auth status nor the auth_status tool", async () => {
  const h = startHostile((_req, url) =>
    url.pathname === "/oss/v2/buckets" ? Response.json({ items: [] }) : undefined
  );
  const { home, env } = await hostileHome(h);
  const withPassword = { ...env, DIAZO_BASE_URL: h.url.replace("http://", `http://diazo-user:${PASSWORD}@`) };
  try {
    const debug = await run(["bucket", "list", "--region", "US", "--debug"], withPassword, home.cwd);
    assert.equal(debug.code, 0, debug.stderr);
    assert.match(debug.stderr, /GET http:\/\/127\.0\.0\.1:\d+\/oss\/v2\/buckets/, "the debug log is there");
    const status = await run(["auth", "status", "-o", "json"], withPassword, home.cwd);
    assert.equal(status.code, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).base_url, h.url);
    const table = await run(["auth", "status"], withPassword, home.cwd);
    const config = await run(["config", "list", "-o", "json"], withPassword, home.cwd);
    for (const r of [debug, status, table, config]) {
      assert.doesNotMatch(r.stdout + r.stderr, new RegExp(PASSWORD));
      assert.doesNotMatch(r.stdout + r.stderr, /diazo-user/);
    }
    const serve = await startServe(withPassword, [], home.cwd);
    try {
      const tool = await ok(serve.client, "auth_status");
      assert.equal(tool.base_url, h.url);
      assert.doesNotMatch(JSON.stringify(tool) + serve.stderr(), new RegExp(PASSWORD));
    } finally {
      await serve.close();
    }
    assert.ok(h.hits.every((x) => !(x.authorization ?? "").startsWith("Basic ZGlhem8tdXNlcj")), "never sent");
  } finally {
    await home.cleanup();
    await h.close();
  }
});

Deno.test("a base URL with a query or a fragment is a usage error (exit 2) before any request", async () => {
  const h = startHostile(() => undefined);
  const { home, env } = await hostileHome(h);
  try {
    for (const [address, says] of [[`${h.url}/?x=1`, "a query"], [`${h.url}#top`, "a fragment"]]) {
      const started = Date.now();
      const r = await run(
        ["bucket", "list", "--region", "US"],
        { ...env, DIAZO_BASE_URL: address },
        home.cwd,
      );
      assert.ok(Date.now() - started < 10_000, "refused at once");
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, "");
      const lines = r.stderr.trimEnd().split("\n");
      assert.equal(lines.length, 2, r.stderr);
      assert.match(lines[0], new RegExp(`^error: invalid base URL '.*': it has ${says}`));
      assert.match(lines[1], /^hint: Set DIAZO_BASE_URL/);
    }
    assert.deepEqual(h.hits, [], "no request was sent");
  } finally {
    await home.cleanup();
    await h.close();
  }
});
