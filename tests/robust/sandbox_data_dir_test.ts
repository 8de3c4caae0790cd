/**
 * `diazo sandbox --data-dir` (and `--data`) given a directory of the user's: refused before a file is
 * written, where it used to be taken as it was (a home directory too) and a restore removed files
 * made there after the snapshot. A new, empty or sandbox-made directory is taken and marked.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DiazoError } from "../../src/core/errors.ts";
import { startSandbox } from "../../src/sandbox/server.ts";
import { cliEnv, makeHome, spawnChild } from "../e2e/harness.ts";
import { testSigningKey } from "../e2e/test_sandbox.ts";
import { control } from "../sandbox/helpers.ts";

/** The file that marks a sandbox's data dir (src/sandbox/data_dir.ts). */
const DATA_DIR_MARKER = ".diazo-sandbox";

/** A directory like a home: files and a folder of the user's. */
async function usersDir(parent: string): Promise<string> {
  const dir = join(parent, "home");
  await Deno.mkdir(join(dir, "Documents"), { recursive: true });
  await Deno.writeTextFile(join(dir, "notes.txt"), "mine");
  await Deno.writeTextFile(join(dir, "Documents", "thesis.md"), "mine too");
  return dir;
}

async function assertUntouched(dir: string): Promise<void> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  assert.deepEqual(names.sort(), ["Documents", "notes.txt"]);
  assert.equal(await Deno.readTextFile(join(dir, "Documents", "thesis.md")), "mine too");
}

Deno.test("sandbox data dir: a directory of the user's is refused (exit 2) and left as it was", async () => {
  const home = await makeHome();
  try {
    const dir = await usersDir(home.dir);
    const started = await startSandbox({
      port: 0,
      dataDir: dir,
      persist: true,
      signingKey: await testSigningKey(),
    })
      .then(async (sb) => (await sb.close(), "started"), (e) => e);
    assert.ok(started instanceof DiazoError, `the sandbox ${String(started)} on a directory of the user's`);
    assert.equal(started.exitCode, 2);
    await assertUntouched(dir);

    for (const option of ["--data-dir", "--data"]) {
      // A start that serves prints its URL and is stopped here: only a refusal ends on its own.
      const child = spawnChild(["sandbox", "--port", "0", option, dir], { env: cliEnv(home) });
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      const first = await reader.read();
      if (!first.done) {
        child.kill("SIGTERM");
        await child.status;
        await child.stderr.cancel();
        assert.fail(`${option} ${dir} started a sandbox: ${first.value}`);
      }
      const stderr = await new Response(child.stderr).text();
      const { code } = await child.status;
      assert.equal(code, 2, stderr);
      const lines = stderr.trimEnd().split("\n");
      assert.equal(lines.length, 2, stderr);
      assert.match(
        lines[0],
        /^error: the data dir .*home is not empty and is not a sandbox's \(it holds 'Documents', 'notes\.txt'\)$/,
      );
      assert.match(lines[1], /^hint: Give `diazo sandbox --data-dir` a new or empty directory/);
      await assertUntouched(dir);
    }
  } finally {
    await home.cleanup();
  }
});

Deno.test("sandbox data dir: a restore touches only the sandbox's own files", async () => {
  const parent = await Deno.makeTempDir({ prefix: "diazo-datadir-" });
  const dir = join(parent, "data");
  const sb = await startSandbox({ port: 0, dataDir: dir, persist: true, signingKey: await testSigningKey() });
  try {
    assert.equal((await control(sb, "POST", "snapshot", { name: "before" })).status, 201);
    // Made in the data dir after the snapshot, by someone else than the sandbox.
    await Deno.writeTextFile(join(dir, "mine.txt"), "made after the snapshot");
    await Deno.mkdir(join(dir, "notes"));
    await Deno.writeTextFile(join(dir, "notes", "a.md"), "a note");
    assert.equal((await control(sb, "POST", "restore", { name: "before" })).status, 200);
    assert.equal(await Deno.readTextFile(join(dir, "mine.txt")), "made after the snapshot");
    assert.equal(await Deno.readTextFile(join(dir, "notes", "a.md")), "a note");
    assert.equal((await control(sb, "POST", "reset")).status, 200);
    assert.equal(await Deno.readTextFile(join(dir, "mine.txt")), "made after the snapshot");
  } finally {
    await sb.close();
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("sandbox data dir: a new, an empty, a volume's and an earlier sandbox's directory are taken and marked", async () => {
  const parent = await Deno.makeTempDir({ prefix: "diazo-datadir-" });
  try {
    const fresh = join(parent, "new", "data");
    const empty = join(parent, "empty");
    const volume = join(parent, "volume");
    const earlier = join(parent, "earlier");
    await Deno.mkdir(empty);
    await Deno.mkdir(join(volume, "lost+found"), { recursive: true });
    await Deno.mkdir(join(earlier, "state"), { recursive: true });
    await Deno.mkdir(join(earlier, "objects"));
    for (const dir of [fresh, empty, volume, earlier]) {
      const sb = await startSandbox({
        port: 0,
        dataDir: dir,
        persist: true,
        signingKey: await testSigningKey(),
      });
      await sb.close();
      assert.ok((await Deno.stat(join(dir, DATA_DIR_MARKER))).isFile, `${dir} is marked`);
      // Marked, it is taken again whatever else it then holds.
      await Deno.writeTextFile(join(dir, "README.txt"), "written by the user later");
      const again = await startSandbox({
        port: 0,
        dataDir: dir,
        persist: true,
        signingKey: await testSigningKey(),
      });
      await again.close();
    }
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
