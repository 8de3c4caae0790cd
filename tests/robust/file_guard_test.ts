/** The tool server's file guard compares files by identity: a hard link to tokens.json is refused. */
import assert from "node:assert/strict";
import path from "node:path";
import { isDiazoError } from "../../src/core/errors.ts";
import { rememberProtected, toolFile } from "../../src/session/file_roots.ts";
import { fails, fixture, ok, startServe } from "../mcp/helpers.ts";

/** A scratch folder with `work` (allowed) and `config` (denied) inside, as the tool server sees them. */
async function guardDirs(): Promise<{ dir: string; work: string; config: string }> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "diazo-guard-" }));
  const work = path.join(dir, "work");
  const config = path.join(dir, "config");
  await Deno.mkdir(work, { recursive: true });
  await Deno.mkdir(config, { recursive: true });
  return { dir, work, config };
}

Deno.test({
  name: "item 12: toolFile refuses a hard link to a file of the config dir; other hard-linked files pass",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const { dir, work, config } = await guardDirs();
    try {
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

Deno.test({
  name: "item 15: a hard link left from before tokens.json was rewritten (atomically) is still refused",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const { dir, work, config } = await guardDirs();
    try {
      const tokens = path.join(config, "tokens.json");
      await Deno.writeTextFile(tokens, '{"secret":"old"}');
      const roots = { allowed: [work], denied: [config], seen: new Set<string>() };
      await rememberProtected(roots); // as `diazo serve` does when it starts
      await Deno.link(tokens, path.join(work, "stale.obj"));
      // The token store's atomic rewrite: a new file renamed over the old one; the link keeps the old file.
      await Deno.writeTextFile(path.join(config, "tokens.json.tmp"), '{"secret":"new"}');
      await Deno.rename(path.join(config, "tokens.json.tmp"), tokens);
      assert.equal(
        (await Deno.stat(path.join(work, "stale.obj"))).nlink,
        1,
        "the stale link is the old file's only name",
      );
      const refused = await toolFile("stale.obj", work, roots).catch((e) => e);
      assert.ok(isDiazoError(refused), `the stale link was let through: ${refused}`);
      assert.match(
        refused.message,
        /may not use stale\.obj: it is a hard link to a file in diazo's configuration/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("item 15: a path outside the roots is refused alike whether it exists or not (no path oracle)", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "diazo-guard-" }));
  try {
    const work = path.join(dir, "work");
    const outside = path.join(dir, "outside");
    await Deno.mkdir(work, { recursive: true });
    await Deno.mkdir(outside, { recursive: true });
    const roots = { allowed: [work], denied: [path.join(dir, "config")] };
    const refusal = async (p: string) => {
      const e = await toolFile(p, work, roots).catch((e) => e);
      assert.ok(isDiazoError(e), `${p} was let through`);
      return [e.code, e.message.replace(p, "<path>"), e.hint];
    };
    assert.deepEqual(await refusal(outside), await refusal(path.join(dir, "no-such-dir")));
    assert.deepEqual(
      await refusal(path.join(outside, "x.obj")),
      await refusal(path.join(dir, "nope", "x.obj")),
    );
    // Inside the roots, a missing file is still named as missing.
    const missing = await toolFile("missing.obj", work, roots).catch((e) => e);
    assert.equal(missing.code, "file_not_found");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
