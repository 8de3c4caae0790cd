/**
 * `deno task compile`: one executable per target with `deno compile`, then `SHA256SUMS` and a
 * CycloneDX SBOM beside them in dist/. Every failure is one `error:` line and exit 1, never a stack
 * trace — in particular when the Deno runtime for a target (denort, downloaded from dl.deno.land)
 * cannot be obtained; DENORT_BIN or a pre-seeded `$DENO_DIR/dl` cache provides it offline.
 *
 *   deno task compile                              all targets
 *   deno task compile --target aarch64-apple-darwin [--target ...] [--out-dir DIR] [--no-check]
 *   deno task compile --release-files [--out-dir DIR]   only (re)write SHA256SUMS and the SBOM
 *   deno run -A scripts/build.ts --bundle [--out-dir DIR]  the split bundle: DIR/diazo.js + its chunks
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { VERSION } from "../src/core/version.ts";
import { cycloneDxSbom, type DenoLock, formatSha256Sums, sha256Hex } from "./release_files.ts";
import { regroup } from "./regroup.ts";

/** Targets `deno compile --target` accepts (Deno 2.9), aarch64 Windows included. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
  "aarch64-pc-windows-msvc",
] as const;

/** One compile target. */
export type Target = (typeof TARGETS)[number];

// Unscoped where a command needs any value: files anywhere (uploads, downloads), any platform
// address, the user's whole environment (credentials, plugins' context), any plugin or hook program.
const BASE_PERMISSIONS = [
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys",
];

/** The permissions a binary for `target` gets: FFI only on Windows, for the Credential Manager (advapi32). */
export function compilePermissions(target: string): string[] {
  return target.includes("windows") ? [...BASE_PERMISSIONS, "--allow-ffi"] : [...BASE_PERMISSIONS];
}

/** The permissions of the binary for this machine; tests and benchmarks run the CLI with exactly these. */
export const COMPILE_PERMISSIONS: string[] = compilePermissions(Deno.build.target);

/**
 * V8 flags baked into every binary (and given to the bundle the benchmark runs). A young generation
 * of at most 3 × 4 MiB instead of V8's 3 × 16 MiB: a sandbox holding 100,000 objects otherwise keeps
 * ~60 MiB more resident (README, "sandbox load"); the CLI's transfers move bytes outside the JS heap
 * and do not feel it. The young generation also starts at that size (`--min-semi-space-size=4`), so
 * that a command reading a few hundred KB of answers does not stop for a scavenge on the way.
 * `--no-lazy`: every function of a module is compiled when the module is, so the code cache holds
 * them all and a run compiles none on first call. `--no-sparkplug`: no baseline machine code for
 * functions a short run calls a few hundred times; it did not pay back within a command, and the
 * optimizing tiers still take what stays hot (ARCHITECTURE.md, "Start-up" measures each).
 */
export const COMPILE_V8_FLAGS: string[] = [
  "--v8-flags=--max-semi-space-size=4,--min-semi-space-size=4,--no-lazy,--no-sparkplug",
];

