/**
 * Transfer benchmark: `object upload` / `object download` of a generated file, run from the split
 * bundle as users run it, against a sandbox process, beside the loopback ceiling (one plain PUT and
 * its completion / one GET of the same bytes into a file, to the sandbox's storage route), with the
 * diazo process's peak memory (small-file batches: batch.ts). Each diazo run and its ceiling take
 * turns, five rounds, each run after the same preparation (`prime`): the machine's pace drifts by a
 * third between minutes, so the share is taken per round and its median printed.
 * Printed, never asserted. Size: BENCH_TRANSFER_MIB (default 1024); BENCH_DEBUG=1 prints each
 * round's times. BENCH_PIN=1 (Linux, `taskset`, 2+ CPUs) runs the sandbox on CPU 0 and the bench with
 * every diazo run on CPU 1: the server's CPU is then not the client's, as with the real platform,
 * where by default the sandbox and a hashing client share the machine's cores.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { rawFetch } from "../../src/http/raw_transport.ts";
import { bundle, COMPILE_PERMISSIONS } from "../build.ts";
import { scratchEnv } from "../scratch_env.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const MAIN = path.join(ROOT, "src/main.ts");
const CFG = ["--config", path.join(ROOT, "deno.json")];
const MiB = 1024 * 1024;
const BUCKET = "bench-transfer";
/** Rounds of (ceiling, diazo) pairs: the machine's pace drifts, a round's pair shares one state. */
const ROUNDS = 5;

/** One finished diazo run. */
export interface Run {
  ms: number;
  peakMiB?: number;
  stdout: string;
}

/** Peak resident memory of a process so far (Linux), in MiB. */
export async function peakRss(pid: number): Promise<number | undefined> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The command that runs diazo with the compiled binary's permissions, output piped: from source, or
 * from the split bundle at `entry` as users run it (no project config, imports loaded when reached).
 */
export function diazoCommand(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  entry?: string,
): Deno.Command {
  const program = entry ? ["--no-config", "--unstable-lazy-dynamic-imports", entry] : [...CFG, MAIN];
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...COMPILE_PERMISSIONS, ...program, ...args],
    env,
    cwd,
    stdout: "piped",
    stderr: "piped",
  });
}

/** Runs diazo (from source, or the bundle at `entry`) to completion, timing it and sampling its peak memory. */
export async function diazo(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  entry?: string,
): Promise<Run> {
  const t0 = performance.now();
  const child = diazoCommand(args, env, cwd, entry).spawn();
  let peak: number | undefined;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peak = (await peakRss(child.pid)) ?? peak;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const out = await child.output();
  done = true;
  await sampler;
  const ms = performance.now() - t0;
  const dec = new TextDecoder();
  if (out.code !== 0) throw new Error(`diazo ${args.join(" ")} failed: ${dec.decode(out.stderr)}`);
  return { ms, peakMiB: peak, stdout: dec.decode(out.stdout) };
}

/**
 * Starts `diazo sandbox --port 0` as its own process (pinned to `cpu` when given; `denoFlags` before the
 * program, `sandboxArgs` after `sandbox`): its URL, its pid, how long it took to print the URL, and stop().
 */
export async function startSandboxProcess(
  env: Record<string, string>,
  opts: { cpu?: number; denoFlags?: readonly string[]; sandboxArgs?: readonly string[] } = {},
) {
  const { cpu } = opts;
  const t0 = performance.now();
  const args = [
    "run",
    ...COMPILE_PERMISSIONS,
    ...(opts.denoFlags ?? []),
    ...CFG,
    MAIN,
    "sandbox",
    "--port",
    "0",
    ...(opts.sandboxArgs ?? []),
  ];
  const pinned = cpu === undefined ? [] : ["taskset", "-c", String(cpu)];
  const child = new Deno.Command(pinned[0] ?? Deno.execPath(), {
    args: [...pinned.slice(1), ...(cpu === undefined ? [] : [Deno.execPath()]), ...args],
    env,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the sandbox exited before printing its URL");
    text += value;
  }
  return {
    url: text.split("\n")[0].trim(),
    pid: child.pid,
    startMs: performance.now() - t0,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await reader.cancel().catch(() => {});
    },
  };
}

/** A 2-legged token of the sandbox's well-known app with `scope`. */
export async function sandboxToken(url: string, scope: string): Promise<string> {
  const res = await fetch(`${url}/authentication/v2/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${btoa("diazo-sandbox:diazo-sandbox-secret")}`,
    },
    body: new URLSearchParams({ grant_type: "client_credentials", scope }),
  });
  return (await res.json()).access_token;
}

async function ceilingTarget(url: string, key: string) {
  const t = await sandboxToken(url, "data:read data:write data:create");
  return { auth: { authorization: `Bearer ${t}` }, obj: `${url}/oss/v2/buckets/${BUCKET}/objects/${key}` };
}

/**
 * The upload ceiling: one PUT of the whole file (from memory) to a signed storage URL and the
 * completion that makes it an object, timed together: the sandbox hashes the bytes as they arrive,
 * or, for parts out of order, before it completes, so a PUT alone would time a varying share of that
 * work diazo's number includes.
 */
