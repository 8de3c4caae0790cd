/** e2e: `diazo sandbox` startup contract, and `diazo demo` with no account and no network. */
import assert from "node:assert/strict";
import { cliEnv, diazo, json, makeHome, sandboxEnv, spawnChild } from "./harness.ts";

Deno.test("diazo sandbox --port 0 prints its base URL as the first stdout line and serves the CLI", async () => {
  const home = await makeHome();
  // A process: its first stdout line while it keeps serving, and SIGTERM.
  const child = spawnChild(["sandbox", "--port", "0"], { env: cliEnv(home) });
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buf = "";
    while (!buf.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
    }
    const url = buf.split("\n")[0];
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(url, "http://127.0.0.1:0");
    const r = await diazo(["auth", "test", "-o", "json"], { env: sandboxEnv(home, url) });
    assert.equal(r.code, 0, r.stderr);
    const list = await diazo(["bucket", "list", "-o", "json"], { env: sandboxEnv(home, url) });
    assert.deepEqual(json(list), []);
    await reader.cancel();
    child.kill("SIGTERM");
    const status = await child.status;
    assert.equal(status.code, 0);
    const err = new TextDecoder().decode(new Uint8Array(await new Response(child.stderr).arrayBuffer()));
    assert.match(err, /SVC_CLIENT_ID=diazo-sandbox/);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await home.cleanup();
  }
});

Deno.test("diazo sandbox on a port in use: clear error, exit 2", async () => {
  const home = await makeHome();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const r = await diazo(["sandbox", "--port", String((listener.addr as Deno.NetAddr).port)], {
      env: cliEnv(home),
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: port \d+ is already in use\nhint: /);
  } finally {
    listener.close();
    await home.cleanup();
  }
});

Deno.test("diazo demo with no credentials runs the whole flow on an in-process sandbox", async () => {
  const home = await makeHome();
  try {
    const r = await diazo(["demo", "-o", "json"], { env: cliEnv(home), cwd: home.cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /No credentials configured: running against an in-process sandbox/);
    assert.match(r.stderr, /inprogress \d+% complete/, "translation progress is shown");
    const out = json<{
      sandbox: boolean;
      steps: { ok: boolean; step: string }[];
      object: { parts: number; size: number; sha1: string };
      manifest: { status: string; derivatives: string[] };
      properties: { name: string }[];
      derivative?: { size: number };
      kept: boolean;
    }>(r);
    assert.equal(out.sandbox, true);
    assert.equal(out.steps.length, 8);
    assert.ok(out.steps.every((s) => s.ok));
    assert.ok(out.object.parts >= 2, "the model goes up in several parts");
    assert.equal(out.manifest.status, "success");
    assert.deepEqual([...out.manifest.derivatives].sort(), ["obj", "svf2"]);
    assert.ok(out.properties.length > 0 && out.properties.every((p) => p.name.length > 0));
    assert.ok((out.derivative?.size ?? 0) > 0, "an OBJ derivative was downloaded");
    assert.equal(out.kept, false);
    assert.deepEqual([...Deno.readDirSync(home.cwd)], [], "nothing is left in the working directory");
  } finally {
    await home.cleanup();
  }
});
