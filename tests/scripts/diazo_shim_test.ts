/**
 * `scripts/diazo`, the command from the clone (README.md, "Quick start from source"): run through a
 * symlink from a directory outside the repository, it answers, prints no task banner, and a relative
 * path it writes lands in the caller's working directory.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { cliEnv, diazo, makeHome, ROOT, runProcess, sandboxEnv, startTestSandbox } from "../e2e/harness.ts";
import { VERSION } from "../../src/core/version.ts";

const posix = Deno.build.os !== "windows";

/** A home outside the repository with `bin/diazo`, a symlink to the shim, as the README makes it. */
async function linkedHome() {
  const home = await makeHome();
  assert.ok(!home.dir.startsWith(ROOT), "the test runs outside the repository");
  const link = path.join(home.dir, "bin", "diazo");
  await Deno.mkdir(path.dirname(link));
  await Deno.symlink(path.join(ROOT, "scripts", "diazo"), link);
  return { home, link };
}

Deno.test("scripts/diazo through a symlink, outside the repository: --version, and no Task banner", {
  ignore: !posix,
}, async () => {
  const { home, link } = await linkedHome();
  try {
    const r = await runProcess(link, ["--version"], { env: cliEnv(home), cwd: home.cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^diazo ${VERSION.replaceAll(".", "\\.")}\\b`));
    assert.doesNotMatch(r.stderr, /Task/);
    assert.equal(r.stderr, "");
  } finally {
    await home.cleanup();
  }
});

Deno.test(
  "scripts/diazo writes relative paths in the caller's directory: generate --out and object download --out",
  {
    ignore: !posix,
  },
  async () => {
    const { home, link } = await linkedHome();
    const sb = await startTestSandbox();
    try {
      const env = sandboxEnv(home, sb.url);
      const made = await runProcess(link, ["generate", "obj", "--size", "16KiB", "--out", "rel.obj"], {
        env,
        cwd: home.cwd,
      });
      assert.equal(made.code, 0, made.stderr);
      assert.doesNotMatch(made.stderr, /Task/);
      assert.equal((await Deno.stat(path.join(home.cwd, "rel.obj"))).size, 16 * 1024);
      for (
        const args of [
          ["bucket", "create", "--key", "shim-bucket"],
          ["object", "upload", "shim-bucket", "rel.obj"],
        ]
      ) {
        const r = await diazo(args, { env, cwd: home.cwd });
        assert.equal(r.code, 0, r.stderr);
      }
      await Deno.mkdir(path.join(home.cwd, "sub"));
      const got = await runProcess(link, [
        "object",
        "download",
        "shim-bucket",
        "rel.obj",
        "--out",
        "back.obj",
      ], {
        env,
        cwd: path.join(home.cwd, "sub"),
      });
      assert.equal(got.code, 0, got.stderr);
      assert.doesNotMatch(got.stderr, /Task/);
      assert.equal((await Deno.stat(path.join(home.cwd, "sub", "back.obj"))).size, 16 * 1024);
      await assert.rejects(Deno.stat(path.join(ROOT, "back.obj")), Deno.errors.NotFound);
    } finally {
      await sb.close();
      await home.cleanup();
    }
  },
);
