/**
 * Tool server benchmark: time from spawning `diazo serve` to `initialize` answered, and the latency
 * of `tools/call bucket_list` against a sandbox, through the SDK's Client over stdio; then the sizes a
 * model reads (scripts/bench/serve_sizes.ts).
 */
import path from "node:path";
import { Client, StdioClientTransport } from "../../src/mcp/sdk.ts";
import { startSandbox } from "../../src/sandbox/server.ts";
import { COMPILE_PERMISSIONS } from "../build.ts";
import type { Timing } from "./startup.ts";
import { benchServeSizes } from "./serve_sizes.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const SPAWNS = Number(Deno.env.get("BENCH_RUNS") ?? 10);
const CALLS = 50;
const WARMUP = 2;

function summary(name: string, samples: number[]): Timing {
  const s = [...samples].sort((a, b) => a - b);
  return {
    name,
    median: s[Math.floor(s.length / 2)],
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    min: s[0],
    max: s.at(-1)!,
  };
}

async function connect(env: Record<string, string>): Promise<{ client: Client; ms: number }> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      ...COMPILE_PERMISSIONS,
      "--config",
      path.join(ROOT, "deno.json"),
      path.join(ROOT, "src/main.ts"),
      "serve",
    ],
    env,
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "1" });
  const t0 = performance.now();
  await client.connect(transport); // spawn, then initialize answered
  return { client, ms: performance.now() - t0 };
}

/** Runs the tool server benchmark and prints a table; returns the timings. */
export async function benchServe(): Promise<Timing[]> {
  const sb = await startSandbox({ port: 0 });
  const home = await Deno.makeTempDir({ prefix: "diazo-bench-serve-" });
  const env = {
    DIAZO_CONFIG_DIR: path.join(home, "config"),
    DIAZO_STATE_DIR: path.join(home, "state"),
    DIAZO_TOKEN_STORE: "file",
    DIAZO_BASE_URL: sb.url,
    SVC_CLIENT_ID: "diazo-sandbox",
    SVC_CLIENT_SECRET: "diazo-sandbox-secret",
  };
  try {
    const starts: number[] = [];
    for (let i = 0; i < WARMUP + SPAWNS; i++) {
      const { client, ms } = await connect(env);
      if (i >= WARMUP) starts.push(ms);
      await client.close();
    }
    const { client } = await connect(env);
    const calls: number[] = [];
    try {
      // bucket_create is beyond the default tool set.
      await client.callTool({ name: "toolset_enable", arguments: { toolset: "storage" } });
      await client.callTool({ name: "bucket_create", arguments: { bucket_key: "bench-serve" } });
      for (let i = 0; i < WARMUP + CALLS; i++) {
        const t0 = performance.now();
        const r = await client.callTool({ name: "bucket_list", arguments: {} });
        if (r.isError) throw new Error(`bucket_list failed: ${JSON.stringify(r.content)}`);
        if (i >= WARMUP) calls.push(performance.now() - t0);
      }
    } finally {
      await client.close();
    }
    const results = [
      summary(`spawn -> initialize (${SPAWNS} runs)`, starts),
      summary(`tools/call bucket_list (${CALLS} calls)`, calls),
    ];
    console.log(`\nTool server (diazo serve over stdio, sandbox; wall time in ms, after ${WARMUP} warm-up)`);
    console.log(
      "measure".padEnd(36) + "median".padStart(9) + "mean".padStart(9) + "min".padStart(9) +
        "max".padStart(9),
    );
    for (const r of results) {
      console.log(
        r.name.padEnd(36) + r.median.toFixed(1).padStart(9) + r.mean.toFixed(1).padStart(9) +
          r.min.toFixed(1).padStart(9) + r.max.toFixed(1).padStart(9),
      );
    }
    await benchServeSizes();
    return results;
  } finally {
    await sb.close();
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) await benchServe();
