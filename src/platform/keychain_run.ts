/**
 * Running a keychain tool as a child process: secrets only on stdin, a minimal environment, and a
 * deadline after which the tool's whole process group is killed (README.md, "Configuration").
 */

/** The OS keychain cannot be used: no tool, no session bus, a locked keyring, a timeout... */
export class KeychainUnavailable extends Error {
  override name = "KeychainUnavailable";
}

/** How long a keychain tool may take before it is killed. */
export const DEFAULT_KEYCHAIN_TIMEOUT_MS = 5_000;

/** What a finished keychain tool returned. */
export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of `runTool`. */
export interface RunToolOptions {
  /** Written to the tool's stdin, then stdin is closed; the only way a secret reaches a child. */
  stdin?: string;
  timeoutMs?: number;
  /** The tool's whole environment (see `keychainChildEnv`). */
  env: Record<string, string>;
}

// What the keychain tools need to find the session, the user and the locale; nothing else (in
// particular no client secret from the caller's environment) is passed on.
const CHILD_ENV = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "TMPDIR",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "DBUS_SESSION_BUS_ADDRESS",
  "XDG_RUNTIME_DIR",
  "XDG_DATA_HOME",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_DIRS",
  "XDG_CURRENT_DESKTOP",
  "XDG_SESSION_TYPE",
  "GNOME_KEYRING_CONTROL",
  "SYSTEMROOT",
];

/** The environment a keychain tool gets: an allow-list of session and locale variables. */
export function keychainChildEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of CHILD_ENV) {
    const v = env[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * Runs `cmd args` with `stdin` on its stdin. At the deadline the child's process group is killed
 * and `KeychainUnavailable` is raised; a missing tool raises it too.
 */
export async function runTool(
  cmd: string,
  args: readonly string[],
  opts: RunToolOptions,
): Promise<ToolResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS;
  const unix = Deno.build.os !== "windows";
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(cmd, {
      args: [...args],
      env: opts.env,
      clearEnv: true,
      stdin: opts.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      // Its own process group, so that a timeout also kills whatever the tool started.
      detached: unix,
    }).spawn();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new KeychainUnavailable(`${cmd} not found`);
    if (e instanceof Deno.errors.PermissionDenied) throw new KeychainUnavailable(`${cmd} cannot be run`);
    throw new KeychainUnavailable(`${cmd} could not be started: ${(e as Error).message}`);
  }
  const out = collect(child.stdout);
  const err = collect(child.stderr);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    if (opts.stdin !== undefined) void feed(child.stdin, opts.stdin);
    const done = Promise.all([child.status, out.text, err.text]);
    const first = await Promise.race([done, deadline]);
    if (first === "timeout") {
      kill(child, unix);
      out.cancel();
      err.cancel();
      await child.status.catch(() => {});
      await Promise.allSettled([out.text, err.text]);
      throw new KeychainUnavailable(`${cmd} did not answer within ${timeoutMs / 1000} s`);
    }
    const [status, stdout, stderr] = first;
    return { code: status.code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

function kill(child: Deno.ChildProcess, unix: boolean): void {
  try {
    if (unix) Deno.kill(-child.pid, "SIGKILL");
    else child.kill();
  } catch {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }
}

async function feed(stdin: WritableStream<Uint8Array>, text: string): Promise<void> {
  const w = stdin.getWriter();
  try {
    await w.write(new TextEncoder().encode(text));
    await w.close();
  } catch {
    // The tool exited without reading everything; its exit code tells what happened.
    await w.abort().catch(() => {});
  }
}

function collect(stream: ReadableStream<Uint8Array>): { text: Promise<string>; cancel(): void } {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  const text = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
    return new TextDecoder().decode(all);
  })();
  return { text, cancel: () => void reader.cancel().catch(() => {}) };
}

/** A runner for one keychain tool: its timeout and an allow-listed environment, argv and stdin per call. */
export function toolRunner(
  cmd: string,
  opts: { timeoutMs?: number; env?: Record<string, string | undefined> },
): (args: string[], stdin?: string) => Promise<ToolResult> {
  return (args, stdin) =>
    runTool(cmd, args, {
      stdin,
      timeoutMs: opts.timeoutMs,
      env: keychainChildEnv(opts.env ?? Deno.env.toObject()),
    });
}
