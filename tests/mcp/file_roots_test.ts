/**
 * The tool server touches local files only inside its allowed roots (`serve --allow-dir`, default the
 * working directory), never inside diazo's config or state dir, with symlinks resolved first.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { isDiazoError } from "../../src/core/errors.ts";
import { toolFile } from "../../src/session/file_roots.ts";
import { fails, fixture, ok, startServe } from "./helpers.ts";

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string; exitCode: number }> {
  try {
    await p;
  } catch (e) {
    assert.ok(isDiazoError(e), String(e));
    return e;
  }
  throw new Error("expected a refusal");
}

Deno.test("toolFile: inside an allowed root yes; outside, inside a denied root, or through a symlink out of it no", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "diazo-roots-" }));
  try {
    const work = path.join(dir, "work");
    const config = path.join(work, ".config", "diazo"); // a denied dir inside the allowed one
    await Deno.mkdir(config, { recursive: true });
    await Deno.writeTextFile(path.join(work, "model.obj"), "v 0 0 0\n");
    await Deno.writeTextFile(path.join(config, "tokens.json"), "{}");
    await Deno.writeTextFile(path.join(dir, "outside.txt"), "x");
    await Deno.symlink(path.join(config, "tokens.json"), path.join(work, "innocent.obj"));
    await Deno.symlink(path.join(dir, "outside.txt"), path.join(work, "link-out.obj"));
    const roots = { allowed: [work], denied: [config] };

    assert.equal(await toolFile("model.obj", work, roots), path.join(work, "model.obj"));
    const out = await refusal(toolFile("../outside.txt", work, roots));
    assert.equal(out.exitCode, 2);
    assert.match(out.message, /outside the directories it was allowed/);
    assert.match(
      (await refusal(toolFile(path.join(config, "tokens.json"), work, roots))).message,
      /configuration or state/,
    );
    assert.match((await refusal(toolFile("innocent.obj", work, roots))).message, /configuration or state/);
    assert.match((await refusal(toolFile("link-out.obj", work, roots))).message, /outside the directories/);
    assert.equal((await refusal(toolFile("missing.obj", work, roots))).code, "file_not_found");
    assert.equal(
      await toolFile("../outside.txt", work, { allowed: [work, dir], denied: [config] }),
      path.join(dir, "outside.txt"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serve: object_upload refuses diazo's token file and files outside the working dir; --allow-dir adds a root", async () => {
  const fx = await fixture();
  try {
    await Deno.writeTextFile(path.join(fx.home.cwd, "cube.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    const other = path.join(fx.home.dir, "models");
    await Deno.mkdir(other);
    await Deno.writeTextFile(path.join(other, "far.obj"), "v 0 0 0\n");
    let serve = await startServe(fx.env);
    try {
      await ok(serve.client, "bucket_create", { bucket_key: "mcp-roots" });
      // A first call stores a token in the config dir: exactly what a tool must never publish.
      const tokens = path.join(fx.home.configDir, "tokens.json");
      await Deno.stat(tokens);
      const stolen = await fails(serve.client, "object_upload", { bucket_key: "mcp-roots", file: tokens });
      assert.equal(stolen.code, "usage");
      assert.match(stolen.message, /may not use .*tokens\.json/);
      const far = await fails(serve.client, "object_upload", {
        bucket_key: "mcp-roots",
        file: path.join(other, "far.obj"),
      });
      assert.match(far.message, /outside the directories it was allowed/);
      assert.match(far.hint, /allow-dir option of `diazo serve`/);
      assert.doesNotMatch(far.hint, /--/);
      const up = await ok(serve.client, "object_upload", { bucket_key: "mcp-roots", file: "cube.obj" });
      assert.equal(up.objectKey, "cube.obj");
    } finally {
      await serve.close();
    }
    serve = await startServe(fx.env, ["--allow-dir", other]);
    try {
      const up = await ok(serve.client, "object_upload", {
        bucket_key: "mcp-roots",
        file: path.join(other, "far.obj"),
      });
      assert.equal(up.objectKey, "far.obj");
      await fails(serve.client, "object_upload", { bucket_key: "mcp-roots", file: "cube.obj" }); // cwd no longer allowed
    } finally {
      await serve.close();
    }
  } finally {
    await fx.close();
  }
});
