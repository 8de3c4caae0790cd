/** Shared set-up of the storage tests: runCli in process against an in-process sandbox with one bucket. */
import { startTestSandbox } from "../e2e/test_sandbox.ts";
import assert from "node:assert/strict";
import { runCli } from "../../src/front/root.ts";
import type { Io } from "../../src/command/io.ts";
import { makeHome, type RunResult, sandboxEnv, type TestHome } from "../e2e/harness.ts";

/** A sandbox, a home, a bucket, and `run` (runCli in the home's working directory). */
export interface StorageFixture {
  url: string;
  home: TestHome;
  env: Record<string, string>;
  bucket: string;
  run(argv: string[], env?: Record<string, string>): Promise<RunResult>;
  close(): Promise<void>;
}

/** Streams that keep what was written; only stdout may claim to be a terminal. */
export function captureIo(stdoutIsTerminal = false): { io: Io; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    io: {
      stdout: { write: (t) => void (out += t), isTerminal: stdoutIsTerminal },
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

/** Starts a sandbox and a home and creates `bucket` in it. */
export async function storageFixture(bucket = "st-safety"): Promise<StorageFixture> {
  const sb = await startTestSandbox();
  const home = await makeHome();
  const env = sandboxEnv(home, sb.url);
  const run = async (argv: string[], runEnv = env): Promise<RunResult> => {
    const cap = captureIo();
    const code = await runCli(argv, cap.io, runEnv, home.cwd);
    return { code, stdout: cap.out(), stderr: cap.err() };
  };
  const made = await run(["bucket", "create", "--key", bucket]);
  assert.equal(made.code, 0, made.stderr);
  return {
    url: sb.url,
    home,
    env,
    bucket,
    run,
    async close() {
      await home.cleanup();
      await sb.close();
    },
  };
}
