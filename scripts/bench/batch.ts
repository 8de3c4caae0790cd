/**
 * Small-file batch benchmark (issue 18): `object upload --batch` of 500 and 2,000 small files, then
 * `object download` of the whole prefix, against a sandbox process — files/s, the signing and
 * completion requests per file from the sandbox's request log, and the process's peak memory.
 * Printed, never asserted; BENCH_BATCH_SIZES overrides the sizes (e.g. "500,2000").
 */
import path from "node:path";
import { diazo, startSandboxProcess } from "./transfer.ts";
import { scratchEnv } from "../scratch_env.ts";

/** Files/s of the batch upload before the batch endpoints (3 round trips per file), at 500 files. */
export const OLD_FILES_PER_S = 88;

/** The sandbox routes that sign URLs or complete uploads, one object or a batch of them. */
const SIGNING =
  /\/(batchsigneds3upload|batchcompleteupload|batchsigneds3download|signeds3upload|signeds3download)$/;

async function signingRequests(url: string): Promise<number> {
  const log = await (await fetch(`${url}/_sandbox/requests`)).json() as { path: string }[];
  return log.filter((e) => SIGNING.test(e.path)).length;
}

async function clearLog(url: string): Promise<void> {
  await (await fetch(`${url}/_sandbox/requests`, { method: "DELETE" })).body?.cancel();
}

/** Runs the batch benchmark and prints its table. */
export async function benchBatch(): Promise<void> {
  const sizes = (Deno.env.get("BENCH_BATCH_SIZES") ?? "500,2000").split(",").map(Number);
  const home = await Deno.makeTempDir({ prefix: "diazo-bench-batch-" });
  const env = scratchEnv(home);
  const sb = await startSandboxProcess(env);
  env.DIAZO_BASE_URL = sb.url;
  const bucket = "bench-batch";
  try {
    await diazo(["bucket", "create", "--key", bucket], env, home);
    console.log(
      "\nSmall-file batches (4-19 KiB files) against a sandbox process, whole command incl. start-up:",
    );
    console.log(
      "  " + "".padEnd(24) + "s".padStart(7) + "files/s".padStart(9) + "× old".padStart(7) +
        "sign+complete/file".padStart(20) + "peak RSS".padStart(10),
    );
    for (const n of sizes) {
      const dir = path.join(home, `batch-${n}`);
      await Deno.mkdir(dir);
      for (let i = 0; i < n; i++) {
        await Deno.writeFile(
          path.join(dir, `part-${i}.obj`),
          new Uint8Array(4096 + (i % 16) * 1024).fill(65),
        );
      }
      await clearLog(sb.url);
      const up = await diazo(["object", "upload", bucket, dir, "--batch", "--prefix", `b${n}/`], env, home);
      const upSigning = await signingRequests(sb.url);
      await clearLog(sb.url);
      const out = path.join(home, `out-${n}`);
      const down = await diazo(["object", "download", bucket, "--prefix", `b${n}/`, "--out", out], env, home)
        .catch((
          e,
        ) => (console.error(`  download of the prefix: ${(e as Error).message.split("\n")[0]}`), undefined));
      const downSigning = down ? await signingRequests(sb.url) : undefined;
      const row = (label: string, r: typeof up | undefined, signing: number | undefined) => {
        if (!r) return console.log(`  ${label.padEnd(24)} (not run)`);
        const rate = n / (r.ms / 1000);
        console.log(
          "  " + label.padEnd(24) + (r.ms / 1000).toFixed(2).padStart(7) + rate.toFixed(0).padStart(9) +
            (rate / OLD_FILES_PER_S).toFixed(1).padStart(7) +
            (signing === undefined ? "?" : (signing / n).toFixed(3)).padStart(20) +
            `${r.peakMiB?.toFixed(0) ?? "?"} MiB`.padStart(10),
        );
      };
      row(`upload --batch ${n}`, up, upSigning);
      row(`download prefix ${n}`, down, downSigning);
    }
    console.log(
      `  goals: 2,000 files at >= 3× ${OLD_FILES_PER_S} files/s, <= 0.2 signing+completion requests per file, ` +
        "peak < 150 MiB",
    );
  } finally {
    await sb.stop();
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) await benchBatch();
