/**
 * The contract gate itself: a request no official file and no listed operation knows (a planted
 * `GET /hq/v1/accounts`, which the platform does not document) fails it, as does a query
 * parameter repeated where the file takes one value; documented requests pass.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { startSandbox } from "../../src/sandbox/server.ts";
import { gateRecorder, testSigningKey } from "../e2e/test_sandbox.ts";
import { token } from "../sandbox/helpers.ts";
import { gateProblems, readGateLog } from "./gate.ts";
import { fitsTemplate, UNDOCUMENTED_OPERATIONS } from "./undocumented.ts";

const GATE = fileURLToPath(new URL("./gate.ts", import.meta.url));

/** Runs the gate as .ci/run does; its exit code and output. */
async function runGate(file: string): Promise<{ code: number; text: string }> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["run", "-A", "--no-check", GATE, file] })
    .output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, text: decode(out.stdout) + decode(out.stderr) };
}

Deno.test("contract gate: a planted undocumented request fails it; documented ones pass", async () => {
  const file = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    const sb = await startSandbox({
      port: 0,
      signingKey: await testSigningKey(),
      onRequest: gateRecorder(file),
    });
    try {
      const t = await token(sb, "bucket:read account:read");
      const buckets = await fetch(`${sb.url}/oss/v2/buckets`, { headers: { authorization: `Bearer ${t}` } });
      assert.equal(buckets.status, 200);
      await buckets.body?.cancel();
      assert.equal((await runGate(file)).code, 0, "documented requests pass");

      const planted = await fetch(`${sb.url}/hq/v1/accounts?limit=100&offset=0`, {
        headers: { authorization: `Bearer ${t}` },
      });
      await planted.body?.cancel();
      const gate = await runGate(file);
      assert.equal(gate.code, 1, gate.text);
      assert.match(gate.text, /GET \/hq\/v1\/accounts \(answered 404\): no operation of the official files/);
    } finally {
      await sb.close();
    }
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("contract gate: a parameter the file types as one value, sent twice, is a problem", async () => {
  const path = "/oss/v2/buckets/b/objects/k/details";
  const problems = await gateProblems([{ method: "GET", path, status: 200, repeated: ["with"] }]);
  assert.match(problems.join("\n"), /`with` sent more than once; oss\/oss.yaml/);
  assert.deepEqual(await gateProblems([{ method: "GET", path, status: 200, repeated: [] }]), []);
});

Deno.test("contract gate: every listed operation names a public source and a reason", async () => {
  for (const op of UNDOCUMENTED_OPERATIONS) {
    assert.match(op.source, /https:\/\//, `${op.method} ${op.path}`);
    assert.ok(op.reason.length > 10, `${op.method} ${op.path}`);
  }
  assert.ok(fitsTemplate("/a/{x}:import", "/a/users:import") && !fitsTemplate("/a/{x}", "/a/b/c"));
  assert.deepEqual(await readGateLog("/nonexistent/gate.jsonl"), []);
});
