/**
 * A cross-process lock on a file, so that parallel diazo processes take turns. The file records its
 * holder (pid and host): a holder that was killed leaves the file behind, and the next process takes
 * it over at once instead of waiting for it to age.
 */
import { osPath } from "./path.ts";

/** node:path's functions for this OS, without node:path (platform/path.ts). */
const path = osPath();

/** Options of `withFileLock`. */
export interface LockOptions {
  /** Give up after this long. */
  timeoutMs?: number;
  /** A lock file older than this is left over (its holder hung or cannot be checked) and is taken over. */
  staleMs?: number;
}

/** The holder a lock file names: `<pid> <host>` on its first line. */
interface Holder {
  pid: number;
  host?: string;
}

function thisHost(): string | undefined {
  try {
    return Deno.hostname();
  } catch {
    return undefined; // without --allow-sys the pid alone is recorded
  }
}

/** The holder a lock file's text records, or undefined while it is being written. */
function parseHolder(text: string): Holder | undefined {
  const [pid, host] = text.trim().split(/\s+/);
  const n = Number(pid);
  return Number.isSafeInteger(n) && n > 0 ? { pid: n, host } : undefined;
}

/**
 * False only when the holder is known to be gone: a pid of this host with no live process. A holder
 * on another host (a shared home) or on a system where it cannot be checked counts as alive.
 */
export async function holderAlive(holder: Holder): Promise<boolean> {
  if (holder.host !== undefined && holder.host !== thisHost()) return true;
  if (holder.pid === Deno.pid || Deno.build.os === "windows") return true;
  // `kill -0` asks the kernel without signalling; /proc would need --allow-all under Deno.
  try {
    const out = await new Deno.Command("kill", {
      args: ["-0", String(holder.pid)],
      stdout: "null",
      stderr: "null",
    })
      .output();
    return out.success;
  } catch {
    return true; // no `kill` program or no permission to run it: only the lock's age tells
  }
}

/** How often a waiting process asks again whether the same holder is alive. */
const RECHECK_MS = 1000;

/**
 * A judge of left-over lock files for one wait: older than `staleMs`, or naming a dead holder. The
 * holder is checked once per second at most (a process start each time), and again when it changes.
 */
function leftOverJudge(staleMs: number): (file: string, seen: string) => Promise<boolean> {
  let last: { seen: string; at: number; alive: boolean } | undefined;
  return async (file, seen) => {
    const st = await Deno.stat(file).catch(() => undefined);
    if (!st) return false; // released meanwhile: try again
    if (st.mtime && Date.now() - st.mtime.getTime() > staleMs) return true;
    const holder = parseHolder(seen);
    if (!holder) return false; // still being written
    if (last?.seen !== seen || Date.now() - last.at > RECHECK_MS) {
      last = { seen, at: Date.now(), alive: await holderAlive(holder) };
    }
    return !last.alive;
  };
}

/** Runs `fn` while holding the lock file `file` (created exclusively; removed afterwards). */
export async function withFileLock<T>(
  file: string,
  fn: () => Promise<T>,
  opts: LockOptions = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const staleMs = opts.staleMs ?? 30_000;
  await Deno.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + timeoutMs;
  const host = thisHost();
  const leftOver = leftOverJudge(staleMs);
  while (true) {
    try {
      const f = await Deno.open(file, { write: true, createNew: true, mode: 0o600 });
      await f.write(new TextEncoder().encode(`${Deno.pid}${host ? ` ${host}` : ""}\n`));
      f.close();
      break;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
      const seen = await Deno.readTextFile(file).catch(() => undefined);
      if (seen !== undefined && await leftOver(file, seen)) {
        // Removed only while it still names the holder judged gone: a process that took it over
        // meanwhile keeps its lock (the window left is the few microseconds between read and remove).
        if (await Deno.readTextFile(file).catch(() => undefined) === seen) {
          await Deno.remove(file).catch(() => {});
        }
        continue;
      }
      if (Date.now() > deadline) throw lockTimeout(file, timeoutMs);
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 60));
    }
  }
  try {
    return await fn();
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}

/** The name of the error `withFileLock` throws when its wait ends (platform/ has no catalog errors). */
export const LOCK_TIMEOUT = "LockTimeoutError";

function lockTimeout(file: string, timeoutMs: number): Error {
  const e = new Error(`another diazo process held the lock ${file} for more than ${timeoutMs} ms`);
  e.name = LOCK_TIMEOUT;
  return e;
}
