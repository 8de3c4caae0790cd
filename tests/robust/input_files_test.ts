/**
 * Input files a person names are regular files within a cap (core/input_file.ts): `.env` as a FIFO or
 * as a symlink to /dev/zero, an oversized `--from-file` body, pipeline files at the size limit.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { seedAccount } from "../../src/sandbox/admin/store.ts";
import { openSandboxHome, requestLog } from "../e2e/harness.ts";
import { readInputFile } from "../../src/core/input_file.ts";

const IS_POSIX = Deno.build.os !== "windows";

async function mkfifo(file: string): Promise<void> {
  const out = await new Deno.Command("mkfifo", { args: [file] }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

Deno.test({
  name:
    "item 3: a .env that is a FIFO or a symlink to /dev/zero is a clear error naming it, at once, no request",
  ignore: !IS_POSIX,
  fn: async () => {
    const h = await openSandboxHome();
    try {
      const dotenv = path.join(h.home.cwd, ".env");
      for (
        const [make, kind] of [
          [() => Deno.symlink("/dev/zero", dotenv), /is a character device, not a regular file/],
          [() => mkfifo(dotenv), /is a FIFO \(named pipe\), not a regular file/],
        ] as const
      ) {
        await make();
        for (const argv of [["bucket", "list"], ["config", "profile", "current"], ["auth", "status"]]) {
          const r = await h.run(argv);
          assert.equal(r.code, 2, `${argv.join(" ")}: ${r.stderr}`);
          assert.match(r.stderr, new RegExp(`^error: ${dotenv.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} `));
          assert.match(r.stderr, kind);
          assert.match(r.stderr, /\nhint: diazo reads a \.env file only from a regular file/);
        }
        await Deno.remove(dotenv);
      }
      assert.deepEqual(await requestLog(h.sb.url), [], "no request was sent");
    } finally {
      await h.close();
    }
  },
});

Deno.test("item 6: a 100 MB --from-file body is refused by its size before it is read, no request sent", async () => {
  const h = await openSandboxHome({ DIAZO_NO_BROWSER: "1" });
  try {
    const project = [...seedAccount().projects.values()][0].id;
    const big = path.join(h.home.cwd, "issue.json");
    // A sparse file: 100 MB long, nothing written to disk.
    await Deno.writeFile(big, new Uint8Array(0));
    await Deno.truncate(big, 100 * 1000 * 1000);
    const r = await h.run(["issue", "create", "--project", project, "--from-file", "issue.json"]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^error: issue\.json is 95\.4 MiB: a request body file is at most 1 MiB\n/);
    assert.deepEqual(await requestLog(h.sb.url), [], "no request was sent");
  } finally {
    await h.close();
  }
});

Deno.test("item 6: input files: a small body is read whole; a directory is named, or absent where a caller says so", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = path.join(dir, "small.json");
    await Deno.writeTextFile(file, '{"a":1}');
    assert.equal(new TextDecoder().decode(await readInputFile(file, "body")), '{"a":1}');
    await assert.rejects(readInputFile(dir, "body"), /is a directory, not a regular file/);
    assert.equal(await readInputFile(dir, "dotenv", { directory: "absent" }), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "a key file or a profile export that is a FIFO or oversized is refused by its kind and cap, no request, no change",
  ignore: !IS_POSIX,
  fn: async () => {
    const h = await openSandboxHome();
    try {
      const before = await h.run(["config", "profile", "list", "-o", "json"]);
      await mkfifo(path.join(h.home.cwd, "key.pem"));
      const key = await h.run(["auth", "login", "--service-account", "sa-1", "--key-file", "key.pem"]);
      assert.equal(key.code, 2, key.stderr);
      assert.match(key.stderr, /^error: key\.pem is a FIFO \(named pipe\), not a regular file\n/);
      assert.match(key.stderr, /\nhint: diazo reads a private key file only from a regular file/);
      const big = path.join(h.home.cwd, "profiles.json");
      await Deno.writeFile(big, new Uint8Array(0));
      await Deno.truncate(big, 2 * 1024 * 1024);
      const imported = await h.run(["config", "profile", "import", "profiles.json"]);
      assert.equal(imported.code, 2, imported.stderr);
      assert.match(
        imported.stderr,
        /^error: profiles\.json is 2\.0 MiB: a profile export file is at most 1 MiB\n/,
      );
      assert.deepEqual(await requestLog(h.sb.url), [], "no request was sent");
      assert.equal((await h.run(["config", "profile", "list", "-o", "json"])).stdout, before.stdout);
      // Missing files keep their own error.
      const missing = await h.run(["config", "profile", "import", "nope.json"]);
      assert.equal(missing.code, 2, missing.stderr);
      assert.match(missing.stderr, /nope\.json/);
    } finally {
      await h.close();
    }
  },
});
