/**
 * Startup benchmark: `--version`, `--help`, `bucket list`, `object list` (1,000 objects) and
 * `auth status` — diazo from source, diazo's split bundle (scripts/build.ts --bundle), diazo compiled
 * for this machine where it can be built here, and the
 * peer Rust client `raps` (npm package @dmytro-yemelianov/raps-cli-linux-x64, installed into the
 * ignored .bench/peer/) — against one sandbox, in one run: medians of wall and CPU time, and ratios;
 * then, where valgrind is installed, the instructions of one run each (steady on a busy machine).
 * Printed, never asserted. BENCH_RUNS sets the runs per command (default 15).
 */
import path from "node:path";
import { startSandbox } from "../../src/sandbox/server.ts";
import { bundle, COMPILE_PERMISSIONS } from "../build.ts";
import { measure, measureInterleaved, type Timing } from "./_measure.ts";
import { scratchEnv } from "../scratch_env.ts";

export type { Timing } from "./_measure.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 15);
const WARMUP = 2;
const LIST_BUCKET = "bench-startup-list";
const LIST_OBJECTS = 1000;

/** The peer client's npm package and version, and where the benchmark installs it. */
export const PEER = {
  pkg: "@dmytro-yemelianov/raps-cli-linux-x64",
  version: "5.7.0",
  dir: path.join(ROOT, ".bench/peer"),
};

/** The peer's binary, installed from the npm registry on first use; undefined (with why) where it cannot be. */
async function peerBinary(): Promise<{ bin?: string; why?: string }> {
  if (Deno.build.target !== "x86_64-unknown-linux-gnu") {
    return { why: `no peer package for ${Deno.build.target}` };
  }
  const bin = path.join(PEER.dir, "node_modules", PEER.pkg, "raps");
  if (await Deno.stat(bin).then(() => true, () => false)) return { bin };
  try {
    const out = await new Deno.Command("npm", {
      args: ["install", "--no-save", "--prefix", PEER.dir, `${PEER.pkg}@${PEER.version}`],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) return { why: `npm install failed: ${new TextDecoder().decode(out.stderr).trim()}` };
    return { bin };
  } catch (e) {
    return { why: `npm is not available (${(e as Error).message})` };
  }
}

/** The forms a command is run in: argv prefixes, binaries (undefined where unavailable). */
interface Forms {
  source: string[];
  bundle: string[];
  compiled?: string;
  peer?: string;
}

/** diazo compiled for this machine (scripts/build.ts), or why it could not be built here (e.g. offline). */
async function compiledBinary(dir: string): Promise<{ bin?: string; why?: string }> {
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", path.join(ROOT, "scripts/build.ts"), "--no-check", "--out-dir", dir],
      stdout: "null",
      stderr: "piped",
      signal: AbortSignal.timeout(180_000),
    }).output();
    const found = [...Deno.readDirSync(dir)].find((e) => e.isFile && e.name.startsWith("diazo"));
    if (out.success && found) return { bin: path.join(dir, found.name) };
    return { why: new TextDecoder().decode(out.stderr).trim().split("\n")[0] || "no binary written" };
  } catch (e) {
    return { why: (e as Error).message.split("\n")[0] };
  }
}

async function run(cmd: string, args: string[], env: Record<string, string>): Promise<string> {
  const out = await new Deno.Command(cmd, { args, env, stdout: "piped", stderr: "piped" }).output();
  const dec = new TextDecoder();
  if (!out.success) throw new Error(`${args.join(" ")} failed: ${dec.decode(out.stderr)}`);
  return dec.decode(out.stdout);
}

/** A command whose instructions are counted. */
interface Counted {
  name: string;
  cmd: string;
  args: string[];
  env: Record<string, string>;
  before?: () => Promise<unknown>;
}

/**
 * Instructions of one run of each command under valgrind's callgrind, all threads: unlike times, the
 * same for the same program and input whatever else the machine does, so that a start-up change
 * shows even on a busy machine. Printed where valgrind is installed; the code caches are warm by now.
 */
async function printInstructions(commands: readonly Counted[]): Promise<void> {
  const counts: [string, number][] = [];
  for (const c of commands) {
    await c.before?.();
    try {
      const out = await new Deno.Command("valgrind", {
        args: ["--tool=callgrind", "--callgrind-out-file=/dev/null", c.cmd, ...c.args],
        env: c.env,
        stdout: "null",
        stderr: "piped",
      }).output();
      const m = /Collected : (\d+)/.exec(new TextDecoder().decode(out.stderr));
      if (!out.success || !m) {
        return console.log(`  instructions not counted: ${c.name} failed under valgrind`);
      }
      counts.push([c.name, Number(m[1])]);
    } catch {
      return console.log("  instructions not counted: valgrind is not installed");
    }
  }
  const base = counts[0][1];
  console.log("  instructions (callgrind, one run each, millions; × the empty program):");
  for (const [name, n] of counts) {
    console.log(`    ${name.padEnd(28)} ${(n / 1e6).toFixed(1).padStart(7)}  ${(n / base).toFixed(2)}×`);
  }
}

