/**
 * `translate_start` through the SDK's client: it says the job was queued (with the platform's status
 * while it runs), never "success" for a job that has not ended, and its description sends the model to
 * translate_status; a design translated already answers so.
 */
import assert from "node:assert/strict";
import path from "node:path";
import type { CallToolResult } from "../../src/mcp/sdk.ts";
import { CUBE_OBJ } from "../e2e/md_helpers.ts";
import { fixture, ok, startServe, textOf } from "./helpers.ts";

Deno.test("translate_start answers queued with the job's status, and translate_status is how to follow it", async () => {
  const fx = await fixture();
  const config = await fetch(`${fx.url}/_sandbox/config`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ job_seconds: 3 }),
  });
  assert.ok(config.ok, await config.text());
  const serve = await startServe(fx.env, ["--toolsets", "storage,derivative"]);
  try {
    const { tools } = await serve.client.listTools();
    const tool = tools.find((t) => t.name === "translate_start")!;
    assert.match(tool.description ?? "", /only queues the job.*Poll translate_status/s);
    assert.deepEqual(
      (tool.outputSchema?.properties?.result as { enum?: string[] }).enum,
      ["queued", "already_translated"],
    );

    await Deno.writeTextFile(path.join(fx.home.cwd, "cube.obj"), CUBE_OBJ);
    await ok(serve.client, "bucket_create", { bucket_key: "mcp-start" });
    const { urn } = await ok(serve.client, "object_upload", { bucket_key: "mcp-start", file: "cube.obj" });

    const raw = await serve.client.callTool({
      name: "translate_start",
      arguments: { urn, formats: ["obj"] },
    }) as CallToolResult;
    assert.ok(!raw.isError, textOf(raw));
    const started = raw.structuredContent as Record<string, unknown>;
    assert.equal(started.result, "queued");
    assert.ok(["pending", "inprogress"].includes(started.status as string), JSON.stringify(started));
    assert.equal(started.done, false);
    assert.equal(started.alreadyTranslated, false);
    assert.doesNotMatch(JSON.stringify(raw), /success/, "nothing says success for a job still running");

    const done = await ok(serve.client, "translate_status", { urn, wait_seconds: 60 });
    assert.deepEqual([done.status, done.done], ["success", true]);

    const again = await ok(serve.client, "translate_start", { urn, formats: ["obj"] });
    assert.deepEqual([again.result, again.status, again.done, again.alreadyTranslated], [
      "already_translated",
      "success",
      true,
      true,
    ]);
  } finally {
    await serve.close();
    await fx.close();
  }
});
