/**
 * Reality-capture benchmark: `reality-capture upload` of BENCH_RC_PHOTOS photos (default 200) of
 * BENCH_RC_MIB MiB each (default 5) against a sandbox process, with the diazo process's peak
 * resident memory beside the 150 MiB it must stay under (issue 16). Printed, never asserted.
 */
import path from "node:path";
import { scratchEnv } from "../scratch_env.ts";
import { diazoCommand, peakRss, startSandboxProcess } from "./transfer.ts";

const MiB = 1024 * 1024;
/** The memory the upload must stay under. */
const LIMIT_MIB = 150;

/** Writes `count` distinct photos of `mib` MiB into `dir` (a few bytes differ per photo). */
async function writePhotos(dir: string, count: number, mib: number): Promise<void> {
  const bytes = new Uint8Array(mib * MiB).map((_, i) => (i * 131) % 251);
  for (let i = 0; i < count; i++) {
    bytes.set(new TextEncoder().encode(`photo ${i} `), 0);
    await Deno.writeFile(path.join(dir, `IMG_${String(i).padStart(4, "0")}.jpg`), bytes);
  }
}

/** Runs diazo to completion, sampling its peak resident memory; throws on a non-zero exit. */
async function measured(args: string[], env: Record<string, string>, cwd: string) {
  const t0 = performance.now();
  const child = diazoCommand(args, env, cwd).spawn();
  let peak: number | undefined;
  let running = true;
  const sampling = (async () => {
    for (; running; await new Promise((r) => setTimeout(r, 20))) peak = (await peakRss(child.pid)) ?? peak;
  })();
  const out = await child.output();
  running = false;
  await sampling;
  const dec = new TextDecoder();
  if (out.code !== 0) throw new Error(`diazo ${args.join(" ")} failed: ${dec.decode(out.stderr)}`);
  return { ms: performance.now() - t0, peakMiB: peak, stdout: dec.decode(out.stdout) };
}

/** Prints the upload's time, rate and peak memory. */
export async function benchReality(): Promise<void> {
  const count = Number(Deno.env.get("BENCH_RC_PHOTOS") ?? 200);
  const mib = Number(Deno.env.get("BENCH_RC_MIB") ?? 5);
  const dir = await Deno.makeTempDir({ prefix: "diazo-bench-rc-" });
  const photos = path.join(dir, "photos");
  await Deno.mkdir(photos);
  const env = { ...scratchEnv(dir), HOME: dir };
  const sandbox = await startSandboxProcess(env);
  try {
    await writePhotos(photos, count, mib);
    const run = { ...env, DIAZO_BASE_URL: sandbox.url };
    const created = await measured(["reality-capture", "create", "--name", "bench", "-o", "json"], run, dir);
    const id = JSON.parse(created.stdout).photosceneid as string;
    const up = await measured(["reality-capture", "upload", id, photos, "-o", "json"], run, dir);
    const result = JSON.parse(up.stdout) as { uploaded: number; failed: number };
    const total = count * mib;
    const peak = up.peakMiB;
    console.log(
      `reality-capture upload: ${result.uploaded}/${count} photos of ${mib} MiB (${total} MiB) in ${
        (up.ms / 1000).toFixed(1)
      } s (${(total / (up.ms / 1000)).toFixed(0)} MiB/s), ${result.failed} failed; peak RSS ${
        peak === undefined ? "n/a (not Linux)" : `${peak.toFixed(0)} MiB`
      } (limit ${LIMIT_MIB} MiB: ${peak === undefined ? "unknown" : peak < LIMIT_MIB ? "under" : "OVER"})`,
    );
  } finally {
    await sandbox.stop();
    await Deno.remove(dir, { recursive: true });
  }
}
