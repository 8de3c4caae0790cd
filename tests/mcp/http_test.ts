/** `diazo serve --http`: Streamable HTTP on 127.0.0.1 with Origin and Host checks and an optional bearer secret. */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "../../src/mcp/sdk.ts";
import { cliCommand } from "../e2e/harness.ts";
import { everyTool, fails, type Fixture, fixture, ok } from "./helpers.ts";

/** Starts `diazo serve --http --port 0 ...` and reads the URL it prints first. */
async function startHttp(fx: Fixture, args: string[] = []) {
  const child = new Deno.Command(Deno.execPath(), {
    args: cliCommand(["serve", "--http", "--port", "0", ...everyTool(args)]),
    env: fx.env,
    clearEnv: true,
    cwd: fx.home.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve --http ended: ${await new Response(child.stderr).text()}`);
    out += value;
  }
  reader.releaseLock();
  const url = out.split("\n")[0];
  return {
    url,
    port: Number(new URL(url).port),
    async stop() {
      child.kill("SIGTERM");
      const [status, stderr] = await Promise.all([child.status, new Response(child.stderr).text()]);
      await child.stdout.cancel().catch(() => {});
      return { code: status.code, stderr };
    },
  };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** Sends raw HTTP/1.1 over TCP, so that the Host header is exactly ours; returns the status line. */
async function rawPost(port: number, host: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const body = new TextEncoder().encode(INITIALIZE);
  const head = `POST /mcp HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\n` +
    `accept: application/json, text/event-stream\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`;
  await conn.write(new TextEncoder().encode(head));
  await conn.write(body);
  const answer = await new Response(conn.readable).text();
  return answer.split("\r\n")[0];
}

Deno.test("serve --http: foreign Origin and Host refused; initialize from 127.0.0.1 answered; the SDK client works", async () => {
  const fx = await fixture();
  const server = await startHttp(fx);
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const foreign = await fetch(server.url, {
      method: "POST",
      headers: { ...HEADERS, origin: "http://evil.example" },
      body: INITIALIZE,
    });
    assert.equal(foreign.status, 403);
    assert.match((await foreign.json()).error.message, /Origin/);

    assert.match(await rawPost(server.port, "evil.example"), /^HTTP\/1\.1 403/);
    assert.match(await rawPost(server.port, `localhost:${server.port}`), /^HTTP\/1\.1 200/);

    const local = await fetch(server.url, {
      method: "POST",
      headers: { ...HEADERS, origin: `http://127.0.0.1:${server.port}` },
      body: INITIALIZE,
    });
    assert.equal(local.status, 200);
    const init = await local.json();
    assert.deepEqual([init.id, init.result.serverInfo.name], [1, "diazo"]);

    const get = await fetch(server.url, { headers: { accept: "text/event-stream" } });
    await get.body?.cancel();
    assert.equal(get.status, 405);

    const client = new Client({ name: "http-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === "bucket_list"));
      await ok(client, "bucket_create", { bucket_key: "mcp-http" });
      const listed = await ok(client, "bucket_list");
      assert.deepEqual(listed.items.map((b: { bucketKey: string }) => b.bucketKey), ["mcp-http"]);
      // Stateless: no session keeps a toolset switched on, so the tool says how to start the server instead.
      const refused = await fails(client, "toolset_enable", { toolset: "events" });
      assert.equal(refused.code, "usage");
      assert.match(refused.message, /over --http it is stateless/);
      assert.match(refused.hint, /serve --http --toolsets events/);
    } finally {
      await client.close();
    }
  } finally {
    const end = await server.stop();
    assert.equal(end.code, 0, end.stderr);
    assert.match(end.stderr, /refused POST \/mcp: Origin http:\/\/evil\.example/);
    await fx.close();
  }
});

Deno.test("serve --http --http-secret-env: requests without the bearer secret are refused", async () => {
  const secret = "s3cret-" + crypto.randomUUID();
  const fx = await fixture({ MCP_TEST_SECRET: secret });
  const server = await startHttp(fx, ["--http-secret-env", "MCP_TEST_SECRET"]);
  try {
    for (const authorization of [undefined, "Bearer wrong", `Basic ${btoa(secret)}`]) {
      const res = await fetch(server.url, {
        method: "POST",
        headers: { ...HEADERS, ...(authorization ? { authorization } : {}) },
        body: INITIALIZE,
      });
      assert.equal(res.status, 401, String(authorization));
      assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
      await res.body?.cancel();
    }
    const client = new Client({ name: "http-test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${secret}` } },
      }),
    );
    try {
      assert.equal((await ok(client, "auth_test")).ok, true);
    } finally {
      await client.close();
    }
  } finally {
    const end = await server.stop();
    assert.ok(!end.stderr.includes(secret), "the secret never reaches the log");
    await fx.close();
  }
});
