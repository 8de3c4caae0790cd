/** Issue 14 item 13: `serve` over stdio refuses a 16 MiB message with a JSON-RPC error and keeps serving. */
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { Buffer } from "node:buffer";
import { leadingId, limitLines } from "../../src/families/serve/stdio_limit.ts";
import { fixture, spawnServeStdio } from "../mcp/helpers.ts";

const INIT = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

Deno.test("serve (stdio): a 16 MiB message gets -32600 with its id; the next message is answered; exit 0", async () => {
  const fx = await fixture();
  try {
    const child = spawnServeStdio(fx);
    const output = child.output();
    const w = child.stdin.getWriter();
    const enc = new TextEncoder();
    await w.write(enc.encode(JSON.stringify(INIT) + "\n"));
    await w.write(
      enc.encode(
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"object_urn","arguments":{"x":"',
      ),
    );
    const block = enc.encode("a".repeat(1024 * 1024));
    for (let i = 0; i < 16; i++) await w.write(block);
    await w.write(enc.encode('"}}}\n'));
    await w.write(enc.encode(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/list" }) + "\n"));
    await w.close();
    const out = await output;
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    const byId = new Map(
      new TextDecoder().decode(out.stdout).trimEnd().split("\n").map((l) => JSON.parse(l)).map((
        m,
      ) => [m.id, m]),
    );
    assert.equal(byId.get(7)?.error?.code, -32600, JSON.stringify(byId.get(7)));
    assert.match(byId.get(7).error.message, /more than the 8388608 accepted/);
    assert.ok(Array.isArray(byId.get(8)?.result?.tools), "tools/list after it is answered");
    assert.match(stderr, /refused a message of \d+ bytes/);
  } finally {
    await fx.close();
  }
});

Deno.test("limitLines: short lines pass whole across chunks; a long one is dropped without being held", async () => {
  const input = new PassThrough();
  const refused: { bytes: number; id: string | number | null }[] = [];
  const out = limitLines(input, (l) => refused.push(l), 10);
  const got: Buffer[] = [];
  out.on("data", (c: Buffer) => got.push(c));
  const ended = new Promise((r) => out.on("end", r));
  input.write("ab");
  input.write('c\n{"id":"q",');
  input.write("x".repeat(50));
  input.write("\nok\nlast");
  input.end();
  await ended;
  assert.equal(Buffer.concat(got).toString(), "abc\nok\nlast");
  assert.deepEqual(refused, [{ bytes: 60, id: "q" }]);
  assert.equal(leadingId('{"jsonrpc":"2.0","id": 12,'), 12);
  assert.equal(leadingId('{"jsonrpc":"2.0"'), null);
});
