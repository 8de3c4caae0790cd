/** The tool server's file guard compares files by identity: a hard link to tokens.json is refused. */
import assert from "node:assert/strict";
import path from "node:path";
import { isDiazoError } from "../../src/core/errors.ts";
import { toolFile } from "../../src/session/file_roots.ts";
import { fails, fixture, ok, startServe } from "../mcp/helpers.ts";

Deno.test({
  name: "item 12: toolFile refuses a hard link to a file of the config dir; other hard-linked files pass",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "diazo-guard-" }));
    try {
      const work = path.join(dir, "work");
      const config = path.join(dir, "config");
      await Deno.mkdir(work, { recursive: true });
      await Deno.mkdir(config, { recursive: true });
      await Deno.writeTextFile(path.join(config, "tokens.json"), '{"secret":1}');
      await Deno.link(path.join(config, "tokens.json"), path.join(work, "innocent.obj"));
      await Deno.writeTextFile(path.join(work, "model.obj"), "v 0 0 0\n");
      await Deno.link(path.join(work, "model.obj"), path.join(work, "model-copy.obj"));
      const roots = { allowed: [work], denied: [config] };
      const refused = await toolFile("innocent.obj", work, roots).catch((e) => e);
      assert.ok(isDiazoError(refused), String(refused));
      assert.match(
        refused.message,
        /may not use innocent\.obj: it is a hard link to a file in diazo's configuration/,
      );
      assert.equal(await toolFile("model-copy.obj", work, roots), path.join(work, "model-copy.obj"));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "item 12: serve's object_upload of a hard link to tokens.json is refused; nothing is uploaded",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const fx = await fixture();
    try {
      const serve = await startServe(fx.env);
      try {
        await ok(serve.client, "bucket_create", { bucket_key: "mcp-guard" });
        const tokens = path.join(fx.home.configDir, "tokens.json");
        await Deno.stat(tokens);
        await Deno.link(tokens, path.join(fx.home.cwd, "innocent.obj"));
        const stolen = await fails(serve.client, "object_upload", {
          bucket_key: "mcp-guard",
          file: "innocent.obj",
        });
        assert.equal(stolen.code, "usage");
        assert.match(stolen.message, /hard link to a file in diazo's configuration or state directory/);
        const list = await ok(serve.client, "object_list", { bucket_key: "mcp-guard" });
        assert.equal(JSON.stringify(list).includes("innocent.obj"), false);
      } finally {
        await serve.close();
      }
    } finally {
      await fx.close();
    }
  },
});