/** `diazo-<version>-<target>[.exe]`. */
export function binaryName(version: string, target: string): string {
  return `diazo-${version}-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** `diazo-<version>.cdx.json`. */
export function sbomName(version: string): string {
  return `diazo-${version}.cdx.json`;
}

/** version.ts with its BUILD_DATE set; an error when the declaration is not where it is expected. */
export function withBuildDate(versionSource: string, date: string): string {
  const re = /^export const BUILD_DATE = "[^"]*";$/m;
  if (!re.test(versionSource)) {
    throw new Error('src/core/version.ts has no `export const BUILD_DATE = "...";` line');
  }
  return versionSource.replace(re, `export const BUILD_DATE = ${JSON.stringify(date)};`);
}

/**
 * deno.json for the compile. Without the `lazy-dynamic-imports` unstable flag `deno compile` embeds
 * every module reached through `import("...")` (the families, the sandbox, yaml, the MCP SDK); with
 * it, it embeds only the static graph of main.ts and the binary fails on the first lazy import.
 */
export function compileConfig(denoJson: Record<string, unknown>): Record<string, unknown> {
  const unstable = Array.isArray(denoJson.unstable)
    ? (denoJson.unstable as string[]).filter((f) => f !== "lazy-dynamic-imports")
    : undefined;
  const { unstable: _drop, ...rest } = denoJson;
  return unstable && unstable.length ? { ...rest, unstable } : rest;
}

/** What esbuild puts at the top of a bundle's runtime chunk for `require()` of Node built-ins. */
const EAGER_REQUIRE =
  'import { createRequire as __deno_internal_createRequire } from "node:module";\nvar __require = __deno_internal_createRequire(import.meta.url);';

/**
 * A bundle chunk whose `require()` of Node built-ins (only CommonJS packages call it) resolves on
 * first call instead of importing node:module when the program starts: node:module loads Deno's
 * Node compatibility layer, ~10 ms of every start-up, even `--help`.
 */
export function lazyRequire(chunk: string): string {
  return chunk.replace(EAGER_REQUIRE, "var __require = (id) => globalThis.process.getBuiltinModule(id);");
}

/** The bundle's entry file name: what the release binary is compiled from and the benchmark runs. */
export const BUNDLE_ENTRY = "diazo.js";

/**
 * `deno bundle` with code splitting, regrouped (scripts/regroup.ts) into `outDir`: `diazo.js`, the
 * entry, loads only what a command needs (each family, the sandbox, the MCP SDK are chunks behind
 * their dynamic imports), unlike the single-file bundle, which evaluates every static import of every
 * module at start. This is the program users get: the release binary is compiled from it
 * (`compileArgs`), and `deno task bench` runs it.
 */
export async function bundle(outDir: string, root = ROOT): Promise<string> {
  await Deno.mkdir(outDir, { recursive: true });
  for (const e of readdirSync(outDir).filter((n) => n.endsWith(".js"))) {
    await Deno.remove(path.join(outDir, e));
  }
  const splitDir = await Deno.makeTempDir({ prefix: "diazo-split-" });
  try {
    const res = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--config",
        path.join(root, "deno.json"),
        "--platform",
        "deno",
        "--code-splitting",
        "--outdir",
        splitDir,
        path.join(root, "src/main.ts"),
      ],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (res.code !== 0) {
      throw new BuildError(
        `deno bundle failed: ${new TextDecoder().decode(res.stderr).trim().split("\n")[0]}`,
      );
    }
    for (const name of readdirSync(splitDir).filter((n) => n.endsWith(".js"))) {
      const file = path.join(splitDir, name);
      const text = readFileSync(file, "utf8");
      const lazy = lazyRequire(text);
      if (lazy !== text) writeFileSync(file, lazy);
    }
    try {
      return await regroup(splitDir, outDir);
    } catch (e) {
      throw new BuildError(`regrouping the bundle failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  } finally {
    await Deno.remove(splitDir, { recursive: true });
  }
}

/** The build date: SOURCE_DATE_EPOCH (reproducible builds) or today, as YYYY-MM-DD in UTC. */
export function buildDate(sourceDateEpoch: string | undefined, now: Date): string {
  const d = sourceDateEpoch && /^\d+$/.test(sourceDateEpoch) ? new Date(Number(sourceDateEpoch) * 1000) : now;
  return d.toISOString().slice(0, 10);
}

/** An error whose message is the whole one-line explanation. */
class BuildError extends Error {}