/** A bucket of LIST_OBJECTS small objects, uploaded with one `--batch` run. */
async function seedObjects(forms: Forms, env: Record<string, string>, home: string): Promise<void> {
  const dir = path.join(home, "seed");
  await Deno.mkdir(dir, { recursive: true });
  for (let i = 0; i < LIST_OBJECTS; i++) {
    await Deno.writeTextFile(path.join(dir, `obj-${String(i).padStart(4, "0")}.txt`), `object ${i}\n`);
  }
  await run(Deno.execPath(), [...forms.source, "bucket", "create", "--key", LIST_BUCKET], env);
  await run(Deno.execPath(), [...forms.source, "object", "upload", LIST_BUCKET, dir, "--batch"], env);
}

const fmt = (t?: Timing) => (t ? `${t.median.toFixed(1)}/${t.cpuMedian?.toFixed(1) ?? "?"}` : "—");
const ratio = (a?: Timing, b?: Timing, key: "median" | "cpuMedian" = "median") =>
  a?.[key] !== undefined && b?.[key] !== undefined ? (a[key]! / b[key]!).toFixed(2) : "—";

/** Runs the startup benchmark and prints its table; returns every timing. */
export async function benchStartup(): Promise<Timing[]> {
  // long: one benchmark's setup (sandbox, bundle, peer, seed data), measurement table and goal lines
  const sb = await startSandbox({ port: 0 });
  const home = await Deno.makeTempDir({ prefix: "diazo-bench-startup-" });
  const env: Record<string, string> = { ...scratchEnv(home), HOME: home, DIAZO_BASE_URL: sb.url };
  const peerEnv = {
    ...env,
    APS_BASE_URL: sb.url,
    APS_CLIENT_ID: env.SVC_CLIENT_ID,
    APS_CLIENT_SECRET: env.SVC_CLIENT_SECRET,
    RAPS_USE_FILE_STORAGE: "1",
    RAPS_NON_INTERACTIVE: "1",
  };
  try {
    const entry = await bundle(path.join(home, "bundle"));
    const peer = await peerBinary();
    await Deno.mkdir(path.join(home, "bin"));
    const compiled = await compiledBinary(path.join(home, "bin"));
    const forms: Forms = {
      source: [
        "run",
        ...COMPILE_PERMISSIONS,
        "--config",
        path.join(ROOT, "deno.json"),
        path.join(ROOT, "src/main.ts"),
      ],
      // The bundle as users run it: no project config, dynamic imports loaded when reached.
      bundle: ["run", ...COMPILE_PERMISSIONS, "--no-config", "--unstable-lazy-dynamic-imports", entry],
      compiled: compiled.bin,
      peer: peer.bin,
    };
    await seedObjects(forms, env, home);
    const cases: { name: string; diazo: string[]; peer: string[] }[] = [
      { name: "--version", diazo: ["--version"], peer: ["--version"] },
      { name: "--help", diazo: ["--help"], peer: ["--help"] },
      {
        name: "bucket list",
        diazo: ["bucket", "list", "--region", "US", "-o", "json"],
        peer: ["bucket", "list", "--output", "json"],
      },
      {
        name: `object list (${LIST_OBJECTS})`,
        diazo: ["object", "list", LIST_BUCKET, "-o", "json"],
        peer: ["object", "list", LIST_BUCKET, "--output", "json"],
      },
      {
        name: "auth status",
        diazo: ["auth", "status", "-o", "json"],
        peer: ["auth", "status", "--output", "json"],
      },
    ];
    const opts = { env, runs: RUNS, warmup: WARMUP };
    const emptyArgs = ["run", "--no-config", path.join(ROOT, "scripts/bench/empty.ts")];
    const empty = await measure("empty Deno program", Deno.execPath(), emptyArgs, opts);
    // --help and --version are compared with an empty program run in the same turns as they are.
    const againstEmpty = new Set(["--help", "--version"]);
    const rows: {
      name: string;
      source: Timing;
      bundle: Timing;
      compiled?: Timing;
      peer?: Timing;
      empty?: Timing;
    }[] = [];
    // raps answers a repeated list from its response cache on disk: emptied before each of its runs
    // (outside the timing), so that it lists from the sandbox as diazo does.
    const emptyPeerCache = () =>
      Deno.remove(path.join(home, ".cache/raps/response_cache"), { recursive: true }).catch(() => {});
    for (const c of cases) {
      // The forms in turns, so that load on a shared machine falls on each alike.
      const timings = await measureInterleaved(
        [
          { name: `source ${c.name}`, cmd: Deno.execPath(), args: [...forms.source, ...c.diazo], opts },
          { name: `bundle ${c.name}`, cmd: Deno.execPath(), args: [...forms.bundle, ...c.diazo], opts },
          ...(forms.compiled
            ? [{ name: `compiled ${c.name}`, cmd: forms.compiled, args: c.diazo, opts }]
            : []),
          ...(forms.peer
            ? [{
              name: `raps ${c.name}`,
              cmd: forms.peer,
              args: c.peer,
              opts: { ...opts, env: peerEnv, before: emptyPeerCache },
            }]
            : []),
          ...(againstEmpty.has(c.name)
            ? [{ name: `empty Deno program beside ${c.name}`, cmd: Deno.execPath(), args: emptyArgs, opts }]
            : []),
        ],
        RUNS,
        WARMUP,
        (name, e) => console.error(`${name}: ${(e as Error).message.split("\n")[0]}`),
      );
      const [source, bundled] = timings;
      const compiledTiming = forms.compiled ? timings[2] : undefined;
      const emptyBeside = againstEmpty.has(c.name) ? timings.pop() : undefined;
      const peerTiming = forms.peer ? timings.at(-1) : undefined;
      if (!source || !bundled) throw new Error(`diazo ${c.name} failed`);
      rows.push({
        name: c.name,
        source,
        bundle: bundled,
        compiled: compiledTiming,
        peer: peerTiming,
        empty: emptyBeside,
      });
    }
    console.log(
      `\nStartup: medians of ${RUNS} runs after ${WARMUP} warm-ups, wall/CPU ms, one sandbox ` +
        `(empty Deno program ${fmt(empty)})`,
    );
    console.log(
      forms.peer
        ? "  the forms run in turns; raps with its response cache emptied before each run"
        : `  peer not run: ${peer.why}`,
    );
    if (!forms.compiled) console.log(`  compiled form not built here: ${compiled.why}`);
    console.log(
      "  " + "command".padEnd(20) + "source".padStart(13) + "bundle".padStart(13) + "compiled".padStart(13) +
        "raps".padStart(13) + "  bundle÷raps wall".padStart(19) + "  cpu".padStart(7),
    );
    for (const r of rows) {
      console.log(
        "  " + r.name.padEnd(20) + fmt(r.source).padStart(13) + fmt(r.bundle).padStart(13) +
          fmt(r.compiled).padStart(13) + fmt(r.peer).padStart(13) + ratio(r.bundle, r.peer).padStart(19) +
          ratio(r.bundle, r.peer, "cpuMedian").padStart(7),
      );
    }
    const list = rows.find((r) => r.name === "bucket list")!;
    const goal = (what: string, got: string, value: number | undefined, limit: number) =>
      console.log(
        `  goal: ${what} -> ${
          value === undefined ? "not measured" : `${got} ${value <= limit ? "(met)" : "(NOT met)"}`
        }`,
      );
    for (const form of ["bundle", "compiled"] as const) {
      const t = list[form];
      if (!t || !list.peer) continue;
      const wall = t.median / list.peer.median;
      const cpu = t.cpuMedian !== undefined && list.peer.cpuMedian
        ? t.cpuMedian / list.peer.cpuMedian
        : undefined;
      goal(
        `bucket list at most 1.5× raps (${form}, wall)`,
        `${wall.toFixed(2)}× (CPU ${cpu?.toFixed(2) ?? "?"}×)`,
        wall,
        1.5,
      );
    }
    for (const name of ["--help", "--version"]) {
      const r = rows.find((x) => x.name === name)!;
      for (const form of ["bundle", "compiled"] as const) {
        const t = r[form];
        if (!t) continue;
        const base = r.empty ?? empty;
        const wall = t.median / base.median;
        const cpu = t.cpuMedian !== undefined && base.cpuMedian ? t.cpuMedian / base.cpuMedian : undefined;
        goal(
          `${name} at most 1.3× an empty Deno program run in the same turns, ${fmt(base)} (${form}, wall)`,
          `${wall.toFixed(2)}× (CPU ${cpu?.toFixed(2) ?? "?"}×)`,
          wall,
          1.3,
        );
      }
    }
    await printInstructions([
      { name: "empty Deno program", cmd: Deno.execPath(), args: emptyArgs, env },
      { name: "diazo --help (bundle)", cmd: Deno.execPath(), args: [...forms.bundle, "--help"], env },
      {
        name: "diazo bucket list (bundle)",
        cmd: Deno.execPath(),
        args: [...forms.bundle, ...cases[2].diazo],
        env,
      },
      ...(forms.peer
        ? [{
          name: "raps bucket list",
          cmd: forms.peer,
          args: cases[2].peer,
          env: peerEnv,
          before: emptyPeerCache,
        }]
        : []),
    ]);
    return [
      empty,
      ...rows.flatMap((
        r,
      ) => [r.source, r.bundle, ...(r.compiled ? [r.compiled] : []), ...(r.peer ? [r.peer] : [])]),
    ];
  } finally {
    await sb.close();
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) await benchStartup();
