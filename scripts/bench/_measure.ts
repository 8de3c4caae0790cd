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
    await opts.before?.();
    const cpu0 = childrenCpuMs();
    const t0 = performance.now();
    const out = await new Deno.Command(cmd, {
      args: [...args],
      env: opts.env,
      cwd: opts.cwd,
      stdin: "null",
      stdout: opts.check ? "piped" : "null",
      stderr: "piped",
    }).output();
    const ms = performance.now() - t0;
    const cpu1 = childrenCpuMs();
    if (out.code !== 0) {
      throw new Error(`${name} failed (exit ${out.code}): ${new TextDecoder().decode(out.stderr).trim()}`);
    }
    if (i < opts.warmup) continue;
    if (opts.check) opts.check(new TextDecoder().decode(out.stdout));
    walls.push(ms);
    if (cpu0 !== undefined && cpu1 !== undefined) cpus.push(cpu1 - cpu0);
  }
  return {
    name,
    median: median(walls),
    mean: walls.reduce((a, b) => a + b, 0) / walls.length,
    min: Math.min(...walls),
    max: Math.max(...walls),
    ...(cpus.length ? { cpuMedian: median(cpus) } : {}),
  };
}
