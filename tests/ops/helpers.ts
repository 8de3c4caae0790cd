/**
 * The verbs' dependencies in process, for tests of ops/: a context on a fresh home, pointed at an
 * in-process sandbox with the well-known app, its stdout and stderr kept in memory.
 */
import type { GlobalFlags } from "../../src/command/context.ts";
import { contextFor } from "../../src/front/root.ts";
import type { OpsDeps } from "../../src/session/deps.ts";
import type { Sandbox } from "../../src/sandbox/server.ts";
import { captureIo, type TestHome, withSandboxHome } from "../e2e/harness.ts";

/** What a test of a verb is given: the deps, the sandbox, and what went to stderr. */
export interface OpsWorld {
  deps: OpsDeps;
  sb: Sandbox;
  home: TestHome;
  stderr: string[];
}

/** The global flags of a non-interactive run without options, for contexts built in tests. */
export const FLAGS: GlobalFlags = {
  debug: false,
  quiet: false,
  nonInteractive: true,
  yes: false,
  wait: false,
  color: false,
  wide: false,
};

/** Runs `fn` with verbs' deps over a fresh sandbox and home, then closes both. */
export async function withOpsDeps(fn: (w: OpsWorld) => Promise<void>): Promise<void> {
  await withSandboxHome(async ({ sb, home, env }) => {
    const stderr: string[] = [];
    let seen = 0;
    const { io } = captureIo("", (all) => {
      stderr.push(all.slice(seen));
      seen = all.length;
    });
    await fn({ deps: await contextFor(io, FLAGS, env, home.cwd), sb, home, stderr });
  }, { DIAZO_POLL_BASE_MS: "20" });
}
