/** e2e: `diazo generate` writes exact files, reports their SHA-1, and rejects bad input with exit 2. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import path from "node:path";
import { assertUsageError, cliEnv, diazo, json, makeHome } from "./harness.ts";

Deno.test("generate writes a 3 MiB file whose size and SHA-1 match the JSON summary", async () => {
  const home = await makeHome();
  try {
    const env = cliEnv(home);
    const r = await diazo(["generate", "obj", "--size", "3MiB", "--output", "json"], { env, cwd: home.cwd });
    assert.equal(r.code, 0, r.stderr);
    const out = json<{ file: string; format: string; size: number; sha1: string; objects: number }>(r);
    assert.equal(out.file, path.join(home.cwd, "model.obj"));
    assert.equal(out.format, "obj");
    assert.equal(out.size, 3 * 2 ** 20);
    const bytes = await Deno.readFile(out.file);
    assert.equal(bytes.length, 3 * 2 ** 20);
    assert.equal(createHash("sha1").update(bytes).digest("hex"), out.sha1);
    const text = new TextDecoder().decode(bytes);
    assert.equal(text.match(/^o /gm)?.length, out.objects);

    // The same file again is refused without --force, and nothing is changed.
    const again = await diazo(["generate", "obj", "--size", "1KB"], { env, cwd: home.cwd });
    assertUsageError(again, /model\.obj already exists/);
    assert.match(again.stderr, /--force/);
    assert.equal((await Deno.stat(out.file)).size, 3 * 2 ** 20);
    const forced = await diazo(["generate", "obj", "--size", "1KB", "--force", "--output", "json"], {
      env,
      cwd: home.cwd,
    });
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal((await Deno.stat(out.file)).size, 1000);
    const names = [...Deno.readDirSync(home.cwd)].map((e) => e.name);
    assert.deepEqual(names, ["model.obj"], "no temp files left");
  } finally {
    await home.cleanup();
  }
});

Deno.test("generate --out names the file, --out - streams to stdout with the summary on stderr", async () => {
  const home = await makeHome();
  try {
    const env = cliEnv(home);
    const r = await diazo([
      "generate",
      "ifc",
      "--size",
      "20000",
      "--seed",
      "3",
      "--out",
      "tower.ifc",
      "--output",
      "json",
    ], {
      env,
      cwd: home.cwd,
    });
    assert.equal(r.code, 0, r.stderr);
    const out = json<{ file: string; sha1: string; objects: number }>(r);
    assert.equal(out.file, path.join(home.cwd, "tower.ifc"));
    const file = await Deno.readFile(out.file);

    const piped = await diazo(["generate", "ifc", "--size", "20000", "--seed", "3", "--out", "-"], {
      env,
      cwd: home.cwd,
    });
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stdout, new TextDecoder().decode(file), "same seed, same bytes");
    assert.match(piped.stdout, /^ISO-10303-21;\n[\s\S]*END-ISO-10303-21;\n$/);
    assert.match(piped.stderr, new RegExp(`sha1 ${out.sha1}`));
    assert.doesNotMatch(piped.stderr, /^\{/m, "no JSON summary mixed into the data");
  } finally {
    await home.cleanup();
  }
});

Deno.test("generate: bad size, unknown format, too small, bad counts are usage errors", async () => {
  const home = await makeHome();
  try {
    const env = cliEnv(home);
    const run = (args: string[]) => diazo(["generate", ...args], { env, cwd: home.cwd });
    assertUsageError(await run(["obj", "--size", "0"]), /--size must be at least 1 byte/);
    assertUsageError(await run(["obj", "--size", "12XB"]), /invalid size '12XB'/);
    assertUsageError(await run(["step", "--size", "1MB"]), /unknown format 'step'/);
    assertUsageError(await run(["stl", "--size", "100"]), /below the smallest valid stl file/);
    assertUsageError(await run(["dxf", "--size", "10KB", "--objects", "500"]), /too small for 500 objects/);
    assertUsageError(await run(["obj", "--objects", "0"]), /--objects must be a positive integer/);
    assertUsageError(await run(["obj", "--seed", "-1"]), /--seed must be a whole number/);
    assert.deepEqual([...Deno.readDirSync(home.cwd)], [], "nothing written");
  } finally {
    await home.cleanup();
  }
});
