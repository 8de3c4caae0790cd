/**
 * Fault-soak benchmark (issue 14): uploads and downloads of a large generated file through a proxy
 * that cuts connections mid-stream, against a sandbox process injecting 500s and dropped connections
 * on its storage routes; then SIGKILL-and-resume rounds. Every result is checked by SHA-1 against
 * the source. Printed, never asserted; exit 1 when any transfer did not end intact.
 * Size: BENCH_SOAK_MIB (default 200).
 */
import path from "node:path";
import { type CutProxy, startCutProxy } from "./_fault_proxy.ts";
import { diazoCommand, peakRss, startSandboxProcess } from "./transfer.ts";
import { scratchEnv } from "../scratch_env.ts";

const MiB = 1024 * 1024;
const BUCKET = "bench-soak";
const ROUNDS = 10;
const KILL_ROUNDS = 3;
/** Runs of one transfer (the first and then `--resume` runs) before it counts as failed. */
const MAX_RUNS = 6;
/** Where in the transfer each kill round stops the CLI, as a share of the file. */
const KILL_POINTS = [0.25, 0.5, 0.8];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Figures gathered across the whole soak. */
interface Tally {
  attempted: number;
  succeeded: number;
  cliRuns: number;
  failedRuns: number;
  killedRuns: number;
  storageRequests: number;
  faultsFired: number;
  bytesLost: number;
  corrupt: number;
  peakMiB: number;
  cuts: number;
  connections: number;
  resent: { label: string; bytes: number }[];
  problems: string[];
}