/** The one line to print for a failed `deno compile`, from its stderr. */
export function explainCompileFailure(
  stderr: string,
  target: string,
  where: { denoDir: string; denoVersion: string; denortBin?: string },
): string {
  // deno-lint-ignore no-control-regex
  const text = stderr.replace(/\x1b\[[0-9;]*m/g, "");
  if (where.denortBin && /could not find denort/i.test(text)) {
    return `DENORT_BIN points at '${where.denortBin}', which does not exist; unset it or point it at a denort binary for ${target}`;
  }
  if (/Setting up base binary|dl\.deno\.land|denort-/i.test(text)) {
    const zip = path.join(where.denoDir, "dl", "release", `v${where.denoVersion}`, `denort-${target}.zip`);
    return `cannot build ${target}: deno compile needs the Deno runtime (denort) from dl.deno.land, which cannot be reached from here; set DENORT_BIN to a denort binary for ${target}, pre-seed ${zip}, or build on a machine that reaches dl.deno.land (the release workflow does)`;
  }
  if (/Type checking failed/i.test(text)) {
    return `deno compile failed for ${target}: type checking failed; see \`deno check src/main.ts\`, or pass --no-check`;
  }
  const first = text.split("\n").map((l) => l.trim()).find((l) => /^error:/i.test(l));
  return `deno compile failed for ${target}: ${
    (first ?? text.trim().split("\n")[0] ?? "no output").replace(/^error:\s*/i, "")
  }`;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  })
    .output();
  try {
    return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir ?? "$DENO_DIR";
  } catch {
    return "$DENO_DIR";
  }
}

/** Copies what the compile reads into a temp dir: src/ with BUILD_DATE set, deno.json, deno.lock. */
function stage(dir: string, date: string): void {
  cpSync(path.join(ROOT, "src"), path.join(dir, "src"), { recursive: true });
  const versionFile = path.join(dir, "src/core/version.ts");
  writeFileSync(versionFile, withBuildDate(readFileSync(versionFile, "utf8"), date));
  const config = JSON.parse(readFileSync(path.join(ROOT, "deno.json"), "utf8"));
  writeFileSync(path.join(dir, "deno.json"), JSON.stringify(compileConfig(config), null, 2));
  cpSync(path.join(ROOT, "deno.lock"), path.join(dir, "deno.lock"));
}

/**
 * The arguments of `deno compile` for one target: the bundle's entry (`bundle`, in the stage dir), with
 * no project config, so the binary holds exactly the program `deno task bench` measures.
 */
export function compileArgs(entry: string, target: string, out: string): string[] {
  return [
    "compile",
    "--no-config",
    "--no-check",
    ...compilePermissions(target),
    ...COMPILE_V8_FLAGS,
    "--target",
    target,
    "-o",
    out,
    entry,
  ];
}

