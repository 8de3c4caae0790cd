/**
 * scripts/build.ts: its pure parts, the one-line failure when the Deno runtime cannot be downloaded,
 * and what a compile embeds (every lazily imported module) — checked with the full deno binary as
 * DENORT_BIN, which makes `deno compile` finish offline and print its embed report.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import {
  binaryName,
  buildDate,
  BUNDLE_ENTRY,
  COMPILE_PERMISSIONS,
  compileConfig,
  compilePermissions,
  explainCompileFailure,
  parseBuildArgs,
  sbomName,
  TARGETS,
  withBuildDate,
} from "../../scripts/build.ts";
import { parseSha256Sums, sha256Hex } from "../../scripts/release_files.ts";
import { VERSION } from "../../src/core/version.ts";
import { ROOT } from "../e2e/harness.ts";

const BUILD = path.join(ROOT, "scripts/build.ts");

Deno.test("binary names, build date and the version agree with deno.json", async () => {
  assert.equal(binaryName("1.2.3", "x86_64-pc-windows-msvc"), "diazo-1.2.3-x86_64-pc-windows-msvc.exe");
  assert.equal(binaryName("1.2.3", "aarch64-apple-darwin"), "diazo-1.2.3-aarch64-apple-darwin");
  assert.equal(sbomName("1.2.3"), "diazo-1.2.3.cdx.json");
  assert.equal(buildDate("1700000000", new Date("2030-01-01T00:00:00Z")), "2023-11-14");
  assert.equal(buildDate(undefined, new Date("2030-01-01T23:59:59Z")), "2030-01-01");
  const config = JSON.parse(await Deno.readTextFile(path.join(ROOT, "deno.json")));
  assert.equal(VERSION, config.version, "src/core/version.ts VERSION must equal deno.json's version");
  assert.ok(TARGETS.includes("aarch64-pc-windows-msvc"));
});

Deno.test("withBuildDate rewrites the real version.ts, and refuses a file without the declaration", async () => {
  const src = await Deno.readTextFile(path.join(ROOT, "src/core/version.ts"));
  const out = withBuildDate(src, "2026-11-21");
  assert.match(out, /^export const BUILD_DATE = "2026-11-21";$/m);
  assert.equal(out.split("\n").length, src.split("\n").length);
  assert.throws(
    () => withBuildDate("export const VERSION = '1';", "2026-11-21"),
    /no `export const BUILD_DATE/,
  );
});

Deno.test("compileConfig drops only lazy-dynamic-imports (which would hide every lazy module from deno compile)", () => {
  assert.deepEqual(compileConfig({ imports: { a: "npm:a@1" }, unstable: ["lazy-dynamic-imports"] }), {
    imports: { a: "npm:a@1" },
  });
  assert.deepEqual(compileConfig({ unstable: ["lazy-dynamic-imports", "kv"], fmt: {} }), {
    fmt: {},
    unstable: ["kv"],
  });
  assert.deepEqual(compileConfig({ tasks: {} }), { tasks: {} });
});

Deno.test("permissions: never -A; FFI only for Windows binaries; this host's set is COMPILE_PERMISSIONS", () => {
  for (const t of TARGETS) {
    const p = compilePermissions(t);
    assert.ok(!p.includes("-A") && !p.includes("--allow-all"));
    assert.equal(p.includes("--allow-ffi"), t.includes("windows"), t);
    for (const need of ["--allow-net", "--allow-read", "--allow-write", "--allow-env", "--allow-run"]) {
      assert.ok(p.includes(need), `${t} lacks ${need}`);
    }
  }
  assert.deepEqual(COMPILE_PERMISSIONS, compilePermissions(Deno.build.target));
});

Deno.test("parseBuildArgs: all targets by default, named ones, and one-line errors", () => {
  assert.deepEqual(parseBuildArgs([], "/r").targets, [...TARGETS]);
  const p = parseBuildArgs(["--target", "aarch64-apple-darwin", "--no-check", "--out-dir", "/tmp/o"], "/r");
  assert.deepEqual(p.targets, ["aarch64-apple-darwin"]);
  assert.equal(p.check, false);
  assert.equal(p.outDir, path.resolve("/tmp/o"));
  assert.equal(parseBuildArgs([], "/r").outDir, path.join("/r", "dist"));
  assert.throws(
    () => parseBuildArgs(["--target", "mips-unknown-linux"]),
    /unknown target 'mips-unknown-linux'/,
  );
  assert.throws(() => parseBuildArgs(["--target"]), /needs a value/);
  assert.throws(() => parseBuildArgs(["-A"]), /unknown argument '-A'/);
});

Deno.test("explainCompileFailure turns deno's multi-line errors into one line", () => {
  const where = { denoDir: "/cache/deno", denoVersion: "2.9.6" };
  const download = "Download https://dl.deno.land/release/v2.9.6/denort-x86_64-unknown-linux-gnu.zip\n" +
    "error: Writing deno compile executable to temporary file 'x.tmp'\n\nCaused by:\n    0: Setting up base binary.\n" +
    "    1: error sending request for url (https://dl.deno.land/...): dns error\n\nStack backtrace:\n   0: <unknown>\n";
  const msg = explainCompileFailure(download, "x86_64-unknown-linux-gnu", where);
  assert.ok(!msg.includes("\n"));
  assert.match(msg, /dl\.deno\.land/);
  assert.match(msg, /DENORT_BIN/);
  assert.ok(
    msg.includes(path.join("/cache/deno", "dl", "release", "v2.9.6", "denort-x86_64-unknown-linux-gnu.zip")),
  );
  assert.match(
    explainCompileFailure("error: Could not find denort at '/x'\n", "t", { ...where, denortBin: "/x" }),
    /^DENORT_BIN points at '\/x'/,
  );
  assert.equal(
    explainCompileFailure(
      '\u001b[31merror\u001b[0m: Module not found "file:///a.ts".\n    at x\n',
      "t",
      where,
    ),
    'deno compile failed for t: Module not found "file:///a.ts".',
  );
});

Deno.test("every dynamic import in src/ names its module literally, so deno compile and deno bundle can see it", async () => {
  const bad: string[] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = path.join(dir, e.name);
      if (e.isDirectory) await walk(p);
      else if (p.endsWith(".ts")) {
        const lines = (await Deno.readTextFile(p)).split("\n");
        lines.forEach((line, i) => {
          if (/^\s*(\/\/|\*)/.test(line)) return;
          for (const m of line.matchAll(/\bimport\(\s*([^)]*)/g)) {
            if (!/^(["'])[^"'`$]+\1\s*$/.test(m[1]) && !/^(["'])[^"'`$]+\1\s*,/.test(m[1])) {
              bad.push(`${path.relative(ROOT, p)}:${i + 1}: ${line.trim()}`);
            }
          }
        });
      }
    }
  };
  await walk(path.join(ROOT, "src"));
  assert.deepEqual(bad, [], "non-literal dynamic imports would be missing from the compiled binary");
});

/** A port nothing listens on: a proxy there makes every download fail at once, on any machine. */
function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (
    const k of [
      "PATH",
      "HOME",
      "DENO_DIR",
      "SYSTEMROOT",
      "TMPDIR",
      "LOCALAPPDATA",
      "USERPROFILE",
      "XDG_CACHE_HOME",
    ]
  ) {
    const v = Deno.env.get(k);
    if (v !== undefined) env[k] = v;
  }
  return env;
}

