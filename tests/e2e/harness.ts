/**
 * Runs the CLI against a real sandbox on port 0: in this process through `runCli` with captured
 * streams (`diazo`), or as a child process where a process matters (`spawnDiazo`: signals, exit
 * codes of the binary, real stdin/TTY, plugins, hooks).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { COMPILE_PERMISSIONS } from "../../scripts/build.ts";
import { runCli } from "../../src/front/root.ts";
import { forgetSecrets } from "../../src/core/redact.ts";
import type { Sandbox } from "../../src/sandbox/server.ts";
import { captureIo, type Keyboard } from "./capture.ts";
import { startTestSandbox } from "./test_sandbox.ts";
export { captureIo, type Keyboard, keyboard } from "./capture.ts";
export { startTestSandbox } from "./test_sandbox.ts";

/** Repository root. */
export const ROOT = path.resolve(fileURLToPath(new URL("../../", import.meta.url)));
/** Permissions the CLI runs with in tests: the same set the compiled binary gets. */
export const RUN_PERMISSIONS = COMPILE_PERMISSIONS;

/** The well-known sandbox credentials. */
export const SANDBOX_ID = "diazo-sandbox";
/** The well-known sandbox secret. */
export const SANDBOX_SECRET = "diazo-sandbox-secret";

/** A finished CLI run. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A temp home for one test: config and state dirs, a working dir. */
export interface TestHome {
  dir: string;
  configDir: string;
  stateDir: string;
  cwd: string;
  cleanup(): Promise<void>;
}

