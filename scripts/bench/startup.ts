/**
 * Startup benchmark of the shipped form: the bundle the release binary is compiled from
 * (scripts/build.ts `bundle`, run with the binary's permissions and V8 flags), the binary itself where
 * it can be built here, and the peer Rust client `raps` (npm package
 * @dmytro-yemelianov/raps-cli-linux-x64, installed into the ignored .bench/peer/) — one command of
 * every family, with a user login present, against one sandbox, in one run: medians of wall and CPU
 * time beside an empty Deno program; then, where valgrind is installed, the instructions of one run of
 * each (steady on a busy machine) and the budget: every command at most 2.0× the empty program's
 * instructions, `bucket list` at most 1.5× raps (wall). Each list is of a page or two, as the other
 * commands answer; `object list` of 1,000 objects (eleven pages) is printed beside them, outside the
 * budget, for what a long list costs. Printed, never asserted. BENCH_RUNS sets the runs per command
 * (default 15).
 */
import path from "node:path";
import { startSandbox } from "../../src/sandbox/server.ts";
import { bundle, COMPILE_PERMISSIONS, COMPILE_V8_FLAGS } from "../build.ts";
import { measureInterleaved, type Timing } from "./_measure.ts";
import { scratchEnv } from "../scratch_env.ts";

export type { Timing } from "./_measure.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 15);
const WARMUP = 2;
const LIST_BUCKET = "bench-startup-list";
const LIST_OBJECTS = 1000;
/** A bucket of a page of objects, as the other lists answer (projects: 20, issues: two pages). */
const PAGE_BUCKET = "bench-startup-page";
const PAGE_OBJECTS = 20;
const USER_SCOPES =
  "data:read data:write data:create bucket:read viewables:read account:read user-profile:read";
/** The sandbox's seeded ACC hub and project (src/sandbox/dm/world.ts: ids derived from their names). */
const HUB = "b.dc6589d2-9ad1-4301-a2e8-6a1ff3b25cec";
const PROJECT = "b.91f8bd44-058f-480c-adbb-861df5101b22";
/** The URN of the model the seed uploads and translates (`bench-startup-list/model.obj`). */
const URN = "dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6YmVuY2gtc3RhcnR1cC1saXN0L21vZGVsLm9iag";

/** One command of every family (diazo's words; the peer's where it has the command). */
export const STARTUP_CASES: readonly {
  name: string;
  diazo: string[];
  peer?: string[];
  /** Printed beside the budget, not counted in it (a long list rather than a start-up). */
  beside?: boolean;
}[] = [
  { name: "--version", diazo: ["--version"], peer: ["--version"] },
  { name: "--help", diazo: ["--help"], peer: ["--help"] },
  {
    name: "bucket list",
    diazo: ["bucket", "list", "--region", "US", "-o", "json"],
    peer: ["bucket", "list", "--output", "json"],
  },
  { name: "bucket info", diazo: ["bucket", "info", LIST_BUCKET, "-o", "json"] },
  {
    name: `object list (${PAGE_OBJECTS})`,
    diazo: ["object", "list", PAGE_BUCKET, "-o", "json"],
    peer: ["object", "list", PAGE_BUCKET, "--output", "json"],
  },
  {
    name: `object list (${LIST_OBJECTS})`,
    diazo: ["object", "list", LIST_BUCKET, "-o", "json"],
    peer: ["object", "list", LIST_BUCKET, "--output", "json"],
    beside: true,
  },
  { name: "translate status", diazo: ["translate", "status", URN, "-o", "json"] },
  { name: "hub list", diazo: ["hub", "list", "-o", "json"] },
  { name: "project list", diazo: ["project", "list", HUB, "-o", "json"] },
  { name: "folder list", diazo: ["folder", "list", PROJECT, "--hub", HUB, "-o", "json"] },
  { name: "issue list", diazo: ["issue", "list", "--project", PROJECT, "-o", "json"] },
  { name: "rfi list", diazo: ["rfi", "list", "--project", PROJECT, "-o", "json"] },
  { name: "webhook list", diazo: ["webhook", "list", "-o", "json"] },
  { name: "da engines", diazo: ["da", "engines", "-o", "json"] },
  {
    name: "admin project list",
    diazo: ["admin", "project", "list", "--account", HUB.slice(2), "-o", "json"],
  },
  { name: "config list", diazo: ["config", "list", "-o", "json"] },
  {
    name: "auth status",
    diazo: ["auth", "status", "-o", "json"],
    peer: ["auth", "status", "--output", "json"],
  },
  { name: "api /oss/v2/buckets", diazo: ["api", "/oss/v2/buckets"] },
];

