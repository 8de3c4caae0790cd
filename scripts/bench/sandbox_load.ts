/**
 * Sandbox under load (`BENCH_ONLY=sandbox`): one `diazo sandbox --data-dir` process and 16 concurrent
 * clients listing, uploading (signed S3 upload: URL, PUT, complete) and downloading (signed URL, GET)
 * for a while; requests per second, p50/p99 per operation, and the sandbox's memory (RSS at the end
 * and its peak, VmHWM, from /proc). Then the same load against a data dir whose bucket holds 100,000
 * objects (made in-process through the object store, then journaled), with the time to start on it.
 * Numbers are printed, never asserted.
 */
import path from "node:path";
import { createSandboxContext } from "../../src/sandbox/context.ts";
import { keptSigningKey, openDurable } from "../../src/sandbox/persist/durable.ts";
import { putObject } from "../../src/sandbox/oss/object_store.ts";
import { COMPILE_V8_FLAGS } from "../build.ts";
import { median } from "./_measure.ts";
import { sandboxToken, startSandboxProcess } from "./transfer.ts";
import { scratchEnv } from "../scratch_env.ts";

const CLIENTS = 16;
const SECONDS = Number(Deno.env.get("BENCH_LOAD_SECONDS") ?? 10);
const BIG = Number(Deno.env.get("BENCH_BIG_OBJECTS") ?? 100_000);
const BODY = new Uint8Array(64 * 1024).map((_, i) => i % 251);
const SCOPES = "bucket:create bucket:read data:read data:write data:create";

/** A sandbox process on a data dir, run with the binary's V8 flags: its URL and its memory from /proc (Linux). */
async function spawnSandbox(dataDir: string) {
  const sb = await startSandboxProcess(scratchEnv(path.dirname(dataDir)), {
    denoFlags: COMPILE_V8_FLAGS,
    sandboxArgs: ["--data-dir", dataDir],
  });
  const memory = async () => {
    const status = await Deno.readTextFile(`/proc/${sb.pid}/status`).catch(() => "");
    const kib = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
    return { rssMiB: kib("VmRSS") / 1024, peakMiB: kib("VmHWM") / 1024 };
  };
  return { ...sb, memory };
}

const tokenAt = (url: string) => sandboxToken(url, SCOPES);

/** One client's view: base URL, bearer, the bucket, the keys there are. */
interface Load {
  url: string;
  headers: Record<string, string>;
  bucket: string;
  keys: string[];
  requests: number;
}

async function ok(res: Response): Promise<Response> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return res;
}

async function upload(l: Load, key: string): Promise<void> {
  const at = `${l.url}/oss/v2/buckets/${l.bucket}/objects/${encodeURIComponent(key)}/signeds3upload`;
  const signed = await (await ok(await fetch(at, { headers: l.headers }))).json();
  await (await ok(await fetch(signed.urls[0], { method: "PUT", body: BODY }))).body?.cancel();
  const done = await fetch(at, {
    method: "POST",
    headers: { ...l.headers, "content-type": "application/json" },
    body: JSON.stringify({ uploadKey: signed.uploadKey }),
  });
  await (await ok(done)).body?.cancel();
  l.requests += 3;
}

async function download(l: Load, key: string): Promise<void> {
  const at = `${l.url}/oss/v2/buckets/${l.bucket}/objects/${encodeURIComponent(key)}/signeds3download`;
  const signed = await (await ok(await fetch(at, { headers: l.headers }))).json();
  await (await ok(await fetch(signed.url))).arrayBuffer();
  l.requests += 2;
}

async function list(l: Load): Promise<void> {
  const from = l.keys[Math.floor(Math.random() * l.keys.length)];
  const at = `${l.url}/oss/v2/buckets/${l.bucket}/objects?limit=100&startAt=${encodeURIComponent(from)}`;
  await (await ok(await fetch(at, { headers: l.headers }))).arrayBuffer();
  l.requests += 1;
}

const p = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

