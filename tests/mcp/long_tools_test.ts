/**
 * Long tools through the SDK's client against the sandbox: progress notifications while a
 * translation is waited for and a file uploaded, and `notifications/cancelled` ending the work
 * (no object made by a cancelled upload).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { contextFor } from "../../src/front/root.ts";
import { serveDeps } from "../../src/families/serve/deps.ts";
import { type CallToolResult, Client, ElicitRequestSchema, InMemoryTransport } from "../../src/mcp/sdk.ts";
import { createServer } from "../../src/families/serve/server.ts";
import { ALL_TOOLS } from "../../src/families/serve/tools.ts";
import { captureIo } from "../e2e/capture.ts";
import { FLAGS } from "../ops/helpers.ts";
import { CUBE_OBJ } from "../e2e/md_helpers.ts";
import { addFault } from "../e2e/harness.ts";
import { fixture, ok, type ServeSession, startServe, textOf } from "./helpers.ts";

/** Calls a tool with a progress token; returns its result and the progress messages seen. */
async function withProgress(client: Client, name: string, args: Record<string, unknown>) {
  const seen: { progress: number; total?: number; message?: string }[] = [];
  const result = await client.callTool({ name, arguments: args }, undefined, {
    onprogress: (p) => seen.push(p),
    timeout: 60_000,
  }) as CallToolResult;
  assert.ok(!result.isError, `${name}: ${textOf(result)}`);
  return { value: result.structuredContent as Record<string, unknown>, seen };
}

/** Sets how long the sandbox's translation jobs take. */
async function jobSeconds(url: string, seconds: number): Promise<void> {
  const res = await fetch(`${url}/_sandbox/config`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ job_seconds: seconds }),
  });
  assert.ok(res.ok, await res.text());
}

/**
 * Starts `name` with a progress token, cancels it at its first progress notification, and answers
 * how long the server took from the cancellation to the end of the call (read from its debug log).
 */
async function cancelAtFirstProgress(serve: ServeSession, name: string, args: Record<string, unknown>) {
  const abort = new AbortController();
  let cancelledAt = 0;
  const call = serve.client.callTool({ name, arguments: args }, undefined, {
    signal: abort.signal,
    onprogress: () => {
      if (cancelledAt) return;
      cancelledAt = performance.now();
      abort.abort("the user changed their mind");
    },
    timeout: 60_000,
  });
  await assert.rejects(call, /AbortError|cancel|changed their mind/i);
  const ended = new RegExp(`tool ${name}: \\w+: `);
  while (!ended.test(serve.stderr())) await new Promise((r) => setTimeout(r, 10));
  return performance.now() - cancelledAt;
}

Deno.test("tools: upload, translate with progress notifications, manifest", async () => {
  const fx = await fixture();
  await jobSeconds(fx.url, 0.5);
  const serve = await startServe(fx.env, ["--toolsets", "storage,derivative"]);
  try {
    await Deno.writeTextFile(path.join(fx.home.cwd, "cube.obj"), CUBE_OBJ);
    await ok(serve.client, "bucket_create", { bucket_key: "mcp-long" });
    const up = await withProgress(serve.client, "object_upload", {
      bucket_key: "mcp-long",
      file: "cube.obj",
    });
    assert.ok(up.seen.length > 0, "upload progress");
    assert.equal(up.seen.at(-1)?.progress, up.seen.at(-1)?.total, "the last notification is the whole file");
    const urn = up.value.urn as string;
    await ok(serve.client, "translate_start", { urn, formats: ["obj"] });
    const waited = await withProgress(serve.client, "translate_status", { urn, wait_seconds: 60 });
    assert.equal(waited.value.status, "success");
    assert.ok(waited.seen.length >= 1, "translation progress");
    assert.equal(waited.seen.at(-1)?.progress, 100);
    assert.ok(
      waited.seen.every((p, i) => i === 0 || p.progress >= waited.seen[i - 1].progress),
      "progress only grows",
    );
    const manifest = await ok(serve.client, "translate_manifest", { urn });
    assert.equal(manifest.status, "success");
  } finally {
    await serve.close();
    await fx.close();
  }
});

Deno.test("tools: notifications/cancelled ends a translation wait and an upload within a second; no object is made", async () => {
  const fx = await fixture();
  await jobSeconds(fx.url, 600);
  const serve = await startServe(fx.env, ["--toolsets", "storage,derivative", "--debug"]);
  try {
    await Deno.writeTextFile(path.join(fx.home.cwd, "cube.obj"), CUBE_OBJ);
    await ok(serve.client, "bucket_create", { bucket_key: "mcp-cancel" });
    const { urn } = await ok(serve.client, "object_upload", { bucket_key: "mcp-cancel", file: "cube.obj" });
    await ok(serve.client, "translate_start", { urn, formats: ["obj"] });
    const wait = await cancelAtFirstProgress(serve, "translate_status", { urn, wait_seconds: 120 });
    console.log(`translation wait ended ${wait.toFixed(0)} ms after the cancellation`);
    assert.ok(wait < 1000, `${wait} ms`);

    // Three parts of 8 MiB: the first goes through, the others hang until cancelled.
    await Deno.writeFile(path.join(fx.home.cwd, "big.bin"), new Uint8Array(20 * 1024 * 1024).fill(7));
    await addFault(fx.url, { method: "PUT", path: "/__s3/upload/", delay_ms: 3000, after: 1 });
    const upload = await cancelAtFirstProgress(serve, "object_upload", {
      bucket_key: "mcp-cancel",
      file: "big.bin",
    });
    console.log(`upload ended ${upload.toFixed(0)} ms after the cancellation`);
    assert.ok(upload < 1000, `${upload} ms`);
    const objects = await ok(serve.client, "object_list", { bucket_key: "mcp-cancel" });
    assert.deepEqual(
      objects.items.map((o: { objectKey: string }) => o.objectKey),
      ["cube.obj"],
      "no big.bin",
    );
    const left = [...Deno.readDirSync(fx.home.cwd)].map((e) => e.name).sort();
    assert.deepEqual(left, ["big.bin", "cube.obj"], "no part file beside the source");
  } finally {
    await serve.close();
    await fx.close();
  }
});

Deno.test("destructive tools: a client that declares elicitation is asked; yes deletes, no changes nothing", async () => {
  const fx = await fixture();
  const ctx = await contextFor(captureIo().io, FLAGS, fx.env, fx.home.cwd);
  const server = createServer(ALL_TOOLS, serveDeps(ctx));
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "asks", version: "1" }, { capabilities: { elicitation: {} } });
  const questions: string[] = [];
  let answer = false;
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    questions.push(String(request.params.message));
    return { action: "accept", content: { confirm: answer } };
  });
  await client.connect(clientSide);
  try {
    await ok(client, "bucket_create", { bucket_key: "mcp-asked" });
    const declined = await client.callTool({ name: "bucket_delete", arguments: { bucket_key: "mcp-asked" } });
    assert.equal(declined.isError, true);
    assert.match(textOf(declined as CallToolResult), /the user declined/);
    assert.equal((await ok(client, "bucket_get", { bucket_key: "mcp-asked" })).bucketKey, "mcp-asked");
    answer = true;
    assert.equal((await ok(client, "bucket_delete", { bucket_key: "mcp-asked" })).deleted, true);
    assert.deepEqual(questions, [
      "Delete bucket mcp-asked and every object in it?",
      "Delete bucket mcp-asked and every object in it?",
    ]);
  } finally {
    await client.close();
    await server.close();
    await fx.close();
  }
});
