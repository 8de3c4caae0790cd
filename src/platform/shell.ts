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
  /**
   * On a timeout, how many processes it started had left its process group (`setsid`) and were
   * stopped too (Linux, where /proc shows who started whom).
   */
  escaped?: number;
  /**
   * On a timeout on Windows, why `taskkill /T` could not stop the tree (the shell alone was then
   * terminated); absent when it did.
   */
  killFailure?: string;
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
  let killed: Promise<KillOutcome> = Promise.resolve({ escaped: 0 });
  let expire: () => void = () => {};
  const expired = new Promise<void>((resolve) => expire = resolve);
  const timer = setTimeout(() => {
    if (!exited) {
      timedOut = true;
      killed = killTree(child);
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
    const { escaped, failure } = await killed;
    return {
      code: timedOut ? null : status.code,
      timedOut,
      ...(escaped > 0 ? { escaped } : {}),
      ...(failure ? { killFailure: failure } : {}),
      elapsedMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** How long output is still read after the timeout, for the last words of a killed command. */
const OUTPUT_GRACE_MS = 200;

/** What a timeout's kill did: processes stopped outside the group (Linux), or why the tree was not stopped (Windows). */
interface KillOutcome {
  escaped: number;
  failure?: string;
}

/**
 * Kills a process and everything in its group (POSIX) or tree (Windows, `taskkill /T`, checked). On
 * Linux its descendants are found first through /proc (by parent), so that one that moved to its own
 * session (`setsid`) is stopped too; `escaped` counts those outside the group.
 */
async function killTree(child: Deno.ChildProcess): Promise<KillOutcome> {
  if (Deno.build.os === "windows") return await taskkillTree(child);
  const pid = child.pid;
  let escaped = 0;
  for (const d of Deno.build.os === "linux" ? descendantsOf(pid) : []) {
    try {
      Deno.kill(d.pid, "SIGKILL");
      if (d.pgid !== pid) escaped++;
    } catch { /* already gone */ }
  }
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch { /* already gone */ }
  return { escaped };
}

/**
 * `taskkill /T /F` on the shell's tree; when it fails (not found, refused, not there), the shell
 * itself is terminated and the failure returned, for the warning to say what was not stopped.
 */
async function taskkillTree(child: Deno.ChildProcess): Promise<KillOutcome> {
  let failure: string | undefined;
  try {
    const out = await new Deno.Command("taskkill", {
      args: ["/T", "/F", "/PID", String(child.pid)],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    const said = new TextDecoder().decode(out.stderr).trim().split(/\r?\n/)[0];
    if (!out.success) failure = `taskkill exited with ${out.code}${said ? `: ${said}` : ""}`;
  } catch (e) {
    failure = `taskkill could not be run: ${(e as Error).message}`;
  }
  if (failure) {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }
  return { escaped: 0, ...(failure ? { failure } : {}) };
}

/** Every process under `root` (children, their children...) with its process group, from /proc. */
function descendantsOf(root: number): { pid: number; pgid: number }[] {
  const procs: { pid: number; ppid: number; pgid: number }[] = [];
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      try {
        const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
        // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after its last ')'.
        const [, ppid, pgid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        procs.push({ pid: Number(entry.name), ppid: Number(ppid), pgid: Number(pgid) });
      } catch { /* exited meanwhile */ }
    }
  } catch {
    return [];
  }
  const found: { pid: number; pgid: number }[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        found.push({ pid: p.pid, pgid: p.pgid });
        grew = true;
      }
    }
  }
  return found;
}