/** 16 clients for SECONDS: each turn lists, uploads or downloads; prints the figures. */
async function run(label: string, l: Load, memory: () => Promise<{ rssMiB: number; peakMiB: number }>) {
  const times: Record<string, number[]> = { list: [], upload: [], download: [] };
  const end = performance.now() + SECONDS * 1000;
  let peakRss = 0;
  const sampler = setInterval(async () => (peakRss = Math.max(peakRss, (await memory()).rssMiB)), 250);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async (_, c) => {
    for (let i = c; performance.now() < end; i += CLIENTS) {
      const op = ["list", "upload", "download"][i % 3];
      const started = performance.now();
      if (op === "list") await list(l);
      else if (op === "upload") await upload(l, `load-${c}-${i}`);
      else await download(l, l.keys[Math.floor(Math.random() * l.keys.length)]);
      times[op].push(performance.now() - started);
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const mem = await memory();
  const ops = Object.entries(times).map(([op, xs]) =>
    `${op} ${xs.length} (p50 ${median(xs).toFixed(1)} ms, p99 ${p(xs, 0.99).toFixed(1)} ms)`
  );
  console.log(
    `  ${label}: ${(l.requests / secs).toFixed(0)} requests/s over ${secs.toFixed(1)} s; ${ops.join("; ")}`,
  );
  console.log(
    `    sandbox memory: RSS ${mem.rssMiB.toFixed(0)} MiB at the end, ${
      peakRss.toFixed(0)
    } MiB sampled peak, ` +
      `${mem.peakMiB.toFixed(0)} MiB VmHWM (peak since start)`,
  );
}

/** Objects written at once while making the big data dir. */
const BATCH = 500;

/** A data dir whose bucket `big` holds `n` one-byte objects, written through the object store and journaled. */
async function bigDataDir(dir: string, n: number): Promise<number> {
  const t0 = performance.now();
  // The store directly: a hundred thousand HTTP uploads would measure the client, not the sandbox.
  await Deno.mkdir(dir, { recursive: true });
  const ctx = createSandboxContext([await keptSigningKey(dir)], dir);
  const durable = await openDurable(ctx);
  ctx.oss.buckets.set("big", {
    bucketKey: "big",
    bucketOwner: "diazo-sandbox",
    createdDate: Date.now(),
    policyKey: "transient",
    region: "US",
    permissions: [{ authId: "diazo-sandbox", access: "full" }],
  });
  const one = new Uint8Array([1]);
  for (let i = 0; i < n; i += BATCH) {
    await Promise.all(
      Array.from(
        { length: Math.min(BATCH, n - i) },
        (_, j) => putObject(ctx.oss, "big", `obj-${String(i + j).padStart(6, "0")}`, one),
      ),
    );
    if ((i / BATCH) % 20 === 0) await durable.commit();
  }
  await durable.close();
  return performance.now() - t0;
}

/** The sandbox load benchmark. */
export async function benchSandboxLoad(): Promise<void> {
  if (Deno.build.os !== "linux") return console.log("sandbox load: Linux only (memory from /proc)");
  console.log(`sandbox under load (${CLIENTS} clients, --data-dir, 64 KiB objects):`);
  const dir = await Deno.makeTempDir({ prefix: "diazo-bench-load-" });
  try {
    const sb = await spawnSandbox(path.join(dir, "small"));
    try {
      const token = await tokenAt(sb.url);
      const headers = { authorization: `Bearer ${token}` };
      await ok(
        await fetch(`${sb.url}/oss/v2/buckets`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ bucketKey: "load", policyKey: "transient" }),
        }),
      );
      const l: Load = { url: sb.url, headers, bucket: "load", keys: [], requests: 0 };
      for (let i = 0; i < 100; i++) await upload(l, `seed-${i}`);
      l.keys = Array.from({ length: 100 }, (_, i) => `seed-${i}`);
      l.requests = 0;
      await run("a bucket of 100 objects", l, sb.memory);
    } finally {
      await sb.stop();
    }
    const made = await bigDataDir(path.join(dir, "big"), BIG);
    console.log(
      `  ${BIG.toLocaleString("en")} objects written to a data dir in ${
        (made / 1000).toFixed(1)
      } s (in-process)`,
    );
    const big = await spawnSandbox(path.join(dir, "big"));
    try {
      const m = await big.memory();
      console.log(
        `  start on it (journal replayed, every object checked): ${(big.startMs / 1000).toFixed(1)} s, ` +
          `RSS ${m.rssMiB.toFixed(0)} MiB`,
      );
      const token = await tokenAt(big.url);
      const keys = Array.from(
        { length: 1000 },
        (_, i) => `obj-${String(i * Math.floor(BIG / 1000)).padStart(6, "0")}`,
      );
      const l: Load = {
        url: big.url,
        headers: { authorization: `Bearer ${token}` },
        bucket: "big",
        keys,
        requests: 0,
      };
      await run(`a bucket of ${BIG.toLocaleString("en")} objects`, l, big.memory);
    } finally {
      await big.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