async function ceilingPut(url: string, bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const { auth, obj } = await ceilingTarget(url, "ceiling.bin");
  const signed = await (await fetch(`${obj}/signeds3upload?parts=1&minutesExpiration=60`, { headers: auth }))
    .json();
  const t0 = performance.now();
  const put = await rawFetch(signed.urls[0], { method: "PUT", body: bytes });
  await put.body?.cancel();
  await (await rawFetch(`${obj}/signeds3upload`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ uploadKey: signed.uploadKey }),
  })).body?.cancel();
  return performance.now() - t0;
}

/** The signed storage URL of the object `key`. */
async function signedGet(url: string, key: string): Promise<string> {
  const { auth, obj } = await ceilingTarget(url, key);
  return (await (await fetch(`${obj}/signeds3download?minutesExpiration=60`, { headers: auth })).json()).url;
}

/**
 * One GET of the object `key` with its bytes discarded: printed for the record, and run before each
 * download pair so that both of its runs read the sandbox's files from memory (the first reader of
 * a round otherwise pays for reading them from disk).
 */
async function discardGet(url: string, key: string): Promise<number> {
  const signed = await signedGet(url, key);
  const t0 = performance.now();
  for await (const _ of (await fetch(signed)).body!) { /* discard */ }
  return performance.now() - t0;
}

/**
 * The download ceiling: one GET of the object diazo downloads (`key`) streamed into `copy`, a fresh
 * file (what a plain `curl -o` does), after the same preparation as diazo's download runs: its
 * previous copy deleted, the machine primed (`prime`).
 */
async function ceilingGet(
  url: string,
  key: string,
  copy: string,
  size: number,
): Promise<{ getMs: number; checkMs: number }> {
  const signed = await signedGet(url, key);
  await Deno.remove(copy).catch(() => {});
  await prime(path.dirname(copy), size);
  let t0 = performance.now();
  const saved = await Deno.open(copy, { write: true, create: true, truncate: true });
  await (await fetch(signed)).body!.pipeTo(saved.writable);
  const getMs = performance.now() - t0;
  // For the record: what checking the copy afterwards adds (`curl -o` then `sha1sum`), which diazo does.
  t0 = performance.now();
  const hash = createHash("sha1");
  const buf = new Uint8Array(MiB);
  using read = Deno.openSync(copy);
  for (let n = read.readSync(buf); n !== null; n = read.readSync(buf)) hash.update(buf.subarray(0, n));
  hash.digest("hex");
  return { getMs, checkMs: performance.now() - t0 };
}

const rate = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);

/** Flushes dirty pages so that one measurement does not pay for the previous one's writes. */
async function settle(): Promise<void> {
  await new Deno.Command("sync").output().catch(() => {});
  await new Promise((r) => setTimeout(r, 500));
}

/**
 * Brings the machine to one state before each timed transfer: `size` bytes written and deleted in
 * `dir`, so that the transfer's writes land in memory freed just before, and for an upload its
 * source file read (in the page cache, as the ceiling's bytes are in memory). On this machine kind
 * memory freed long ago goes back to the host and is slow to write into again: without this, the
 * second run of a pair measured up to twice as fast as the first, whichever it was.
 */
async function prime(dir: string, size: number, source?: string): Promise<void> {
  const buf = new Uint8Array(8 * MiB);
  if (source) {
    using f = await Deno.open(source);
    while ((await f.read(buf)) !== null) { /* into the page cache */ }
  }
  const scratch = path.join(dir, "prime.bin");
  {
    using out = await Deno.open(scratch, { write: true, create: true, truncate: true });
    for (let left = size; left > 0; left -= buf.length) {
      await out.write(buf.subarray(0, Math.min(left, buf.length)));
    }
  }
  await Deno.remove(scratch);
  await settle();
}

/**
 * Pins this process (every thread, and so the processes it starts) to `cpu`; false, with a line
 * saying why, where that cannot be done (no `taskset`, one CPU).
 */
async function pinSelf(cpu: number): Promise<boolean> {
  // Counted before pinning: the count follows this process's CPU affinity.
  const cpus = navigator.hardwareConcurrency;
  const out = cpus > cpu
    ? await new Deno.Command("taskset", {
      args: ["-a", "-p", "-c", String(cpu), String(Deno.pid)],
      stdout: "null",
    })
      .output().catch(() => undefined)
    : undefined;
  if (out?.success) return true;
  console.log("  BENCH_PIN=1: cannot pin here (needs Linux, taskset and 2 CPUs); running unpinned");
  return false;
}

