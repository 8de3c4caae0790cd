/** Startup benchmark: `diazo --version` and `diazo bucket list` beside an empty Deno program. */
import path from "node:path";
import { startSandbox } from "../../src/sandbox/server.ts";
import { COMPILE_PERMISSIONS } from "../build.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const PERMS = COMPILE_PERMISSIONS;
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 15);
const WARMUP = 2;

/** Timing summary of one command, in milliseconds. */
export interface Timing {
  name: string;
  median: number;
  mean: number;
  min: number;
  max: number;
}

async function time(name: string, args: string[], env: Record<string, string>): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t0 = performance.now();
    const out = await new Deno.Command(Deno.execPath(), { args, env, stdout: "null", stderr: "piped" })
      .output();
    const ms = performance.now() - t0;
    if (out.code !== 0) throw new Error(`${name} failed: ${new TextDecoder().decode(out.stderr)}`);
    if (i >= WARMUP) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return {
    name,
    median: samples[Math.floor(samples.length / 2)],
    mean,
    min: samples[0],
    max: samples.at(-1)!,
  };
}

/** Runs the startup benchmark and prints a table; returns the timings. */
export async function benchStartup(): Promise<Timing[]> {
  const cfg = ["--config", path.join(ROOT, "deno.json")];
  const main = path.join(ROOT, "src/main.ts");
  const sb = await startSandbox({ port: 0 });
  const home = await Deno.makeTempDir({ prefix: "diazo-bench-" });
  const env = {
    DIAZO_CONFIG_DIR: path.join(home, "config"),
    DIAZO_STATE_DIR: path.join(home, "state"),
    DIAZO_BASE_URL: sb.url,
    SVC_CLIENT_ID: "diazo-sandbox",
    SVC_CLIENT_SECRET: "diazo-sandbox-secret",
  };
  try {
    const results = [
      await time("empty Deno program", ["run", ...cfg, path.join(ROOT, "scripts/bench/empty.ts")], env),
      await time("diazo --version", ["run", ...PERMS, ...cfg, main, "--version"], env),
      await time("diazo --help", ["run", ...PERMS, ...cfg, main, "--help"], env),
      await time("diazo bucket list (sandbox)", [
        "run",
        ...PERMS,
        ...cfg,
        main,
        "bucket",
        "list",
        "--region",
        "US",
      ], env),
    ];
    const base = results[0].median;
    console.log(`\nStartup (${RUNS} runs after ${WARMUP} warm-up, wall time in ms)`);
    console.log(
      "command".padEnd(32) + "median".padStart(9) + "mean".padStart(9) + "min".padStart(9) +
        "max".padStart(9) + "  × empty",
    );
    for (const r of results) {
      console.log(
        r.name.padEnd(32) + r.median.toFixed(1).padStart(9) + r.mean.toFixed(1).padStart(9) +
          r.min.toFixed(1).padStart(9) +
          r.max.toFixed(1).padStart(9) + `  ${(r.median / base).toFixed(2)}`,
      );
    }
    const ratio = results[1].median / base;
    console.log(
      `goal: --version within 1.30× of the empty program -> ${ratio.toFixed(2)}× ${
        ratio <= 1.3 ? "(met)" : "(NOT met)"
      }`,
    );
    return results;
  } finally {
    await sb.close();
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) await benchStartup();
