/** `api` of an answer that stops after its headers ends once no byte arrived for the timeout. */
import assert from "node:assert/strict";
import { hostileHome, startHostile } from "./_hostile.ts";
import { run } from "./_run.ts";

Deno.test("item 13: api of an answer stalled after its headers and a first byte fails within the timeout's bound", async () => {
  const h = startHostile((_req, url) => {
    if (url.pathname !== "/x") return undefined;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("x".repeat(100_000)));
      },
    });
    return new Response(body, { headers: { "content-type": "text/plain" } });
  });
  const { home, env } = await hostileHome(h);
  try {
    const started = performance.now();
    const r = await run(["api", "/x", "--timeout", "3"], env, home.cwd);
    const seconds = (performance.now() - started) / 1000;
    assert.equal(r.code, 5, `${r.stderr} / ${r.stdout.length} bytes out`);
    assert.match(r.stderr, /^error: .*stalled: no data arrived for 3 s/m);
    assert.ok(seconds < 15, `${seconds.toFixed(1)} s`);
  } finally {
    await home.cleanup();
    await h.close();
  }
});
