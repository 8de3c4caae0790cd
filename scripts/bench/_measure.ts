/**
 * Timing of short processes for the benchmarks: wall time per run, and CPU time (user + system) per
 * run from `getrusage(RUSAGE_CHILDREN)` deltas where libc is reachable (Linux, macOS) — on a machine
 * shared with other work the CPU time is the steadier number. Medians, never assertions.
 */

/** Summary of one command's runs, in milliseconds. */
export interface Timing {
  name: string;
  median: number;
  mean: number;
  min: number;
  max: number;
  /** Median CPU time (user + system) of the runs, when measurable. */
  cpuMedian?: number;
}

/** What to run, how often. */
export interface MeasureOptions {
  env?: Record<string, string>;
  cwd?: string;
  runs: number;
  warmup: number;
  /** Runs before each run, outside its timing (e.g. emptying a cache the command would answer from). */
  before?: () => Promise<void>;
  /** Checks one run's output (e.g. that it listed what it should); throws to fail the benchmark. */
  check?: (stdout: string) => void;
}

/** The middle value of `xs` (the upper middle for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

type Rusage = () => number | undefined;

let childCpu: Rusage | undefined;

/** CPU milliseconds used so far by this process's waited-for children; undefined where not measurable. */
export function childrenCpuMs(): number | undefined {
  childCpu ??= openRusage();
  return childCpu();
}

function openRusage(): Rusage {
  const os = Deno.build.os;
  if (os !== "linux" && os !== "darwin") return () => undefined;
  try {
    const lib = Deno.dlopen(os === "linux" ? "libc.so.6" : "libSystem.B.dylib", {
      getrusage: { parameters: ["i32", "buffer"], result: "i32" },
    });
    // struct rusage starts with ru_utime and ru_stime, two struct timevals of 64-bit seconds then
    // microseconds (64-bit on Linux, 32-bit + padding on macOS: little-endian, so read the low half).
    const buf = new Uint8Array(256);
    const view = new DataView(buf.buffer);
    const tv = (at: number) =>
      Number(view.getBigInt64(at, true)) * 1000 +
      (os === "linux" ? Number(view.getBigInt64(at + 8, true)) : view.getInt32(at + 8, true)) / 1000;
    return () => (lib.symbols.getrusage(-1, buf) === 0 ? tv(0) + tv(16) : undefined);
  } catch {
    return () => undefined;
  }
}

/** One command to measure. */
export interface Measured {
  name: string;
  cmd: string;
  args: readonly string[];
  opts: MeasureOptions;
}

/** One run of `m`: its wall and CPU milliseconds; throws when it fails. */
async function runOnce(m: Measured): Promise<{ wall: number; cpu?: number; stdout: string }> {
  await m.opts.before?.();
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const out = await new Deno.Command(m.cmd, {
    args: [...m.args],
    env: m.opts.env,
    cwd: m.opts.cwd,
    stdin: "null",
    stdout: m.opts.check ? "piped" : "null",
    stderr: "piped",
  }).output();
  const wall = performance.now() - t0;
  const cpu1 = childrenCpuMs();
  if (out.code !== 0) {
    throw new Error(`${m.name} failed (exit ${out.code}): ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  const cpu = cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined;
  return { wall, cpu, stdout: m.opts.check ? new TextDecoder().decode(out.stdout) : "" };
}

function summarise(name: string, walls: number[], cpus: number[]): Timing {
  return {
    name,
    median: median(walls),
    mean: walls.reduce((a, b) => a + b, 0) / walls.length,
    min: Math.min(...walls),
    max: Math.max(...walls),
    ...(cpus.length ? { cpuMedian: median(cpus) } : {}),
  };
}

/**
 * Measures several commands in turns — one run of each, then again — so that a burst of load on a
 * shared machine falls on all of them alike, and their ratios stay fair. Each item's own `runs` and
 * `warmup` are ignored for `runs`/`warmup` here. A failing item is left out (its error reported).
 */
export async function measureInterleaved(
  items: readonly Measured[],
  runs: number,
  warmup: number,
  onError: (name: string, e: unknown) => void = () => {},
): Promise<(Timing | undefined)[]> {
  const walls = items.map(() => [] as number[]);
  const cpus = items.map(() => [] as number[]);
  const failed = items.map(() => false);
  for (let i = 0; i < warmup + runs; i++) {
    for (const [k, m] of items.entries()) {
      if (failed[k]) continue;
      try {
        const r = await runOnce(m);
        if (i < warmup) continue;
        m.opts.check?.(r.stdout);
        walls[k].push(r.wall);
        if (r.cpu !== undefined) cpus[k].push(r.cpu);
      } catch (e) {
        failed[k] = true;
        onError(m.name, e);
      }
    }
  }
  return items.map((m, k) => (failed[k] ? undefined : summarise(m.name, walls[k], cpus[k])));
}

/** Runs `cmd args` `warmup + runs` times (output discarded unless checked) and summarises the runs. */
export async function measure(
  name: string,
  cmd: string,
  args: readonly string[],
  opts: MeasureOptions,
): Promise<Timing> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < opts.warmup + opts.runs; i++) {
    const r = await runOnce({ name, cmd, args, opts });
    if (i < opts.warmup) continue;
    opts.check?.(r.stdout);
    walls.push(r.wall);
    if (r.cpu !== undefined) cpus.push(r.cpu);
  }
  return summarise(name, walls, cpus);
}
