/**
 * A cross-process lock on a file, so that parallel diazo processes take turns. The file records its
 * holder (pid and host): a holder that was killed leaves the file behind, and the next process takes
 * it over at once instead of waiting for it to age (issue 14 item 14).
 */
import path from "node:path";

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

/** The holder recorded in `file`, or undefined while it is being written or is unreadable. */
async function readHolder(file: string): Promise<Holder | undefined> {
  const text = await Deno.readTextFile(file).catch(() => "");
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
  if (holder.pid === Deno.pid) return true;
  if (Deno.build.os === "linux") {
    const stat = await Deno.readTextFile(`/proc/${holder.pid}/stat`).catch(() => undefined);
    // The state follows the parenthesised command name; "Z" (zombie) and "X" (dead) hold nothing.
    return stat !== undefined && !/\)\s+[ZX]\s/.test(stat);
  }
  if (Deno.build.os === "windows") return true;
  try {
    const out = await new Deno.Command("kill", { args: ["-0", String(holder.pid)], stderr: "null" }).output();
    return out.success;
  } catch {
    return true;
  }
}

/** True when the lock `file` is left over: older than `staleMs`, or its recorded holder is dead. */
async function leftOver(file: string, staleMs: number): Promise<boolean> {
  const st = await Deno.stat(file).catch(() => undefined);
  if (!st) return false; // released meanwhile: try again
  if (st.mtime && Date.now() - st.mtime.getTime() > staleMs) return true;
  const holder = await readHolder(file);
  return holder !== undefined && !(await holderAlive(holder));
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
  while (true) {
    try {
      const f = await Deno.open(file, { write: true, createNew: true, mode: 0o600 });
      await f.write(new TextEncoder().encode(`${Deno.pid}${host ? ` ${host}` : ""}\n`));
      f.close();
      break;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
      const seen = await Deno.readTextFile(file).catch(() => undefined);
      if (seen !== undefined && await leftOver(file, staleMs)) {
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
