/**
 * The verbs' dependencies in process, for tests of ops/: a context on a fresh home, pointed at an
 * in-process sandbox with the well-known app, its stdout and stderr kept in memory.
 */
import type { GlobalFlags } from "../../src/cli/context.ts";
import { contextFor } from "../../src/cli/root.ts";
import type { Io } from "../../src/cli/io.ts";
import type { OpsDeps } from "../../src/ops/deps.ts";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.ts";
import { makeHome, sandboxEnv, type TestHome } from "../e2e/harness.ts";

/** What a test of a verb is given: the deps, the sandbox, and what went to stderr. */
export interface OpsWorld {
  deps: OpsDeps;
  sb: Sandbox;
  home: TestHome;
  stderr: string[];
}

const FLAGS: GlobalFlags = {
  debug: false,
  quiet: false,
  nonInteractive: true,
  yes: false,
  wait: false,
  color: false,
};

/** Runs `fn` with verbs' deps over a fresh sandbox and home, then closes both. */
export async function withOpsDeps(fn: (w: OpsWorld) => Promise<void>): Promise<void> {
  const sb = await startSandbox({ port: 0 });
  const home = await makeHome();
  const stderr: string[] = [];
  const io: Io = {
    stdout: { write: () => {}, isTerminal: false },
    stderr: { write: (t) => void stderr.push(t), isTerminal: false },
    stdin: { isTerminal: false, readText: () => Promise.resolve(""), readLine: () => Promise.resolve(null) },
  };
  try {
    const env = sandboxEnv(home, sb.url, { DIAZO_POLL_BASE_MS: "20" });
    await fn({ deps: await contextFor(io, FLAGS, env, home.cwd), sb, home, stderr });
  } finally {
    await home.cleanup();
    await sb.close();
  }
}
