/** The tool server keeps serving after an unknown tool, a tool that throws, and a platform 500. */
import assert from "node:assert/strict";
import path from "node:path";
import { z } from "zod";
import { memoryTokenStore } from "../../src/auth/token_memory.ts";
import { resolve } from "../../src/config/config.ts";
import { Client, InMemoryTransport } from "../../src/mcp/sdk.ts";
import { createServer } from "../../src/families/serve/server.ts";
import { defineTool, type ServeDeps } from "../../src/mcp/tool.ts";
import { ALL_TOOLS } from "../../src/families/serve/tools.ts";
import { addFault, requestLog } from "../e2e/harness.ts";
import { fails, fixture, ok, startServe } from "./helpers.ts";

Deno.test("serve: an unknown tool is a protocol error and a platform 500 an isError result; serving goes on", async () => {
  const fx = await fixture();
  await Deno.mkdir(fx.home.configDir, { recursive: true });
  await Deno.writeTextFile(
    path.join(fx.home.configDir, "config.json"),
    JSON.stringify({ settings: { max_attempts: 2 } }),
  );
  const serve = await startServe(fx.env);
  try {
    await ok(serve.client, "auth_test"); // the token first, so that the fault hits only the list
    const unknown = await serve.client.callTool({ name: "bucket_lst", arguments: {} })
      .then(() => "answered", (e: Error) => e.message);
    assert.match(unknown, /Unknown tool 'bucket_lst': did you mean 'bucket_list'\?/);

    await addFault(fx.url, { method: "GET", path: "/oss/v2/buckets", status: 500, count: 2 });
    const failed = await fails(serve.client, "bucket_list", { region: "US" });
    assert.deepEqual([failed.code, failed.status], ["server_error", 500]);
    assert.equal(failed.message, "The platform failed with HTTP 500 after 2 attempts");
    assert.match(failed.hint, /temporary/);
    assert.deepEqual((await requestLog(fx.url, "/oss/v2/buckets")).map((e) => e.status), [500, 500]);

    assert.deepEqual((await ok(serve.client, "bucket_list")).items, []);
    assert.equal(
      (await ok(serve.client, "object_urn", { bucket_key: "abc", object_key: "k" })).objectId,
      "urn:adsk.objects:os.object:abc/k",
    );
  } finally {
    await serve.close();
    await fx.close();
  }
});

/** Deps whose every platform request throws a raw (non-catalog) error. */
function brokenDeps(): ServeDeps {
  const resolved = resolve({
    flags: {},
    env: { SVC_CLIENT_ID: "id", SVC_CLIENT_SECRET: "secret" },
    dotenv: {},
    config: { profiles: {}, settings: {} },
  });
  const store = memoryTokenStore();
  return {
    http: () =>
      Promise.resolve({
        baseUrl: "http://127.0.0.1:9",
        request: () => Promise.reject(new TypeError("wires crossed")),
      }),
    settings: () => Promise.resolve(resolved),
    tokenStore: () => Promise.resolve(store),
    tokenStoreStatus: () => Promise.resolve({ kind: "memory", location: "memory", reason: "test" }),
    cwd: Deno.cwd(),
    stateDir: Deno.cwd(),
    poll: {},
    log: () => {},
    info: () => {},
    warn: () => {},
    debug: () => {},
    debugEnabled: false,
    fileRoots: { allowed: [Deno.cwd()], denied: [] },
  };
}

Deno.test("server (in process): a tool that throws, or answers outside its schema, is an isError result; serving goes on", async () => {
  const thrower = defineTool({
    name: "throws",
    title: "Throws",
    description: "Throws a plain error.",
    input: {},
    output: { ok: z.boolean() },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scopes: [],
    login: "none",
    run: () => Promise.reject<{ ok: boolean }>(new RangeError("kaboom")),
  });
  const liar = defineTool({
    name: "liar",
    title: "Liar",
    description: "Answers outside its output schema.",
    input: {},
    output: { ok: z.boolean() },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scopes: [],
    login: "none",
    run: () => Promise.resolve({ ok: "yes" as unknown as boolean }),
  });
  const real = ALL_TOOLS.filter((t) => ["bucket_list", "object_urn"].includes(t.name));
  const server = createServer([thrower, liar, ...real], brokenDeps());
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1" });
  await client.connect(clientSide);
  try {
    const boom = await fails(client, "throws");
    assert.deepEqual([boom.code, boom.message], ["failure", "unexpected error: kaboom"]);
    assert.match(boom.hint, /log \(started with debug\)/);
    const lie = await fails(client, "liar");
    assert.match(lie.message, /does not match the output schema: ok: /);
    const raw = await fails(client, "bucket_list");
    assert.equal(raw.message, "unexpected error: wires crossed");
    const urn = await ok(client, "object_urn", { bucket_key: "abc", object_key: "a b" });
    assert.equal(urn.urn, "dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6YWJjL2EgYg");
  } finally {
    await client.close();
    await server.close();
  }
});

Deno.test("serve: starts without credentials; auth_status and every platform tool say how to set them", async () => {
  const fx = await fixture();
  const env = { ...fx.env };
  delete env.SVC_CLIENT_ID;
  delete env.SVC_CLIENT_SECRET;
  const serve = await startServe(env);
  try {
    const status = await ok(serve.client, "auth_status");
    assert.deepEqual([status.app_credentials, status.client_id], [false, null]);
    assert.match(status.how_to_log_in[0], /SVC_CLIENT_ID and SVC_CLIENT_SECRET/);
    const usable = status.tools.filter((t: { usable: boolean }) => t.usable).map((t: { name: string }) =>
      t.name
    );
    assert.deepEqual(usable, [
      "auth_status",
      "auth_login",
      "toolset_enable",
      "object_urn",
      "webhook_events",
      "webhook_test",
    ]);
    const missing = await fails(serve.client, "bucket_list");
    assert.deepEqual([missing.code, missing.message], ["missing_credentials", "Missing credentials"]);
    assert.match(missing.hint, /SVC_CLIENT_ID/);
  } finally {
    await serve.close();
    await fx.close();
  }
});