/** One round: each ceiling and the diazo run beside it, back to back. */
interface Round {
  putMs: number;
  up: Run;
  getMs: number;
  /** The ceiling's GET and then the SHA-1 of its copy. */
  checkMs: number;
  discardMs: number;
  down: Run;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percent = (x: number) => `${(x * 100).toFixed(0)}%`;

/**
 * The table: median rates over the rounds, and diazo's share of the ceiling per round (the ceiling
 * and diazo of one round ran a few seconds apart, under the same machine state) with their median.
 */
function printTransfer(size: number, rounds: Round[], pinned: boolean): void {
  const upShares = rounds.map((r) => r.putMs / r.up.ms);
  const downShares = rounds.map((r) => r.getMs / r.down.ms);
  const rows: [string, number, string, number | undefined][] = [
    ["loopback ceiling: PUT+complete", median(rounds.map((r) => rate(size, r.putMs))), "", undefined],
    [
      "diazo object upload",
      median(rounds.map((r) => rate(size, r.up.ms))),
      `${percent(median(upShares))} (${upShares.map(percent).join(" ")})`,
      Math.max(...rounds.map((r) => r.up.peakMiB ?? 0)),
    ],
    ["(one GET, bytes discarded)", median(rounds.map((r) => rate(size, r.discardMs))), "", undefined],
    ["loopback ceiling: GET to file", median(rounds.map((r) => rate(size, r.getMs))), "", undefined],
    ["(that GET, then its SHA-1)", median(rounds.map((r) => rate(size, r.getMs + r.checkMs))), "", undefined],
    [
      "diazo object download",
      median(rounds.map((r) => rate(size, r.down.ms))),
      `${percent(median(downShares))} (${downShares.map(percent).join(" ")})`,
      Math.max(...rounds.map((r) => r.down.peakMiB ?? 0)),
    ],
  ];
  console.log(
    `\nTransfer of a generated ${(size / MiB).toFixed(0)} MiB OBJ against a sandbox process (the bundle, ` +
      `whole command incl. start-up; medians of ${rounds.length} rounds, the share per round in brackets` +
      `${pinned ? "; the sandbox on CPU 0, the ceilings and diazo on CPU 1" : ""}):`,
  );
  console.log(
    `  ${"".padEnd(30)} ${"MiB/s".padStart(6)}  ${"of ceiling".padEnd(28)} ${"peak RSS".padStart(8)}`,
  );
  for (const [name, mbs, share, peak] of rows) {
    const p = peak ? `${peak.toFixed(0)} MiB` : "";
    console.log(`  ${name.padEnd(30)} ${mbs.toFixed(0).padStart(6)}  ${share.padEnd(28)} ${p.padStart(8)}`);
  }
}

/** Runs the transfer benchmark and prints its table. */
export async function benchTransfer(): Promise<void> {
  const mib = Number(Deno.env.get("BENCH_TRANSFER_MIB") ?? 1024);
  const pin = Deno.env.get("BENCH_PIN") === "1" && await pinSelf(1);
  const home = await Deno.makeTempDir({ prefix: "diazo-bench-transfer-" });
  const env = scratchEnv(home);
  const sb = await startSandboxProcess(env, { cpu: pin ? 0 : undefined });
  env.DIAZO_BASE_URL = sb.url;
  try {
    const file = path.join(home, "model.obj");
    const gen = await diazo(
      ["generate", "obj", "--size", `${mib}MiB`, "--out", file, "--output", "json"],
      env,
      home,
    );
    const size = JSON.parse(gen.stdout).size as number;
    const entry = await bundle(path.join(home, "bundle"));
    const run = (args: string[]) => diazo(args, env, home, entry);
    await run(["bucket", "create", "--key", BUCKET]);
    const bytes = await Deno.readFile(file);
    const copy = path.join(home, "copy.obj");
    const rounds: Round[] = [];
    /** Runs `a` and `b`, `a` first in even rounds and `b` first in odd ones. */
    const pair = async <A, B>(round: number, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> => {
      if (round % 2 !== 0) {
        const second = await b();
        return [await a(), second];
      }
      const first = await a();
      return [first, await b()];
    };
    // Round -1 warms up and is not counted: a first run of the bundle's download code compiles it
    // (Deno keeps V8's code cache for the next runs), which measured the first download at half speed.
    for (let round = -1; round < ROUNDS; round++) {
      const [putMs, up] = await pair(
        round,
        async () => (await prime(home, size, file), await ceilingPut(sb.url, bytes)),
        async () => (await prime(home, size, file),
          await run(["object", "upload", BUCKET, file, "-o", "json"])),
      );
      const discardMs = await discardGet(sb.url, "model.obj");
      const [{ getMs, checkMs }, down] = await pair(
        round,
        () => ceilingGet(sb.url, "model.obj", `${copy}.ceiling`, size),
        async () => {
          await Deno.remove(copy).catch(() => {});
          await prime(home, size);
          return await run(["object", "download", BUCKET, "model.obj", "--out", copy]);
        },
      );
      if (round >= 0) rounds.push({ putMs, up, getMs, checkMs, discardMs, down });
      if (Deno.env.get("BENCH_DEBUG")) {
        console.error(round, { putMs, up: up.ms, getMs, checkMs, discardMs, down: down.ms });
      }
    }
    printTransfer(size, rounds, pin);
    console.log("  goals: upload and download >= 80% of the ceiling; peak memory < 150 MiB for any size");
  } finally {
    await sb.stop();
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) await benchTransfer();
