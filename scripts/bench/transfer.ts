/**
 * Transfer benchmark: `object upload` / `object download` of a generated file against a sandbox
 * process, beside the loopback ceiling (one plain PUT and its completion / one GET of the same
 * bytes, to the sandbox's storage route), with the diazo process's peak memory (small-file batches: batch.ts).
 * Printed, never asserted. Size: BENCH_TRANSFER_MIB (default 1024).
 */
import path from "node:path";
import { rawFetch } from "../../src/services/raw_transport.ts";
import { COMPILE_PERMISSIONS } from "../build.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const MAIN = path.join(ROOT, "src/main.ts");
const CFG = ["--config", path.join(ROOT, "deno.json")];
const MiB = 1024 * 1024;
const BUCKET = "bench-transfer";

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

/** The command that runs diazo from source as the compiled binary would (its permissions), output piped. */
export function diazoCommand(args: string[], env: Record<string, string>, cwd: string): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...COMPILE_PERMISSIONS, ...CFG, MAIN, ...args],
    env,
    cwd,
    stdout: "piped",
    stderr: "piped",
  });
}

/** Runs diazo to completion, timing it and sampling its peak memory. */
export async function diazo(args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  const t0 = performance.now();
  const child = diazoCommand(args, env, cwd).spawn();
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

/** Starts `diazo sandbox --port 0` as its own process and returns its URL. */
export async function startSandboxProcess(env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...COMPILE_PERMISSIONS, ...CFG, MAIN, "sandbox", "--port", "0"],
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
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await reader.cancel().catch(() => {});
    },
  };
}

async function token(url: string): Promise<string> {
  const res = await fetch(`${url}/authentication/v2/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${btoa("diazo-sandbox:diazo-sandbox-secret")}`,
    },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      scope: "data:read data:write data:create",
    }),
  });
  return (await res.json()).access_token;
}

/**
 * The ceiling: one PUT of the whole file to a signed storage URL and the completion that makes it
 * an object (timed together: the sandbox hashes the bytes as they arrive, or, for parts out of
 * order, before it completes, so a PUT alone would time a varying share of that work), then one GET
 * of it discarded and
 * one GET streamed into a fresh file (what a plain `curl -o` download does, under the same
 * delete-and-sync conditions as diazo's download runs).
 */
async function ceiling(
  url: string,
  file: string,
): Promise<{ putMs: number; getMs: number; getDiscardMs: number }> {
  const t = await token(url);
  const auth = { authorization: `Bearer ${t}` };
  const obj = `${url}/oss/v2/buckets/${BUCKET}/objects/ceiling.bin`;
  const signed = await (await fetch(`${obj}/signeds3upload?parts=1&minutesExpiration=60`, { headers: auth }))
    .json();
  // The fastest plain way to send the bytes: the whole file in one request from memory.
  const bytes = await Deno.readFile(file);
  let t0 = performance.now();
  const put = await rawFetch(signed.urls[0], { method: "PUT", body: bytes });
  await put.body?.cancel();
  await (await rawFetch(`${obj}/signeds3upload`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ uploadKey: signed.uploadKey }),
  })).body?.cancel();
  const putMs = performance.now() - t0;
  const dl = await (await fetch(`${obj}/signeds3download?minutesExpiration=60`, { headers: auth })).json();
  t0 = performance.now();
  const res = await fetch(dl.url);
  for await (const _ of res.body!) { /* discard */ }
  const getDiscardMs = performance.now() - t0;
  const copy = `${file}.ceiling-copy`;
  await settle();
  t0 = performance.now();
  const saved = await Deno.open(copy, { write: true, create: true, truncate: true });
  await (await fetch(dl.url)).body!.pipeTo(saved.writable);
  const getMs = performance.now() - t0;
  await Deno.remove(copy);
  return { putMs, getMs, getDiscardMs };
}

const rate = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);

/** Flushes dirty pages so that one measurement does not pay for the previous one's writes. */
async function settle(): Promise<void> {
  await new Deno.Command("sync").output().catch(() => {});
  await new Promise((r) => setTimeout(r, 500));
}

