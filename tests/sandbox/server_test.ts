import assert from "node:assert/strict";
import { join } from "node:path";
import { startSandbox } from "../../src/sandbox/server.ts";
import { startTestSandbox } from "../e2e/test_sandbox.ts";

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

Deno.test("server: port 0 picks a free port; url has no trailing slash; close is idempotent", async () => {
  const sb = await startTestSandbox();
  try {
    assert.ok(sb.port > 0);
    assert.equal(sb.url, `http://127.0.0.1:${sb.port}`);
    const res = await fetch(`${sb.url}/authentication/v2/keys`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
  } finally {
    await sb.close();
    await sb.close();
  }
  await assert.rejects(
    () => fetch(`${sb.url}/authentication/v2/keys`),
    TypeError,
    "nothing listens after close",
  );
});

Deno.test("server: two sandboxes run side by side with separate state", async () => {
  const a = await startTestSandbox();
  const b = await startTestSandbox();
  try {
    assert.notEqual(a.port, b.port);
    await fetch(`${a.url}/_sandbox/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_seconds: 500 }),
    })
      .then((r) => r.body?.cancel());
    const offA = (await (await fetch(`${a.url}/_sandbox/clock`)).json()).offset_seconds;
    const offB = (await (await fetch(`${b.url}/_sandbox/clock`)).json()).offset_seconds;
    assert.deepEqual([offA, offB], [500, 0]);
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("server: the temporary data dir is removed on close; a given one is created and kept", async () => {
  const temp = await startTestSandbox();
  const tempDir = temp.dataDir;
  try {
    assert.ok(await exists(tempDir));
  } finally {
    await temp.close();
  }
  assert.equal(await exists(tempDir), false);

  const parent = await Deno.makeTempDir();
  try {
    const dir = join(parent, "nested", "data");
    const kept = await startSandbox({ port: 0, dataDir: dir });
    try {
      assert.equal(kept.dataDir, dir);
      assert.ok((await Deno.stat(dir)).isDirectory);
    } finally {
      await kept.close();
    }
    assert.ok(await exists(dir));
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("server: a taken port fails the start without leaking anything", async () => {
  const first = await startTestSandbox();
  try {
    await assert.rejects(() => startSandbox({ port: first.port }), Deno.errors.AddrInUse);
  } finally {
    await first.close();
  }
});
