/** In-process runs of the CLI for the robustness tests of issue 14: captured streams, no terminal. */
import { runCli } from "../../src/front/root.ts";
import type { RunResult } from "../e2e/harness.ts";
import { captureIo } from "../storage/_cli.ts";

/** Runs `argv` in process with `env` in `cwd`; the exit code and what was written. */
export async function run(argv: string[], env: Record<string, string>, cwd: string): Promise<RunResult> {
  const cap = captureIo();
  const code = await runCli(argv, cap.io, env, cwd);
  return { code, stdout: cap.out(), stderr: cap.err() };
}
