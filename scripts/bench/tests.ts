/**
 * Test-suite benchmark: one run of `deno task test` (every test file, in parallel), its wall time and
 * its number of tests, beside the suite as it was when every command test spawned a process.
 */
import path from "node:path";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");

/** The suite before tests ran in process: 92 s wall for 577 tests on the 2-core build machine. */
export const BASELINE = { seconds: 92, tests: 577 };

/** What one run of the suite took and counted. */
export interface SuiteRun {
  seconds: number;
  passed: number;
  failed: number;
  ignored: number;
  /** Whether `deno task test` exited 0. */
  ok: boolean;
}

/** The counts of deno test's summary line (`ok | 590 passed (2 steps) | 0 failed | 4 ignored (41s)`). */
export function parseSummary(text: string): Omit<SuiteRun, "seconds" | "ok"> | undefined {
  const line = text.split("\n").findLast((l) => /\|\s*\d+ passed\b/.test(l));
  if (!line) return undefined;
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}\\b`).exec(line)?.[1] ?? 0);
  return { passed: count("passed"), failed: count("failed"), ignored: count("ignored") };
}

/** Runs the whole suite once and returns its wall time and counts. */
export async function runSuite(): Promise<SuiteRun> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "test"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - started) / 1000;
  const dec = new TextDecoder();
  const counts = parseSummary(dec.decode(out.stdout) + dec.decode(out.stderr));
  if (!counts) throw new Error(`no test summary in the output of deno task test (exit ${out.code})`);
  return { seconds, ...counts, ok: out.success };
}

/** Runs the suite once and prints its wall time and number of tests beside the baseline. */
export async function benchTests(): Promise<SuiteRun> {
  const run = await runSuite();
  const tests = run.passed + run.failed + run.ignored;
  console.log("\nTest suite (deno task test, one run, wall time)");
  console.log("".padEnd(30) + "tests".padStart(7) + "wall s".padStart(9) + "  × baseline");
  console.log(
    "baseline (spawned processes)".padEnd(30) + String(BASELINE.tests).padStart(7) +
      BASELINE.seconds.toFixed(1).padStart(9) + "  1.00",
  );
  console.log(
    "now".padEnd(30) + String(tests).padStart(7) + run.seconds.toFixed(1).padStart(9) +
      `  ${(run.seconds / BASELINE.seconds).toFixed(2)}`,
  );
  console.log(
    `  ${run.passed} passed, ${run.failed} failed, ${run.ignored} ignored${
      run.ok ? "" : " — the suite failed"
    }`,
  );
  return run;
}