Deno.test("deno task compile where Deno's runtime cannot be downloaded: exit 1 and one line, no stack trace", async () => {
  const target = "aarch64-unknown-linux-gnu";
  const cached = path.join(await denoDir(), "dl", "release", `v${Deno.version.deno}`, `denort-${target}.zip`);
  if (existsSync(cached)) {
    console.log(`skipped: ${cached} is cached, so compile would not need the network`);
    return;
  }
  const out = await Deno.makeTempDir({ prefix: "diazo-build-" });
  try {
    const proxy = `http://127.0.0.1:${closedPort()}`;
    const res = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", BUILD, "--no-check", "--target", target, "--out-dir", out],
      env: {
        ...baseEnv(),
        HTTPS_PROXY: proxy,
        HTTP_PROXY: proxy,
        https_proxy: proxy,
        http_proxy: proxy,
        NO_COLOR: "1",
      },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(res.stderr);
    assert.equal(res.code, 1, stderr);
    const lines = stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, `expected one line, got:\n${stderr}`);
    assert.match(
      lines[0],
      /^error: cannot build aarch64-unknown-linux-gnu: deno compile needs the Deno runtime/,
    );
    assert.match(lines[0], /DENORT_BIN/);
    assert.doesNotMatch(stderr, /Stack backtrace|\n\s+at |Caused by/);
    assert.deepEqual([...Deno.readDirSync(out)].map((e) => e.name), [], "nothing is left in the output dir");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("a compile embeds the bundle, every chunk of it (what the benchmark runs); SHA256SUMS and SBOM beside it", async () => {
  const out = await Deno.makeTempDir({ prefix: "diazo-build-" });
  try {
    const res = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", BUILD, "--no-check", "--target", Deno.build.target, "--out-dir", out],
      // The full deno binary stands in for denort: the compile completes offline (the result is not
      // a working diazo, but the embed report and the release files are real).
      env: { ...baseEnv(), DENORT_BIN: Deno.execPath(), NO_COLOR: "1" },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    // deno-lint-ignore no-control-regex
    const stderr = new TextDecoder().decode(res.stderr).replace(/\u001b\[[0-9;]*m/g, "");
    assert.equal(res.code, 0, stderr);
    const report = stderr.slice(stderr.indexOf("Embedded Files"));
    assert.ok(report.length > 20, stderr);

    // The binary holds the bundle (scripts/build.ts `bundle`): its entry and every chunk, npm packages
    // bundled in (no npm package is embedded beside it), the lazily loaded sandbox among them.
    assert.match(report, new RegExp(`[─ ]${BUNDLE_ENTRY.replace(".", "\\.")} `), report);
    const chunks = report.split("\n").filter((l) => /\.js \(/.test(l));
    assert.ok(chunks.length > 100, `${chunks.length} chunks embedded:\n${report}`);
    assert.doesNotMatch(
      report,
      /node_modules|registry\.npmjs\.org/,
      "npm packages are bundled, not embedded",
    );
    assert.ok(chunks.some((l) => /server-[\w-]+\.js/.test(l)), "the sandbox's chunk is embedded");

    const binary = binaryName(VERSION, Deno.build.target);
    const sums = parseSha256Sums(await Deno.readTextFile(path.join(out, "SHA256SUMS")));
    assert.deepEqual(sums.map((s) => s.name).sort(), [binary, sbomName(VERSION)].sort());
    for (const s of sums) {
      assert.equal(s.sha256, sha256Hex(await Deno.readFile(path.join(out, s.name))), s.name);
    }
    const sbom = JSON.parse(await Deno.readTextFile(path.join(out, sbomName(VERSION))));
    assert.equal(sbom.bomFormat, "CycloneDX");
    assert.equal(sbom.metadata.component.version, VERSION);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});
