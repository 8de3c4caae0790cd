/** In-process runs of the CLI for the robustness tests of issue 14: captured streams, no terminal. */
import { runCli } from "../../src/cli/root.ts";
import type { Io } from "../../src/cli/io.ts";
import type { RunResult } from "../e2e/harness.ts";

/** Streams that keep what was written, none of them a terminal. */
export function captureIo(): { io: Io; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    io: {
      stdout: { write: (t) => void (out += t), isTerminal: false },
      stderr: { write: (t) => void (err += t), isTerminal: false },
      stdin: {
        isTerminal: false,
        readText: () => Promise.resolve(""),
        readLine: () => Promise.resolve(null),
      },
    },
    out: () => out,
    err: () => err,
  };
}

/** Runs `argv` in process with `env` in `cwd`; the exit code and what was written. */
export async function run(argv: string[], env: Record<string, string>, cwd: string): Promise<RunResult> {
  const cap = captureIo();
  const code = await runCli(argv, cap.io, env, cwd);
  return { code, stdout: cap.out(), stderr: cap.err() };
}
