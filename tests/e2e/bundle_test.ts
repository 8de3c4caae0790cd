/**
 * Self-containment: the output of `deno task bundle` runs with an EMPTY Deno cache, no network
 * (Linux: a network namespace of its own via `unshare`), and exactly the permissions the compiled
 * binary gets — through --version, --help, `sandbox`, the demo's upload/translate flow against that
 * sandbox, and `serve` answering tools/list. A module or permission the binary would miss fails here.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { ROOT } from "./harness.ts";

async function ok(cmd: string, args: string[]): Promise<boolean> {
  try {
    return (await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output()).success;
  } catch {
    return false;
  }
}

/** The argv prefix that runs a command in a fresh network namespace with loopback up, or why there is none. */
async function isolation(): Promise<{ prefix: string[] } | { reason: string }> {
  if (Deno.build.os !== "linux") return { reason: `no network namespaces on ${Deno.build.os}` };
  const up = 'ip link set lo up && exec "$@"';
  for (const flags of [["-n"], ["-rn"]]) {
    if (await ok("unshare", [...flags, "sh", "-c", up, "sh", "true"])) {
      return { prefix: ["unshare", ...flags, "sh", "-c", up, "sh"] };
    }
  }
  return { reason: "`unshare -n` (or -rn) with `ip link set lo up` is not permitted here" };
}

Deno.test("the bundle runs self-contained: empty cache, no network, the compile permissions; version, help, sandbox, demo flow, serve", async () => {
  const bundled = await new Deno.Command(Deno.execPath(), {
    args: ["task", "bundle"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  assert.equal(bundled.code, 0, new TextDecoder().decode(bundled.stderr));
  const work = await Deno.makeTempDir({ prefix: "diazo-bundle-" });
  try {
    // The split bundle (scripts/build.ts --bundle: dist/bundle/diazo.js and its chunks), else the one file.
    const split = path.join(ROOT, "dist/bundle");
    const files = await Deno.stat(path.join(split, "diazo.js")).then(
      () =>
        [...Deno.readDirSync(split)].filter((e) => e.name.endsWith(".js")).map((e) =>
          path.join(split, e.name)
        ),
      () => [path.join(ROOT, "dist/diazo.js")],
    );
    for (const file of files) await Deno.copyFile(file, path.join(work, path.basename(file)));
    const bundle = path.join(work, "diazo.js");
    const emptyDenoDir = path.join(work, "deno-dir");
    await Deno.mkdir(emptyDenoDir);
    const home = path.join(work, "home");
    await Deno.mkdir(home);

    const iso = await isolation();
    if ("reason" in iso) {
      console.log(`network isolation skipped: ${iso.reason}; the empty cache is still checked`);
    }
    const flow = [
      Deno.execPath(),
      "run",
      "--allow-all",
      path.join(ROOT, "tests/e2e/bundle_flow.ts"),
      bundle,
      emptyDenoDir,
      home,
    ];
    const argv = "prefix" in iso ? [...iso.prefix, ...flow] : flow;
    const out = await new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped", stderr: "piped" })
      .output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    const s = JSON.parse(new TextDecoder().decode(out.stdout));
    type Run = { code: number; stdout: string; stderr: string };

    if ("prefix" in iso) {
      assert.equal(s.networkBlocked, true, "inside the namespace nothing outside is reachable");
    }
    const version = s.version as Run;
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^diazo \d+\.\d+\.\d+ /);
    const help = s.help as Run;
    assert.equal(help.code, 0, help.stderr);
    for (const family of ["bucket", "object", "translate", "sandbox", "serve", "completions", "version"]) {
      assert.match(help.stdout, new RegExp(`\\n  ${family}\\b`), `--help lists ${family}`);
    }

    assert.match(s.sandboxUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    const demo = s.demo as Run;
    assert.equal(demo.code, 0, demo.stderr);
    const result = JSON.parse(demo.stdout) as {
      sandbox: boolean;
      steps: { ok: boolean }[];
      manifest: { status: string };
    };
    assert.equal(
      result.sandbox,
      false,
      "the demo ran against the sandbox started above, not an in-process one",
    );
    assert.ok(result.steps.length >= 7 && result.steps.every((st) => st.ok));
    assert.equal(result.manifest.status, "success");
    const requests = s.sandboxRequests as string[];
    assert.ok(requests.includes("POST /oss/v2/buckets"), requests.join("\n"));
    assert.ok(
      requests.some((r) => /^POST \/oss\/v2\/buckets\/[^/]+\/objects\/[^/]+\/signeds3upload$/.test(r)),
      "an upload",
    );
    assert.ok(
      requests.some((r) => /^POST .*\/modelderivative\/v2\/designdata\/job/.test(r)),
      "a translation job",
    );
    if (Deno.build.os !== "windows") assert.equal(s.sandboxExit, 0, "SIGTERM stops the sandbox cleanly");

    const serve = s.serve as { names: string[]; stderr: string };
    for (const tool of ["auth_test", "bucket_list", "object_list"]) {
      assert.ok(serve.names.includes(tool), `tools/list has ${tool}: ${serve.names} ${serve.stderr}`);
    }
    if (Deno.build.os !== "windows") {
      // Every family loads and answers from the bundle (its modules and permissions are all there).
      const families = s.families as Run;
      assert.equal(families.code, 0, `${families.stdout}\n${families.stderr}`);
      const lines = families.stdout.trim().split("\n");
      assert.ok(lines.length >= 30 && lines.every((l) => l.startsWith("ok ")), families.stdout);
    }
    assert.deepEqual(
      s.npmCacheEntries.filter((e: string) => e !== ".deno_sync_lock"),
      [],
      "no npm package was fetched",
    );
  } finally {
    await Deno.remove(work, { recursive: true });
  }
});