/** A spawned diazo process whose peak memory is sampled into the tally. */
function spawnDiazo(args: string[], env: Record<string, string>, cwd: string, tally: Tally) {
  const child = diazoCommand(args, env, cwd).spawn();
  let done = false;
  const sampler = (async () => {
    while (!done) {
      tally.peakMiB = Math.max(tally.peakMiB, (await peakRss(child.pid)) ?? 0);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const finished = (async (): Promise<Run> => {
    const out = await child.output();
    done = true;
    await sampler;
    const dec = new TextDecoder();
    tally.cliRuns++;
    // A SIGKILL of ours is not a failure of the CLI.
    if (out.signal === "SIGKILL") tally.killedRuns++;
    else if (out.code !== 0) tally.failedRuns++;
    return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  })();
  return { child, finished };
}

async function sha1File(file: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", await Deno.readFile(file));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Calls the sandbox's control API (never faulted, never cut: it is reached directly). */
async function sandboxControl(url: string, method: string, route: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${url}/_sandbox/${route}`, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`sandbox ${method} ${route}: HTTP ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : await res.json();
}

/** 20% of storage requests fail: half of them with a 500, half with a dropped connection. */
async function armFaults(sandboxUrl: string): Promise<void> {
  await sandboxControl(sandboxUrl, "POST", "faults", { path: "/__s3/", status: 500, rate: 0.1 });
  // Rules roll in order, so this one only sees the 90% the first let through: 0.9 × 0.111 ≈ 10%.
  await sandboxControl(sandboxUrl, "POST", "faults", { path: "/__s3/", drop: true, rate: 0.111 });
}

/**
 * Runs one transfer with `--resume` (so that a failed run leaves what the next one goes on from),
 * re-running it after a failure until it succeeds or runs out of runs.
 */
async function untilDone(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  tally: Tally,
): Promise<boolean> {
  for (let run = 0; run < MAX_RUNS; run++) {
    const r = await spawnDiazo([...args, "--resume"], env, cwd, tally).finished;
    if (r.code === 0) return true;
    const last = r.stderr.trim().split("\n").at(-1);
    tally.problems.push(`run ${run + 1} of ${args.slice(0, 3).join(" ")} exited ${r.code}: ${last}`);
  }
  return false;
}

/** The stored object's size and SHA-1 as the sandbox reports them. */
async function storedObject(key: string, env: Record<string, string>, cwd: string, tally: Tally) {
  const r = await spawnDiazo(["object", "info", BUCKET, key, "--output", "json"], env, cwd, tally).finished;
  if (r.code !== 0) return undefined;
  const o = JSON.parse(r.stdout);
  return { size: Number(o.size), sha1: String(o.sha1) };
}

interface Source {
  file: string;
  size: number;
  sha1: string;
}

/** Checks an uploaded object against the source and records a loss or corruption. */
async function checkUpload(key: string, src: Source, ok: boolean, ctx: SoakCtx): Promise<boolean> {
  const stored = ok ? await storedObject(key, ctx.env, ctx.home, ctx.tally) : undefined;
  return record(`upload ${key}`, src, stored, ctx.tally);
}

/** Checks a downloaded file against the source, then removes it. */
async function checkDownload(file: string, src: Source, ok: boolean, tally: Tally): Promise<boolean> {
  let got: { size: number; sha1: string } | undefined;
  if (ok) {
    try {
      got = { size: (await Deno.stat(file)).size, sha1: await sha1File(file) };
    } catch { /* missing: lost */ }
  }
  await Deno.remove(file).catch(() => {});
  return record(`download ${path.basename(file)}`, src, got, tally);
}

function record(
  label: string,
  src: Source,
  got: { size: number; sha1: string } | undefined,
  tally: Tally,
): boolean {
  tally.attempted++;
  if (!got || got.size !== src.size) {
    tally.bytesLost += src.size - (got?.size ?? 0);
    tally.problems.push(`${label}: ${got ? `${got.size} of ${src.size} bytes` : "missing"}`);
    return false;
  }
  if (got.sha1 !== src.sha1) {
    tally.corrupt++;
    tally.problems.push(`${label}: SHA-1 ${got.sha1}, expected ${src.sha1}`);
    return false;
  }
  tally.succeeded++;
  return true;
}

interface SoakCtx {
  env: Record<string, string>;
  home: string;
  tally: Tally;
  proxy: CutProxy;
}

/** Starts a command, SIGKILLs it once `share` of the file has passed the proxy, then resumes it. */
async function killAndResume(
  args: string[],
  dir: "up" | "down",
  share: number,
  src: Source,
  ctx: SoakCtx,
): Promise<boolean> {
  const { proxy, tally } = ctx;
  proxy.resetCounters();
  const { child, finished } = spawnDiazo([...args, "--resume"], ctx.env, ctx.home, tally);
  let killed = false;
  const watch = setInterval(() => {
    if (!killed && proxy.counters[dir] >= src.size * share) {
      killed = true;
      child.kill("SIGKILL");
    }
  }, 5);
  const first = await finished;
  clearInterval(watch);
  if (!killed) tally.problems.push(`${args.slice(0, 3).join(" ")} ended (${first.code}) before the kill`);
  const before = proxy.counters[dir];
  proxy.resetCounters();
  const ok = await untilDone(args, ctx.env, ctx.home, tally);
  const after = proxy.counters[dir];
  // What crossed the wire beyond one copy of the file: the cost of the kill.
  tally.resent.push({
    label: `${dir === "up" ? "upload" : "download"} killed at ${share * 100}%`,
    bytes: before + after - src.size,
  });
  return ok;
}

async function soakRounds(src: Source, ctx: SoakCtx, sandboxUrl: string): Promise<void> {
  const { env, home, tally, proxy } = ctx;
  await armFaults(sandboxUrl);
  proxy.resetCounters();
  // A cut connection is cut within its first 32 MiB, so that a keep-alive connection carrying many
  // parts does not mostly escape; every reconnection rolls again.
  proxy.setCuts({ rate: 0.2, minBytes: MiB, maxBytes: Math.min(32 * MiB, Math.max(2 * MiB, src.size)) });
  for (let i = 0; i < ROUNDS; i++) {
    const key = `soak-${i}.obj`;
    const up = await untilDone(["object", "upload", BUCKET, src.file, "--key", key], env, home, tally);
    const stored = await checkUpload(key, src, up, ctx);
    if (!stored) continue;
    const out = path.join(home, `copy-${i}.obj`);
    const down = await untilDone(["object", "download", BUCKET, key, "--out", out], env, home, tally);
    await checkDownload(out, src, down, tally);
    await spawnDiazo(["object", "delete", BUCKET, key, "--yes"], env, home, tally).finished;
    tally.cuts = proxy.counters.cuts;
    tally.connections = proxy.counters.connections;
    console.log(`  round ${i + 1}/${ROUNDS}: ${tally.succeeded} of ${tally.attempted} intact so far`);
  }
  proxy.setCuts(null);
  const faults = await sandboxControl(sandboxUrl, "GET", "faults") as { fired: number }[];
  tally.faultsFired = faults.reduce((n, f) => n + f.fired, 0);
  tally.storageRequests =
    (await sandboxControl(sandboxUrl, "GET", "requests?path=/__s3/") as unknown[]).length;
  await sandboxControl(sandboxUrl, "DELETE", "faults");
}

async function killRounds(src: Source, ctx: SoakCtx): Promise<void> {
  for (let i = 0; i < KILL_ROUNDS; i++) {
    const key = `kill-${i}.obj`;
    const share = KILL_POINTS[i % KILL_POINTS.length];
    const up = await killAndResume(
      ["object", "upload", BUCKET, src.file, "--key", key],
      "up",
      share,
      src,
      ctx,
    );
    if (!await checkUpload(key, src, up, ctx)) continue;
    const out = path.join(ctx.home, `kill-${i}.obj`);
    const down = await killAndResume(
      ["object", "download", BUCKET, key, "--out", out],
      "down",
      share,
      src,
      ctx,
    );
    await checkDownload(out, src, down, ctx.tally);
    console.log(`  kill round ${i + 1}/${KILL_ROUNDS} done`);
  }
}

function printFigures(tally: Tally, src: Source, ms: number): void {
  const mib = (n: number) => `${(n / MiB).toFixed(1)} MiB`;
  console.log(
    `\nFault soak, ${mib(src.size)} file, ${ROUNDS} uploads + ${ROUNDS} downloads under 20% storage faults`,
  );
  console.log(
    `and ~20% of connections cut mid-stream, then ${KILL_ROUNDS} SIGKILL-and-resume rounds of each:`,
  );
  console.log(`  transfers attempted / succeeded: ${tally.attempted} / ${tally.succeeded}`);
  console.log(
    `  CLI runs: ${tally.cliRuns} (${tally.killedRuns} killed by the bench, ${tally.failedRuns} failed and re-run with --resume)`,
  );
  console.log(
    `  storage requests: ${tally.storageRequests}, sandbox faults fired: ${tally.faultsFired} (${
      (tally.faultsFired / Math.max(1, tally.storageRequests) * 100).toFixed(1)
    }%: 500s and dropped connections)`,
  );
  console.log(`  connections cut mid-stream by the proxy: ${tally.cuts} of ${tally.connections}`);
  console.log(`  bytes lost: ${tally.bytesLost}`);
  console.log(`  corrupt: ${tally.corrupt}`);
  console.log(`  resumed bytes re-sent after each kill (incl. HTTP headers):`);
  for (const r of tally.resent) {
    console.log(
      `    ${r.label.padEnd(26)} ${String(r.bytes).padStart(12)} bytes (${
        (r.bytes / src.size * 100).toFixed(1)
      }% of the file)`,
    );
  }
  console.log(`  wall time: ${(ms / 1000).toFixed(1)} s`);
  console.log(`  peak RSS of any diazo process: ${tally.peakMiB.toFixed(0)} MiB`);
  if (tally.problems.length) {
    console.log(`  notes (${tally.problems.length}):`);
    for (const p of tally.problems.slice(0, 30)) console.log(`    ${p}`);
  }
}

/** Runs the soak and prints its figures; true when every transfer ended intact. */
export async function benchSoak(): Promise<boolean> {
  const t0 = performance.now();
  const mib = Number(Deno.env.get("BENCH_SOAK_MIB") ?? 200);
  const home = await Deno.makeTempDir({ prefix: "diazo-bench-soak-" });
  // Short backoff: the soak is about what survives the faults, not how long the waits are.
  const env: Record<string, string> = { ...scratchEnv(home), DIAZO_RETRY_BASE_MS: "20" };
  const sb = await startSandboxProcess(env);
  const proxy = startCutProxy(sb.url);
  env.DIAZO_BASE_URL = proxy.url;
  const tally: Tally = {
    attempted: 0,
    succeeded: 0,
    cliRuns: 0,
    failedRuns: 0,
    killedRuns: 0,
    storageRequests: 0,
    faultsFired: 0,
    bytesLost: 0,
    corrupt: 0,
    peakMiB: 0,
    cuts: 0,
    connections: 0,
    resent: [],
    problems: [],
  };
  const ctx: SoakCtx = { env, home, tally, proxy };
  try {
    const file = path.join(home, "source.obj");
    const gen = await spawnDiazo(["generate", "obj", "--size", `${mib}MiB`, "--out", file], env, home, tally)
      .finished;
    const bucket = await spawnDiazo(["bucket", "create", "--key", BUCKET], env, home, tally).finished;
    if (gen.code !== 0 || bucket.code !== 0) throw new Error(`setup failed: ${gen.stderr}${bucket.stderr}`);
    const src = { file, size: (await Deno.stat(file)).size, sha1: await sha1File(file) };
    await soakRounds(src, ctx, sb.url);
    await killRounds(src, ctx);
    printFigures(tally, src, performance.now() - t0);
    return tally.succeeded === tally.attempted && tally.attempted === 2 * (ROUNDS + KILL_ROUNDS);
  } finally {
    await proxy.close();
    await sb.stop();
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await benchSoak() ? 0 : 1);