/** A clean environment for diazo and its sandbox under a scratch `home`, logged in as the sandbox's app. */
export function benchEnv(home: string): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? home,
    DIAZO_CONFIG_DIR: path.join(home, "config"),
    DIAZO_STATE_DIR: path.join(home, "state"),
    DIAZO_TOKEN_STORE: "file",
    SVC_CLIENT_ID: "diazo-sandbox",
    SVC_CLIENT_SECRET: "diazo-sandbox-secret",
    NO_COLOR: "1",
  };
}

/** Runs the transfer benchmark and prints its table. */
export async function benchTransfer(): Promise<void> {
  const mib = Number(Deno.env.get("BENCH_TRANSFER_MIB") ?? 1024);
  const home = await Deno.makeTempDir({ prefix: "diazo-bench-transfer-" });
  const env = benchEnv(home);
  const sb = await startSandboxProcess(env);
  env.DIAZO_BASE_URL = sb.url;
  try {
    const file = path.join(home, "model.obj");
    const gen = await diazo(
      ["generate", "obj", "--size", `${mib}MiB`, "-o", file, "--output", "json"],
      env,
      home,
    );
    const size = JSON.parse(gen.stdout).size as number;
    await diazo(["bucket", "create", "--key", BUCKET], env, home);
    // Best of two runs each: the first read of freshly written data is often slower.
    const best = <T extends { ms: number }>(a: T, b: T) => (a.ms <= b.ms ? a : b);
    const ceilRuns = [];
    for (let i = 0; i < 2; i++) (await settle(), ceilRuns.push(await ceiling(sb.url, file)));
    const ceil = {
      putMs: Math.min(...ceilRuns.map((c) => c.putMs)),
      getMs: Math.min(...ceilRuns.map((c) => c.getMs)),
      getDiscardMs: Math.min(...ceilRuns.map((c) => c.getDiscardMs)),
    };
    const upload = () => diazo(["object", "upload", BUCKET, file, "--output", "json"], env, home);
    await settle();
    const up1 = await upload();
    await settle();
    const up = best(up1, await upload());
    const download = async () => {
      await Deno.remove(path.join(home, "copy.obj")).catch(() => {});
      await settle();
      return await diazo(
        ["object", "download", BUCKET, "model.obj", "-o", path.join(home, "copy.obj")],
        env,
        home,
      );
    };
    const down = best(await download(), await download());

    const rows = [
      ["loopback ceiling: PUT+complete", rate(size, ceil.putMs), "", ""],
      [
        "diazo object upload",
        rate(size, up.ms),
        `${((rate(size, up.ms) / rate(size, ceil.putMs)) * 100).toFixed(0)}%`,
        up.peakMiB,
      ],
      ["(one GET, bytes discarded)", rate(size, ceil.getDiscardMs), "", ""],
      ["loopback ceiling: GET to file", rate(size, ceil.getMs), "", ""],
      [
        "diazo object download",
        rate(size, down.ms),
        `${((rate(size, down.ms) / rate(size, ceil.getMs)) * 100).toFixed(0)}%`,
        down.peakMiB,
      ],
    ];
    console.log(
      `\nTransfer of a generated ${
        (size / MiB).toFixed(0)
      } MiB OBJ against a sandbox process (whole command incl. start-up; best of 2):`,
    );
    console.log(
      `  ${"".padEnd(28)} ${"MiB/s".padStart(8)} ${"of ceiling".padStart(11)} ${"peak RSS".padStart(10)}`,
    );
    for (const [name, mbs, share, peak] of rows) {
      const p = typeof peak === "number" ? `${peak.toFixed(0)} MiB` : "";
      console.log(
        `  ${String(name).padEnd(28)} ${Number(mbs).toFixed(0).padStart(8)} ${String(share).padStart(11)} ${
          p.padStart(10)
        }`,
      );
    }
    console.log("  goals: upload and download >= 80% of the ceiling; peak memory < 150 MiB for any size");
  } finally {
    await sb.stop();
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) await benchTransfer();