/** The budget: a command's instructions at most this many times an empty Deno program's. */
const INSTRUCTION_BUDGET = 2.0;

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
async function printInstructions(commands: readonly (Counted & { beside?: boolean })[]): Promise<void> {
  const counts: [string, number, boolean][] = [];
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
      counts.push([c.name, Number(m[1]), c.beside === true]);
    } catch {
      return console.log("  instructions not counted: valgrind is not installed");
    }
  }
  const base = counts[0][1];
  console.log(
    `  instructions (callgrind, one run each, millions; × the empty program; budget ${INSTRUCTION_BUDGET}×):`,
  );
  let met = 0;
  for (const [name, n, beside] of counts) {
    const x = n / base;
    const budget = !name.startsWith("diazo ")
      ? ""
      : beside
      ? "  (a long list: beside the budget)"
      : x <= INSTRUCTION_BUDGET
      ? "  (met)"
      : "  (NOT met)";
    if (budget === "  (met)") met++;
    console.log(`    ${name.padEnd(34)} ${(n / 1e6).toFixed(1).padStart(7)}  ${x.toFixed(2)}×${budget}`);
  }
  const diazoRows = counts.filter(([name, , beside]) => name.startsWith("diazo ") && !beside).length;
  console.log(
    `  goal: every command at most ${INSTRUCTION_BUDGET}× the empty program -> ${met} of ${diazoRows} met`,
  );
}

/** A bucket of `count` small objects, uploaded with one `--batch` run. */
async function seedBucket(
  forms: Forms,
  env: Record<string, string>,
  home: string,
  key: string,
  count: number,
) {
  const dir = path.join(home, `seed-${key}`);
  await Deno.mkdir(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    await Deno.writeTextFile(path.join(dir, `obj-${String(i).padStart(4, "0")}.txt`), `object ${i}\n`);
  }
  await run(Deno.execPath(), [...forms.bundle, "bucket", "create", "--key", key], env);
  await run(Deno.execPath(), [...forms.bundle, "object", "upload", key, dir, "--batch"], env);
}

/** Buckets of LIST_OBJECTS and PAGE_OBJECTS objects, a translated model, a user login. */
async function seedObjects(forms: Forms, env: Record<string, string>, home: string): Promise<void> {
  await seedBucket(forms, env, home, LIST_BUCKET, LIST_OBJECTS);
  await seedBucket(forms, env, home, PAGE_BUCKET, PAGE_OBJECTS);
  // A translated model, for `translate status`.
  const model = path.join(home, "model.obj");
  await run(Deno.execPath(), [...forms.bundle, "generate", "obj", "--size", "20KB", "--out", model], env);
  await run(
    Deno.execPath(),
    [...forms.bundle, "object", "upload", LIST_BUCKET, model, "--key", "model.obj"],
    env,
  );
  await run(Deno.execPath(), [...forms.bundle, "translate", "start", URN, "--wait"], env);
  // A user login, as people run the commands of the user's data (the sandbox approves at once).
  await run(Deno.execPath(), [...forms.bundle, "auth", "login", "--device", "--scopes", USER_SCOPES], env);
}

const fmt = (t?: Timing) => (t ? `${t.median.toFixed(1)}/${t.cpuMedian?.toFixed(1) ?? "?"}` : "—");
const ratio = (a?: Timing, b?: Timing, key: "median" | "cpuMedian" = "median") =>
  a?.[key] !== undefined && b?.[key] !== undefined ? (a[key]! / b[key]!).toFixed(2) : "—";