async function compile(entry: string, target: string, outDir: string): Promise<string> {
  const out = path.join(outDir, binaryName(VERSION, target));
  const res = await new Deno.Command(Deno.execPath(), {
    args: compileArgs(entry, target, out),
    cwd: path.dirname(entry),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (res.code !== 0) {
    throw new BuildError(explainCompileFailure(dec.decode(res.stderr), target, {
      denoDir: await denoDir(),
      denoVersion: Deno.version.deno,
      denortBin: Deno.env.get("DENORT_BIN"),
    }));
  }
  await Deno.stderr.write(res.stdout);
  await Deno.stderr.write(res.stderr);
  return out;
}

/** Type-checks the staged program (the bundle itself is not checked): one `error:` line when it fails. */
async function typeCheck(stageDir: string): Promise<void> {
  const res = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--config", path.join(stageDir, "deno.json"), path.join(stageDir, "src/main.ts")],
    cwd: stageDir,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (res.code !== 0) {
    throw new BuildError("type checking failed; see `deno check src/main.ts`, or pass --no-check");
  }
}

/** Writes the SBOM and SHA256SUMS for the binaries of this version found in `outDir`. */
export function writeReleaseFiles(outDir: string, now: Date): string[] {
  const lock = JSON.parse(readFileSync(path.join(ROOT, "deno.lock"), "utf8")) as DenoLock;
  const sbom = cycloneDxSbom(lock, {
    name: "diazo",
    version: VERSION,
    timestamp: now.toISOString(),
    serial: crypto.randomUUID(),
  });
  writeFileSync(path.join(outDir, sbomName(VERSION)), JSON.stringify(sbom, null, 2) + "\n");
  const names = readdirSync(outDir).filter((n) =>
    n === sbomName(VERSION) || TARGETS.some((t) => n === binaryName(VERSION, t))
  );
  if (!names.some((n) => n !== sbomName(VERSION))) {
    throw new BuildError(`no diazo-${VERSION}-<target> binary in ${outDir} to checksum`);
  }
  const sums = formatSha256Sums(names.map((name) => ({
    name,
    sha256: sha256Hex(readFileSync(path.join(outDir, name))),
  })));
  writeFileSync(path.join(outDir, "SHA256SUMS"), sums);
  return [...names.map((n) => path.join(outDir, n)), path.join(outDir, "SHA256SUMS")];
}

/** Parsed command line of the build. */
export interface BuildArgs {
  targets: string[];
  outDir: string;
  check: boolean;
  releaseFilesOnly: boolean;
  /** Only the split bundle (`--bundle`), into outDir/bundle unless --out-dir. */
  bundleOnly: boolean;
}

/** Parses the build's arguments; unknown ones are an error. */
export function parseBuildArgs(args: readonly string[], root = ROOT): BuildArgs {
  const parsed: BuildArgs = {
    targets: [],
    outDir: path.join(root, "dist"),
    check: true,
    releaseFilesOnly: false,
    bundleOnly: false,
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--target" || a === "--out-dir") {
      const v = args[++i];
      if (v === undefined) throw new BuildError(`${a} needs a value`);
      if (a === "--out-dir") parsed.outDir = path.resolve(v);
      else if ((TARGETS as readonly string[]).includes(v)) parsed.targets.push(v);
      else throw new BuildError(`unknown target '${v}'; one of: ${TARGETS.join(", ")}`);
    } else if (a === "--all") parsed.targets.push(...TARGETS);
    else if (a === "--no-check") parsed.check = false;
    else if (a === "--release-files") parsed.releaseFilesOnly = true;
    else if (a === "--bundle") parsed.bundleOnly = true;
    else {throw new BuildError(
        `unknown argument '${a}' (use --target T, --all, --out-dir DIR, --no-check, --release-files, --bundle)`,
      );}
  }
  if (parsed.targets.length === 0) parsed.targets = [...TARGETS];
  parsed.targets = [...new Set(parsed.targets)];
  return parsed;
}

async function main(args: readonly string[]): Promise<void> {
  const opts = parseBuildArgs(args);
  if (opts.bundleOnly) {
    const explicit = args.includes("--out-dir");
    console.log(await bundle(explicit ? opts.outDir : path.join(opts.outDir, "bundle")));
    return;
  }
  Deno.mkdirSync(opts.outDir, { recursive: true });
  if (!opts.releaseFilesOnly) {
    const denort = Deno.env.get("DENORT_BIN");
    if (denort && opts.targets.length > 1) {
      throw new BuildError("DENORT_BIN is the runtime of one target: pass the one --target it is built for");
    }
    if (denort && !existsSync(denort)) {
      throw new BuildError(`DENORT_BIN points at '${denort}', which does not exist`);
    }
    const stageDir = await Deno.makeTempDir({ prefix: "diazo-build-" });
    try {
      stage(stageDir, buildDate(Deno.env.get("SOURCE_DATE_EPOCH"), new Date()));
      if (opts.check) await typeCheck(stageDir);
      const entry = await bundle(path.join(stageDir, "bundle"), stageDir);
      for (const t of opts.targets) console.log(await compile(entry, t, opts.outDir));
    } finally {
      await Deno.remove(stageDir, { recursive: true }).catch(() => {});
    }
  }
  for (const f of writeReleaseFiles(opts.outDir, new Date())) console.log(f);
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (e) {
    const msg = e instanceof BuildError ? e.message : `build failed: ${(e as Error)?.message ?? String(e)}`;
    console.error(`error: ${msg.split("\n")[0]}`);
    Deno.exit(1);
  }
}
