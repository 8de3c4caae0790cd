/** Running a command string through the OS shell (hooks, pipeline shell steps), with a timeout that kills everything it started. */

/** How `command` is handed to the shell of `os`: `sh -c` on POSIX, `cmd.exe /d /s /c` on Windows. */
export function shellInvocation(
  os: string,
  command: string,
): { program: string; args: string[]; windowsRawArguments: boolean } {
  if (os === "windows") {
    return { program: "cmd.exe", args: ["/d", "/s", "/c", `"${command}"`], windowsRawArguments: true };
  }
  return { program: "/bin/sh", args: ["-c", command], windowsRawArguments: false };
}

/** What a shell run ended with. */
export interface ShellResult {
  /** The exit code, or null when it was killed by the timeout. */
  code: number | null;
  timedOut: boolean;
  elapsedMs: number;
}

/** Options of one shell run. */
export interface ShellOptions {
  /** Extra environment on top of the inherited one. */
  env?: Record<string, string>;
  /**
   * The environment to inherit instead of this process's (the run's, with credentials removed); when
   * set, the child gets exactly it plus `env`.
   */
  inherit?: Record<string, string>;
  cwd?: string;
  /** Kill the shell and every process it started after this long. */
  timeoutMs: number;
  /** Receives the shell's stdout and stderr (both), chunk by chunk. */
  onOutput: (chunk: Uint8Array) => void;
}

/** Runs `command` with no arguments in its own process group; on timeout the whole group is killed. */
export async function runShell(command: string, opts: ShellOptions): Promise<ShellResult> {
  const started = performance.now();
  const inv = shellInvocation(Deno.build.os, command);
  const child = new Deno.Command(inv.program, {
    args: inv.args,
    windowsRawArguments: inv.windowsRawArguments,
    env: opts.inherit ? { ...opts.inherit, ...opts.env } : opts.env,
    clearEnv: opts.inherit !== undefined,
    cwd: opts.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: Deno.build.os !== "windows",
  }).spawn();
  let timedOut = false;
  let exited = false;
  let expire: () => void = () => {};
  const expired = new Promise<void>((resolve) => expire = resolve);
  const timer = setTimeout(() => {
    if (!exited) {
      timedOut = true;
      killTree(child.pid);
    }
    expire();
  }, opts.timeoutMs);
  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const pump = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) opts.onOutput(r.value);
  };
  const pumped = Promise.all(readers.map(pump)).catch(() => {});
  try {
    const status = await child.status;
    exited = true;
    // A process it left behind in another session (`setsid`) may hold the pipes open: read what
    // comes until the timeout (and a moment after a kill), then stop waiting for it.
    let grace: ReturnType<typeof setTimeout> | undefined;
    const graceOver = expired.then(() => new Promise<void>((r) => grace = setTimeout(r, OUTPUT_GRACE_MS)));
    await Promise.race([pumped, graceOver]);
    clearTimeout(grace);
    await Promise.all(readers.map((r) => r.cancel().catch(() => {})));
    return {
      code: timedOut ? null : status.code,
      timedOut,
      elapsedMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** How long output is still read after the timeout, for the last words of a killed command. */
const OUTPUT_GRACE_MS = 200;

/** Kills a process and everything in its group (POSIX) or tree (Windows). */
function killTree(pid: number): void {
  try {
    if (Deno.build.os === "windows") {
      new Deno.Command("taskkill", {
        args: ["/T", "/F", "/PID", String(pid)],
        stdout: "null",
        stderr: "null",
      })
        .spawn();
    } else {
      Deno.kill(-pid, "SIGKILL");
    }
  } catch { /* already gone */ }
}
