/**
 * install.sh against a local HTTP server serving a fake release (a small shell script as the
 * "binary" plus SHA256SUMS): it installs and runs it; a tampered binary, a missing SHA256SUMS, a
 * release without this target and an unknown OS or architecture each fail with a clear message and
 * nothing installed. A fake `uname` on PATH decides the platform. install.ps1 runs the same checks
 * where PowerShell is installed; its logic is reviewed below for machines without it.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { binaryName, TARGETS } from "../../scripts/build.ts";
import { formatSha256Sums, sha256Hex } from "../../scripts/release_files.ts";
import { ROOT, runProcess, type RunResult } from "./harness.ts";

const VERSION = "1.2.3";
const enc = new TextEncoder();
const fakeBinary = (target: string) => enc.encode(`#!/bin/sh\necho "diazo ${VERSION} (fake ${target})"\n`);

interface Release {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** Serves `<base>/download/v1.2.3/<file>` and `<base>/latest/download/<file>` from `files`. */
function serveRelease(files: Record<string, Uint8Array<ArrayBuffer>>): Release {
  const requests: string[] = [];
  const ac = new AbortController();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen() {} }, (req) => {
    const p = new URL(req.url).pathname;
    requests.push(p);
    const m = /^\/releases\/(?:download\/v1\.2\.3|latest\/download)\/([^/]+)$/.exec(p);
    const body = m ? files[m[1]] : undefined;
    return body ? new Response(body) : new Response("not found", { status: 404 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/releases`,
    requests,
    close: async () => {
      ac.abort();
      await server.finished;
    },
  };
}

/** A release with binaries for the given targets and their SHA256SUMS (the SBOM listed too). */
function release(targets: readonly string[]): Record<string, Uint8Array<ArrayBuffer>> {
  const files: Record<string, Uint8Array<ArrayBuffer>> = {
    [`diazo-${VERSION}.cdx.json`]: enc.encode("{}\n"),
  };
  for (const t of targets) files[binaryName(VERSION, t)] = fakeBinary(t);
  files.SHA256SUMS = enc.encode(
    formatSha256Sums(Object.entries(files).map(([name, b]) => ({ name, sha256: sha256Hex(b) }))),
  );
  return files;
}

async function which(cmd: string): Promise<string | undefined> {
  const out = await new Deno.Command("sh", {
    args: ["-c", `command -v ${cmd}`],
    stdout: "piped",
    stderr: "null",
  }).output();
  const p = new TextDecoder().decode(out.stdout).trim();
  return out.success && p.startsWith("/") ? p : undefined;
}

type Run = RunResult;

/** A temp home with a fake `uname`; `onlyTools` makes a PATH of just those tools (to drop curl). */
async function sandboxHome(os: string, arch: string, onlyTools?: string[]) {
  const dir = await Deno.makeTempDir({ prefix: "diazo-install-" });
  const fakebin = path.join(dir, "fakebin");
  await Deno.mkdir(fakebin);
  await Deno.writeTextFile(
    path.join(fakebin, "uname"),
    `#!/bin/sh\ncase "$1" in -s) echo '${os}' ;; -m) echo '${arch}' ;; *) echo '${os}' ;; esac\n`,
    { mode: 0o755 },
  );
  let pathVar = `${fakebin}:/usr/local/bin:/usr/bin:/bin`;
  if (onlyTools) {
    for (const t of onlyTools) {
      const real = await which(t);
      if (real) await Deno.symlink(real, path.join(fakebin, t));
    }
    pathVar = fakebin;
  }
  const home = path.join(dir, "home");
  await Deno.mkdir(home);
  return {
    dir,
    home,
    run: (base: string, args: string[] = [], extraPath = ""): Promise<Run> =>
      runProcess("/bin/sh", [path.join(ROOT, "install.sh"), ...args], {
        env: {
          PATH: extraPath ? `${extraPath}:${pathVar}` : pathVar,
          HOME: home,
          DIAZO_INSTALL_BASE_URL: base,
        },
      }),
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
}

const posix = Deno.build.os !== "windows";

async function runBinary(file: string): Promise<string> {
  const out = await new Deno.Command(file, { stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test({
  name:
    "install.sh installs the newest release's binary into ~/.local/bin, runs it, and says the dir is not on PATH",
  ignore: !posix,
  fn: async () => {
    const rel = serveRelease(release(TARGETS));
    const h = await sandboxHome("Linux", "x86_64");
    try {
      const r = await h.run(rel.url);
      assert.equal(r.code, 0, r.stderr);
      const installed = path.join(h.home, ".local/bin/diazo");
      assert.equal(await runBinary(installed), "diazo 1.2.3 (fake x86_64-unknown-linux-gnu)");
      assert.equal((await Deno.stat(installed)).mode! & 0o111, 0o111);
      assert.match(
        r.stderr,
        /diazo 1\.2\.3 \(fake x86_64-unknown-linux-gnu\)/,
        "it runs the installed binary",
      );
      assert.match(r.stderr, /is not on your PATH/);
      assert.ok(r.stderr.includes(`export PATH="${path.join(h.home, ".local/bin")}:$PATH"`));
      assert.deepEqual(rel.requests, [
        "/releases/latest/download/SHA256SUMS",
        "/releases/latest/download/diazo-1.2.3-x86_64-unknown-linux-gnu",
      ]);
      assert.deepEqual([...Deno.readDirSync(path.join(h.home, ".local/bin"))].map((e) => e.name), ["diazo"]);
    } finally {
      await rel.close();
      await h.cleanup();
    }
  },
});

Deno.test({
  name:
    "install.sh --version --dir: that release, the arm64 binary on an arm64 Mac, no PATH advice when the dir is on PATH",
  ignore: !posix,
  fn: async () => {
    const rel = serveRelease(release(TARGETS));
    const h = await sandboxHome("Darwin", "arm64");
    try {
      const dir = path.join(h.dir, "tools");
      const r = await h.run(rel.url, ["--version", "v1.2.3", "--dir", dir], dir);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await runBinary(path.join(dir, "diazo")), "diazo 1.2.3 (fake aarch64-apple-darwin)");
      assert.doesNotMatch(r.stderr, /not on your PATH/);
      assert.deepEqual(rel.requests, [
        "/releases/download/v1.2.3/SHA256SUMS",
        "/releases/download/v1.2.3/diazo-1.2.3-aarch64-apple-darwin",
      ]);
    } finally {
      await rel.close();
      await h.cleanup();
    }
  },
});

Deno.test({
  name: "install.sh with wget instead of curl installs the same way",
  ignore: !posix,
  fn: async () => {
    if (!(await which("wget"))) return console.log("skipped: wget is not installed");
    const rel = serveRelease(release(TARGETS));
    const tools = [
      "wget",
      "sha256sum",
      "shasum",
      "awk",
      "cut",
      "grep",
      "mktemp",
      "rm",
      "mkdir",
      "cp",
      "chmod",
      "mv",
      "head",
      "ldd",
      "cat",
    ];
    const h = await sandboxHome("Linux", "aarch64", tools);
    try {
      assert.equal(existsSync(path.join(h.dir, "fakebin", "curl")), false);
      const r = await h.run(rel.url, ["--dir", path.join(h.dir, "bin")]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        await runBinary(path.join(h.dir, "bin", "diazo")),
        "diazo 1.2.3 (fake aarch64-unknown-linux-gnu)",
      );
    } finally {
      await rel.close();
      await h.cleanup();
    }
  },
});

/** Runs a failing install and checks the message, that nothing is installed, and what was downloaded. */
async function refused(
  files: Record<string, Uint8Array<ArrayBuffer>>,
  platform: [string, string],
  message: RegExp,
  opts: { args?: string[]; requests?: string[]; existing?: boolean } = {},
) {
  const rel = serveRelease(files);
  const h = await sandboxHome(...platform);
  try {
    const dir = path.join(h.dir, "target-dir");
    if (opts.existing) {
      await Deno.mkdir(dir);
      await Deno.writeTextFile(path.join(dir, "diazo"), "previous install\n", { mode: 0o755 });
    }
    const r = await h.run(rel.url, ["--dir", dir, ...(opts.args ?? [])]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^error: /m);
    assert.match(r.stderr, message);
    if (opts.existing) {
      assert.equal(
        await Deno.readTextFile(path.join(dir, "diazo")),
        "previous install\n",
        "the old binary is untouched",
      );
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["diazo"]);
    } else {
      assert.equal(existsSync(dir), false, "nothing installed, not even the directory");
    }
    if (opts.requests) assert.deepEqual(rel.requests, opts.requests);
    return r;
  } finally {
    await rel.close();
    await h.cleanup();
  }
}

Deno.test({
  name:
    "install.sh refuses a tampered binary (checksum mismatch): nothing installed, an existing install untouched",
  ignore: !posix,
  fn: async () => {
    const files = release(TARGETS);
    files[binaryName(VERSION, "x86_64-unknown-linux-gnu")] = enc.encode("#!/bin/sh\necho pwned\n");
    await refused(
      files,
      ["Linux", "x86_64"],
      /checksum mismatch for diazo-1\.2\.3-x86_64-unknown-linux-gnu .*refusing to install/,
    );
    await refused(files, ["Linux", "x86_64"], /checksum mismatch/, { existing: true });
  },
});

Deno.test({
  name: "install.sh refuses when SHA256SUMS is missing, without downloading the binary",
  ignore: !posix,
  fn: async () => {
    const files = release(TARGETS);
    delete files.SHA256SUMS;
    await refused(
      files,
      ["Linux", "x86_64"],
      /could not download SHA256SUMS .*refusing to install without a checksum/,
      {
        args: ["--version", "1.2.3"],
        requests: ["/releases/download/v1.2.3/SHA256SUMS"],
      },
    );
  },
});

Deno.test({
  name: "install.sh refuses when SHA256SUMS does not list this platform's binary",
  ignore: !posix,
  fn: async () => {
    const onlyMac = release(["aarch64-apple-darwin"]);
    await refused(
      onlyMac,
      ["Linux", "x86_64"],
      /SHA256SUMS has no checksum for diazo-1\.2\.3-x86_64-unknown-linux-gnu: refusing/,
      {
        args: ["--version", "1.2.3"],
      },
    );
    await refused(
      onlyMac,
      ["Linux", "x86_64"],
      /the newest release has no binary for x86_64-unknown-linux-gnu/,
    );
  },
});

Deno.test({
  name: "install.sh on an unknown architecture or OS: a clear message before any download",
  ignore: !posix,
  fn: async () => {
    await refused(release(TARGETS), ["Linux", "mips64"], /unsupported architecture: mips64/, {
      requests: [],
    });
    await refused(release(TARGETS), ["FreeBSD", "x86_64"], /unsupported operating system: FreeBSD/, {
      requests: [],
    });
    await refused(release(TARGETS), ["Linux", "x86_64"], /unknown argument: --frobnicate/, {
      args: ["--frobnicate"],
      requests: [],
    });
  },
});

Deno.test({
  name: "install.sh passes shellcheck as POSIX sh (where shellcheck is installed)",
  ignore: !posix,
  fn: async () => {
    if (!(await which("shellcheck"))) return console.log("skipped: shellcheck is not installed");
    const out = await new Deno.Command("shellcheck", {
      args: ["-s", "sh", path.join(ROOT, "install.sh")],
      stdout: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stdout));
  },
});

/*
 * install.ps1, reviewed (PowerShell cannot be installed on the build machine: Debian has no package
 * and the npm package `pwsh` downloads it from GitHub at install time). Walk-through:
 *  1. -Version / -Dir, or DIAZO_VERSION / DIAZO_INSTALL_DIR when piped into iex; default dir
 *     %LOCALAPPDATA%\Programs\diazo (per user: no admin).
 *  2. Architecture from PROCESSOR_ARCHITEW6432 (a 32-bit PowerShell on 64-bit Windows) else
 *     PROCESSOR_ARCHITECTURE: AMD64 -> x86_64-pc-windows-msvc, ARM64 -> aarch64-pc-windows-msvc,
 *     anything else -> "unsupported architecture", before any download.
 *  3. The same URL layout as install.sh; TLS 1.2 switched on for Windows PowerShell 5.1.
 *  4. SHA256SUMS into a temp dir; a failed download -> "refusing to install without a checksum".
 *  5. The file name: diazo-<version>-<target>.exe, or for the newest release the matching line of
 *     SHA256SUMS; no line -> refusal.
 *  6. The binary into the temp dir; Get-FileHash SHA-256 compared with the listed one; a mismatch
 *     -> refusal. Only after that is the install dir created and written (a staged copy renamed
 *     over diazo.exe), so a failure installs nothing and leaves an older diazo.exe untouched.
 *  7. PATH advice when the dir is on neither the user nor the process PATH; the temp dir is removed
 *     in `finally`. `exit 1` only when run as a file: piped into iex it throws instead, so that the
 *     user's session stays open.
 * The checks below hold that order in the script; the test after them runs it where pwsh exists.
 */
Deno.test("install.ps1 (reviewed): verifies before it writes, refuses a missing checksum, same layout and targets as the build", async () => {
  const ps = await Deno.readTextFile(path.join(ROOT, "install.ps1"));
  const sh = await Deno.readTextFile(path.join(ROOT, "install.sh"));
  const at = (s: string) => {
    const i = ps.indexOf(s);
    assert.ok(i >= 0, `install.ps1 lacks ${s}`);
    return i;
  };
  assert.ok(at("Get-FileHash -Algorithm SHA256") < at("New-Item -ItemType Directory -Force -Path $Dir"));
  assert.ok(at("if ($actual -ne $expected)") < at("Copy-Item -Path $download"));
  at("refusing to install without a checksum");
  at("SHA256SUMS has no checksum for");
  for (const layout of ['"$base/download/v$Version"', '"$base/latest/download"']) at(layout);
  assert.ok(sh.includes('"$BASE_URL/download/v$VERSION"') && sh.includes('"$BASE_URL/latest/download"'));
  at("DIAZO_INSTALL_BASE_URL");
  for (const t of ["x86_64-pc-windows-msvc", "aarch64-pc-windows-msvc"]) {
    assert.ok((TARGETS as readonly string[]).includes(t));
    at(`'${t}'`);
  }
  assert.equal(binaryName("1.2.3", "x86_64-pc-windows-msvc"), "diazo-1.2.3-x86_64-pc-windows-msvc.exe");
  at('"diazo-$Version-$target.exe"');
  assert.doesNotMatch(
    ps,
    /RunAs|Administrator|Machine'\)/,
    "never asks for admin or writes the machine PATH",
  );
});

async function powershell(): Promise<string | undefined> {
  for (const cmd of ["pwsh", "powershell"]) {
    try {
      const out = await new Deno.Command(cmd, {
        args: ["-NoProfile", "-Command", "$PSVersionTable.PSVersion.Major"],
        stdout: "piped",
        stderr: "null",
      }).output();
      if (out.success) return cmd;
    } catch { /* not installed */ }
  }
  return undefined;
}

Deno.test("install.ps1 installs a verified binary and refuses tampering and a missing checksum (where PowerShell is installed)", async () => {
  const shell = await powershell();
  if (!shell) return console.log("skipped: PowerShell is not installed here (reviewed above instead)");
  const target = "x86_64-pc-windows-msvc";
  const dir = await Deno.makeTempDir({ prefix: "diazo-install-ps-" });
  const run = async (files: Record<string, Uint8Array<ArrayBuffer>>, into: string) => {
    const rel = serveRelease(files);
    try {
      const out = await new Deno.Command(shell, {
        args: [
          "-NoProfile",
          "-NonInteractive",
          "-ExecutionPolicy",
          "Bypass",
          "-File",
          path.join(ROOT, "install.ps1"),
          "-Dir",
          into,
        ],
        env: { DIAZO_INSTALL_BASE_URL: rel.url, PROCESSOR_ARCHITECTURE: "AMD64", PROCESSOR_ARCHITEW6432: "" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      return { code: out.code, stderr: new TextDecoder().decode(out.stderr), requests: rel.requests };
    } finally {
      await rel.close();
    }
  };
  try {
    const good = release(TARGETS);
    const ok = await run(good, path.join(dir, "ok"));
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(
      await Deno.readFile(path.join(dir, "ok", "diazo.exe")),
      good[binaryName(VERSION, target)],
    );

    const tampered = release(TARGETS);
    tampered[binaryName(VERSION, target)] = enc.encode("pwned");
    const bad = await run(tampered, path.join(dir, "bad"));
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /checksum mismatch/);
    assert.equal(existsSync(path.join(dir, "bad")), false);

    const noSums = release(TARGETS);
    delete noSums.SHA256SUMS;
    const missing = await run(noSums, path.join(dir, "missing"));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /refusing to install without a checksum/);
    assert.equal(existsSync(path.join(dir, "missing")), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