/** Runs the startup benchmark and prints its table; returns every timing. */
export async function benchStartup(): Promise<Timing[]> {
  // long: one benchmark's setup (sandbox, bundle, peer, seed data), measurement table and goal lines
  const sb = await startSandbox({ port: 0 });
  await fetch(`${sb.url}/_sandbox/config`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ device_flow: true, auto_approve: true, device_interval_seconds: 1 }),
  }).then((r) => r.body?.cancel());
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
      // The bundle as the binary runs it: its permissions and V8 flags, no project config.
      bundle: [
        "run",
        ...COMPILE_PERMISSIONS,
        ...COMPILE_V8_FLAGS,
        "--no-config",
        "--unstable-lazy-dynamic-imports",
        entry,
      ],
      compiled: compiled.bin,
      peer: peer.bin,
    };
    await seedObjects(forms, env, home);
    const opts = { env, runs: RUNS, warmup: WARMUP };
    const emptyArgs = ["run", "--no-config", path.join(ROOT, "scripts/bench/empty.ts")];
    const rows: { name: string; bundle: Timing; compiled?: Timing; peer?: Timing; empty: Timing }[] = [];
    // raps answers a repeated list from its response cache on disk: emptied before each of its runs
    // (outside the timing), so that it lists from the sandbox as diazo does.
    const emptyPeerCache = () =>
      Deno.remove(path.join(home, ".cache/raps/response_cache"), { recursive: true }).catch(() => {});
    for (const c of STARTUP_CASES) {
      // The forms and an empty program in turns, so that load on a shared machine falls on each alike.
      const withPeer = forms.peer && c.peer;
      const timings = await measureInterleaved(
        [
          { name: `bundle ${c.name}`, cmd: Deno.execPath(), args: [...forms.bundle, ...c.diazo], opts },
          { name: `empty Deno program beside ${c.name}`, cmd: Deno.execPath(), args: emptyArgs, opts },
          ...(forms.compiled
            ? [{ name: `compiled ${c.name}`, cmd: forms.compiled, args: c.diazo, opts }]
            : []),
          ...(withPeer
            ? [{
              name: `raps ${c.name}`,
              cmd: forms.peer!,
              args: c.peer!,
              opts: { ...opts, env: peerEnv, before: emptyPeerCache },
            }]
            : []),
        ],
        RUNS,
        WARMUP,
        (name, e) => console.error(`${name}: ${(e as Error).message.split("\n")[0]}`),
      );
      const [bundled, emptyBeside] = timings;
      if (!bundled || !emptyBeside) {
        console.error(`diazo ${c.name}: not measured (it failed)`);
        continue;
      }
      rows.push({
        name: c.name,
        bundle: bundled,
        empty: emptyBeside,
        compiled: forms.compiled ? timings[2] : undefined,
        peer: withPeer ? timings.at(-1) : undefined,
      });
    }
    console.log(
      `\nStartup of the shipped form: medians of ${RUNS} runs after ${WARMUP} warm-ups, wall/CPU ms, one ` +
        "sandbox, a user login present; each beside an empty Deno program run in the same turns",
    );
    console.log(
      forms.peer ? "  raps with its response cache emptied before each run" : `  peer not run: ${peer.why}`,
    );
    if (!forms.compiled) console.log(`  compiled form not built here: ${compiled.why}`);
    console.log(
      "  " + "command".padEnd(22) + "bundle".padStart(13) + "compiled".padStart(13) + "empty".padStart(13) +
        "raps".padStart(13) + "  ÷empty".padStart(9) + "  ÷raps".padStart(8),
    );
    for (const r of rows) {
      console.log(
        "  " + r.name.padEnd(22) + fmt(r.bundle).padStart(13) + fmt(r.compiled).padStart(13) +
          fmt(r.empty).padStart(13) + fmt(r.peer).padStart(13) + ratio(r.bundle, r.empty).padStart(9) +
          ratio(r.bundle, r.peer).padStart(8),
      );
    }
    const list = rows.find((r) => r.name === "bucket list")!;
    if (list.peer) {
      const wall = list.bundle.median / list.peer.median;
      console.log(
        `  goal: bucket list at most 1.5× raps (wall) -> ${wall.toFixed(2)}× ${
          wall <= 1.5 ? "(met)" : "(NOT met)"
        }`,
      );
    }
    await printInstructions([
      { name: "empty Deno program", cmd: Deno.execPath(), args: emptyArgs, env },
      ...STARTUP_CASES.map((c) => ({
        name: `diazo ${c.name}`,
        cmd: Deno.execPath(),
        args: [...forms.bundle, ...c.diazo],
        env,
        beside: c.beside,
      })),
      ...(forms.peer
        ? [{
          name: "raps bucket list",
          cmd: forms.peer,
          args: STARTUP_CASES[2].peer!,
          env: peerEnv,
          before: emptyPeerCache,
        }]
        : []),
    ]);
    return rows.flatMap((
      r,
    ) => [r.empty, r.bundle, ...(r.compiled ? [r.compiled] : []), ...(r.peer ? [r.peer] : [])]);
  } finally {
    await sb.close();
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) await benchStartup();