/** Creates a private home for one test. */
export async function makeHome(): Promise<TestHome> {
  const dir = await Deno.makeTempDir({ prefix: "diazo-e2e-" });
  const home = {
    dir,
    configDir: path.join(dir, "config"),
    stateDir: path.join(dir, "state"),
    cwd: path.join(dir, "work"),
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
  await Deno.mkdir(home.cwd, { recursive: true });
  return home;
}

/** Environment for a CLI run: nothing inherited but what Deno itself needs. */
export function cliEnv(home: TestHome, extra: Record<string, string> = {}): Record<string, string> {
  const keep = ["PATH", "HOME", "DENO_DIR", "SYSTEMROOT", "TMPDIR", "LANG"];
  const env: Record<string, string> = {};
  for (const k of keep) {
    const v = Deno.env.get(k);
    if (v !== undefined) env[k] = v;
  }
  return {
    ...env,
    DIAZO_CONFIG_DIR: home.configDir,
    DIAZO_STATE_DIR: home.stateDir,
    DIAZO_CACHE_DIR: path.join(home.dir, "cache"), // completion values: never the user's own cache
    NO_COLOR: "1",
    DIAZO_RETRY_BASE_MS: "20",
    // On macOS and Windows the OS keychain works in a test run and is the user's own: tests keep
    // their tokens in the temp config dir instead. token_store_test.ts passes "" to test the choice.
    DIAZO_TOKEN_STORE: "file",
    ...extra,
  };
}

/** Environment pointing at a sandbox with its well-known credentials. */
export function sandboxEnv(
  home: TestHome,
  url: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return cliEnv(home, {
    DIAZO_BASE_URL: url,
    SVC_CLIENT_ID: SANDBOX_ID,
    SVC_CLIENT_SECRET: SANDBOX_SECRET,
    ...extra,
  });
}

/** The argv that starts the CLI from source. */
export function cliCommand(args: readonly string[]): string[] {
  return [
    "run",
    ...RUN_PERMISSIONS,
    "--config",
    path.join(ROOT, "deno.json"),
    path.join(ROOT, "src/main.ts"),
    ...args,
  ];
}

/** How one CLI run is started: its whole environment, working directory and standard input. */
export interface SpawnOptions {
  env: Record<string, string>;
  /** Default: this process's working directory, as a child process would inherit it. */
  cwd?: string;
  /** Text on standard input; without it stdin is empty (a child gets /dev/null). */
  stdin?: string;
}

/** An in-process run may also be typed on while it waits, and watched as it writes to stderr. */
export interface RunOptions extends Omit<SpawnOptions, "stdin"> {
  stdin?: string | Keyboard;
  /** Called with the whole stderr so far after every write. */
  onStderr?: (stderr: string) => void;
  /** stdout and stderr are terminals of this many columns (stdin stays as given). */
  terminal?: number;
}

/** DIAZO_TEST_SPAWN=1 runs every command test as a child process, as before (to compare, or to bisect). */
const SPAWN_ALL = Deno.env.get("DIAZO_TEST_SPAWN") === "1";

/** In-process runs under way in this test file. */
let running = 0;

/**
 * Runs the CLI to completion in this process, as `runCli` with captured streams. A run that starts
 * alone starts with no registered secret, as a new process would, so that its redaction (and the
 * `--debug` secret check) does not lean on what earlier runs registered.
 */
export async function diazo(args: readonly string[], opts: RunOptions): Promise<RunResult> {
  const { stdin } = opts;
  if (SPAWN_ALL && typeof stdin !== "object" && !opts.onStderr && opts.terminal === undefined) {
    return await spawnDiazo(args, { ...opts, stdin });
  }
  const cap = captureIo(stdin, opts.onStderr, opts.terminal);
  if (running++ === 0) forgetSecrets();
  let code: number;
  try {
    code = await runCli(args, cap.io, { ...opts.env }, opts.cwd ?? Deno.cwd());
  } finally {
    running--;
  }
  const result = { code, stdout: cap.stdout(), stderr: cap.stderr() };
  if (args.includes("--debug")) assertNoSecrets(result, opts.env);
  return result;
}

/** Runs `cmd` to its end with only `env` (no stdin): its exit code and its output as text. */
export async function runProcess(
  cmd: string,
  args: readonly string[],
  opts: { env: Record<string, string>; cwd?: string },
): Promise<RunResult> {
  const out = await new Deno.Command(cmd, {
    args: [...args],
    env: opts.env,
    clearEnv: true,
    cwd: opts.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Starts the CLI as a child process with piped stdout and stderr (stdin: none unless "piped"). */
export function spawnChild(
  args: readonly string[],
  opts: { env: Record<string, string>; cwd?: string; stdin?: "piped" | "null" },
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: cliCommand(args),
    env: opts.env,
    clearEnv: true,
    cwd: opts.cwd,
    stdin: opts.stdin ?? "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/**
 * Runs the CLI to completion as a child process, for tests where the process itself matters:
 * signals, the binary's entry point and exit codes, plugins and hooks (whose children inherit it).
 */
export async function spawnDiazo(args: readonly string[], opts: SpawnOptions): Promise<RunResult> {
  const child = spawnChild(args, { ...opts, stdin: opts.stdin === undefined ? "null" : "piped" });
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  const result = { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
  if (args.includes("--debug")) assertNoSecrets(result, opts.env);
  return result;
}

/** A sandbox on port 0, a private home, and the environment of a CLI pointed at both. */
export interface SandboxHome {
  sb: Sandbox;
  home: TestHome;
  /** The sandbox's well-known credentials and address, in the home (see `sandboxEnv`). */
  env: Record<string, string>;
  /** Runs the CLI in process with `env`, in the home's working directory unless told otherwise. */
  run(args: readonly string[], opts?: Partial<RunOptions>): Promise<RunResult>;
  /** Stops the sandbox and removes the home. */
  close(): Promise<void>;
}

/** Spawns `diazo <args>` as a sandbox process; resolves with its base URL (its first stdout line) once it serves. */
export async function spawnSandboxProcess(
  home: TestHome,
  args: readonly string[],
  extraEnv: Record<string, string> = {},
): Promise<{ child: Deno.ChildProcess; url: string }> {
  const child = spawnChild(args, { env: cliEnv(home, extraEnv) });
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  while (!buf.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the sandbox exited before serving");
    buf += value;
  }
  // Drained, not closed: a sandbox whose stdout or stderr is closed fails its next write.
  (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done) { /* drain */ }
  })();
  child.stderr.pipeTo(new WritableStream()).catch(() => {});
  return { child, url: buf.split("\n")[0] };
}

/** Starts a sandbox and makes a home; the caller closes both (fixtures that outlive one call). */
export async function openSandboxHome(extraEnv: Record<string, string> = {}): Promise<SandboxHome> {
  const sb = await startTestSandbox();
  const home = await makeHome().catch(async (e) => {
    await sb.close();
    throw e;
  });
  const env = sandboxEnv(home, sb.url, extraEnv);
  return {
    sb,
    home,
    env,
    run: (args, opts = {}) => diazo(args, { env, cwd: home.cwd, ...opts }),
    async close() {
      await home.cleanup();
      await sb.close();
    },
  };
}

/** Runs `fn` with a fresh sandbox and home, closing both however it ends. */
export async function withSandboxHome<T>(
  fn: (h: SandboxHome) => Promise<T>,
  extraEnv: Record<string, string> = {},
): Promise<T> {
  const h = await openSandboxHome(extraEnv);
  try {
    return await fn(h);
  } finally {
    await h.close();
  }
}

/** Reads the sandbox's request log. */
export async function requestLog(
  url: string,
  pathPrefix?: string,
): Promise<
  { method: string; path: string; status: number; time: string | number; query: Record<string, string> }[]
> {
  const res = await fetch(
    `${url}/_sandbox/requests${pathPrefix ? `?path=${encodeURIComponent(pathPrefix)}` : ""}`,
  );
  return await res.json();
}

/** Adds a fault at the sandbox and returns its id. */
export async function addFault(url: string, fault: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${url}/_sandbox/faults`, {
    method: "POST",
    body: JSON.stringify(fault),
    headers: { "content-type": "application/json" },
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`fault not accepted: ${JSON.stringify(body)}`);
  return body.id;
}

/** Asserts-style helper: stdout parsed as JSON, with the whole run in the message on failure. */
export function json<T = unknown>(r: RunResult): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON (exit ${r.code}):\n${r.stdout}\n--- stderr ---\n${r.stderr}`);
  }
}

/**
 * Every `--debug` run in the suite passes through here: its output must hold no client secret and
 * nothing that looks like a token (a JWT's signed parts).
 */
export function assertNoSecrets(r: RunResult, env: Record<string, string>): void {
  const text = r.stdout + r.stderr;
  for (const name of ["SVC_CLIENT_SECRET", "APS_CLIENT_SECRET"]) {
    const v = env[name];
    if (v && v.length >= 4 && text.includes(v)) throw new Error(`--debug output shows ${name}`);
  }
  if (/eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/.test(text)) throw new Error("--debug output shows a token");
}

/** Asserts a run failed with exactly one `error:` line matching `message`, one `hint:` line, and `code`. */
export function assertOneError(r: RunResult, code: number, message: RegExp, hint?: RegExp): void {
  assert.equal(r.code, code, `exit code (stderr: ${r.stderr})`);
  assert.equal(r.stdout, "");
  const lines = r.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 2, `exactly an error and a hint line, got:\n${r.stderr}`);
  assert.match(lines[0], /^error: /);
  assert.match(lines[0], message);
  assert.match(lines[1], /^hint: \S/);
  if (hint) assert.match(lines[1], hint);
  assert.doesNotMatch(r.stderr, /\.ts:\d+:\d+/, "no stack trace");
}

/** Asserts a usage error: exit 2, one `error:` line matching `message`, one `hint:` line. */
export function assertUsageError(r: RunResult, message: RegExp): void {
  assertOneError(r, 2, message);
}
