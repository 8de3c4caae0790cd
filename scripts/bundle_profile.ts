/**
 * The profile that picks which functions of the fast start's chunks are compiled eagerly
 * (bundle_eager.ts): the bundle's commands that start fast (`--help`, `bucket list`, `object list`,
 * `object download`, `auth status`, in their usual shapes) run against an in-process sandbox with
 * V8's coverage, and every function that ran is kept. A function compiled eagerly that never runs
 * only makes the chunk's code cache larger to read; one left lazy that runs is compiled on every run.
 */
import path from "node:path";
import { startSandbox } from "../src/sandbox/server.ts";
import { scratchEnv } from "./scratch_env.ts";

const BUCKET = "diazo-bundle-profile";
const OBJECT = "profile.txt";

/** The command lines the profile runs (after a bucket with one object is made). */
export const PROFILE_RUNS: readonly (readonly string[])[] = [
  ["--help"],
  ["bucket", "list", "--region", "US", "-o", "json"],
  ["bucket", "list"],
  ["bucket", "list", "-o", "table"],
  ["object", "list", BUCKET, "-o", "json"],
  ["object", "list", BUCKET, "-o", "table"],
  ["object", "download", BUCKET, OBJECT, "--out", "downloaded.txt"],
  ["auth", "status", "-o", "json"],
  ["auth", "status"],
];

/** The end offsets of the functions that ran, from one Deno coverage directory: chunk file name -> offsets. */
export function ranFunctions(coverageDir: string): Map<string, Set<number>> {
  const ran = new Map<string, Set<number>>();
  for (const e of Deno.readDirSync(coverageDir)) {
    if (!e.isFile || !e.name.endsWith(".json")) continue;
    const profile = JSON.parse(Deno.readTextFileSync(path.join(coverageDir, e.name))) as {
      url: string;
      functions: { ranges: { endOffset: number; count: number }[] }[];
    };
    if (!profile.url.startsWith("file:")) continue;
    const name = profile.url.slice(profile.url.lastIndexOf("/") + 1);
    const ends = ran.get(name) ?? new Set<number>();
    for (const fn of profile.functions) if (fn.ranges[0]?.count > 0) ends.add(fn.ranges[0].endOffset);
    ran.set(name, ends);
  }
  return ran;
}

/**
 * Runs PROFILE_RUNS from the bundle whose entry is `entry` (started with `runArgs`, e.g. its
 * permissions) against a sandbox of its own, in a home of its own; the functions that ran, per
 * chunk file name. A command that fails fails the profile: the build must not guess.
 */
export async function profileBundle(
  entry: string,
  runArgs: readonly string[],
): Promise<Map<string, Set<number>>> {
  const sandbox = await startSandbox({ port: 0 });
  const home = await Deno.makeTempDir({ prefix: "diazo-bundle-profile-" });
  const coverage = path.join(home, "coverage");
  const env = { ...scratchEnv(home), HOME: home, DIAZO_BASE_URL: sandbox.url };
  const run = async (args: readonly string[], withCoverage: boolean) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...(withCoverage ? [`--coverage=${coverage}`] : []), ...runArgs, entry, ...args],
      cwd: home,
      env,
      clearEnv: true,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) {
      const why = new TextDecoder().decode(out.stderr).trim().split("\n")[0];
      throw new Error(`bundle profile: \`diazo ${args.join(" ")}\` failed: ${why}`);
    }
  };
  try {
    await Deno.writeTextFile(path.join(home, OBJECT), "profile\n");
    await run(["bucket", "create", "--key", BUCKET], false);
    await run(["object", "upload", BUCKET, path.join(home, OBJECT)], false);
    for (const args of PROFILE_RUNS) await run(args, true);
    return ranFunctions(coverage);
  } finally {
    await sandbox.close();
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}
