/**
 * Setup that works the first time: `serve --print-config` reproduces the running configuration (every
 * flag, an `env` block with the platform address, secrets only named), the printed command reaches the
 * sandbox once its secret is filled in, and relative file paths resolve against the first allowed
 * directory.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { Client, StdioClientTransport } from "../../src/mcp/sdk.ts";
import { fillIn } from "../../src/families/serve/client_config.ts";
import { spawnDiazo } from "../e2e/harness.ts";
import { CUBE_OBJ } from "../e2e/md_helpers.ts";
import { fails, fixture, ok, startServe } from "./helpers.ts";

Deno.test("serve --print-config claude --allow-dir D --toolsets X --read-only: every flag and an env block; the printed command reaches the sandbox", async () => {
  const fx = await fixture();
  const dir = path.join(fx.home.cwd, "models");
  await Deno.mkdir(dir);
  try {
    const args = [
      "serve",
      "--print-config",
      "claude",
      "--allow-dir",
      "models",
      "--toolsets",
      "storage",
      "--read-only",
    ];
    const r = await spawnDiazo(args, { env: fx.env, cwd: fx.home.cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes(fx.env.SVC_CLIENT_SECRET), "no secret in the entry");
    const entry = JSON.parse(r.stdout).mcpServers.diazo;
    const served = entry.args.slice(entry.args.indexOf("serve"));
    assert.deepEqual(served, [
      "serve",
      "--toolsets",
      "storage",
      "--read-only",
      "--allow-dir",
      await Deno.realPath(dir),
    ]);
    assert.equal(entry.env.DIAZO_BASE_URL, fx.url, "the platform address of the shell that printed it");
    assert.equal(entry.env.SVC_CLIENT_SECRET, fillIn("SVC_CLIENT_SECRET"));
    assert.equal(entry.env.DIAZO_CONFIG_DIR, fx.env.DIAZO_CONFIG_DIR);

    // The user fills the secret in; the assistant starts the entry as it is.
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(entry.env as Record<string, string>)) {
      env[k] = v === fillIn(k) ? fx.env[k] : v;
    }
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env,
      stderr: "pipe",
    });
    const client = new Client({ name: "printed", version: "1" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.every((t) => t.annotations?.readOnlyHint), "read-only");
      assert.ok(tools.some((t) => t.name === "bucket_list") && !tools.some((t) => t.name === "hub_list"));
      const listed = await ok(client, "bucket_list", {});
      assert.equal(listed.has_more, false, "the sandbox answered");
    } finally {
      await client.close();
    }
    for (const other of ["claude-code", "cursor", "vscode"]) {
      const o = await spawnDiazo(["serve", "--print-config", other], { env: fx.env, cwd: fx.home.cwd });
      const cfg = JSON.parse(o.stdout);
      const e = other === "vscode" ? cfg.servers.diazo : cfg.mcpServers.diazo;
      assert.equal(e.env.DIAZO_BASE_URL, fx.url, other);
    }
  } finally {
    await fx.close();
  }
});

Deno.test("serve --allow-dir D: a relative file is read from D, not the working directory; a missing one names D", async () => {
  const fx = await fixture();
  const dir = path.join(fx.home.cwd, "..", "models");
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(path.join(dir, "cube.obj"), CUBE_OBJ);
  const serve = await startServe(fx.env, ["--allow-dir", dir]);
  try {
    await ok(serve.client, "bucket_create", { bucket_key: "seat-rel" });
    const up = await ok(serve.client, "object_upload", { bucket_key: "seat-rel", file: "cube.obj" });
    assert.equal(up.objectKey, "cube.obj");
    const missing = await fails(serve.client, "object_upload", { bucket_key: "seat-rel", file: "nope.obj" });
    assert.equal(missing.code, "file_not_found");
    assert.ok(missing.hint.includes(await Deno.realPath(dir)) || missing.hint.includes(dir), missing.hint);
  } finally {
    await serve.close();
    await fx.close();
  }
});
