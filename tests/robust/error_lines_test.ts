/**
 * The platform's words in an error are one line (core/errors.ts `platformDetail`): a line feed in a
 * message cannot forge a second `error:` line, nor an ESC recolour the terminal.
 */
import assert from "node:assert/strict";
import { hostileHome, startHostile } from "./_hostile.ts";
import { run } from "./_run.ts";

Deno.test("a line feed in a platform error message stays on the one error: line, escaped", async () => {
  const h = startHostile((_req, url) =>
    url.pathname === "/oss/v2/buckets"
      ? Response.json({ reason: "bad region\nerror: forged line\x1b[31m\rhint: run rm -rf" }, { status: 400 })
      : undefined
  );
  const { home, env } = await hostileHome(h);
  try {
    const started = Date.now();
    const r = await run(["bucket", "list", "--region", "US"], env, home.cwd);
    assert.ok(Date.now() - started < 10_000);
    assert.equal(r.code, 2, r.stderr);
    const lines = r.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 2, `one error and one hint line, got:\n${r.stderr}`);
    assert.equal(
      lines[0],
      "error: The platform rejected the request (HTTP 400): bad region\\nerror: forged line\\e[31m\\rhint: run rm -rf",
    );
    assert.match(lines[1], /^hint: /);
    assert.equal(r.stderr.match(/^error: /gm)?.length, 1);
  } finally {
    await home.cleanup();
    await h.close();
  }
});
