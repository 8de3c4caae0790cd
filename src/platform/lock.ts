/** A cross-process lock on a file, so that parallel diazo processes take turns. */
import path from "node:path";

/** Options of `withFileLock`. */
export interface LockOptions {
  /** Give up after this long. */
  timeoutMs?: number;
  /** A lock file older than this is left over from a dead process and is taken over. */
  staleMs?: number;
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
  while (true) {
    try {
      const f = await Deno.open(file, { write: true, createNew: true, mode: 0o600 });
      await f.write(new TextEncoder().encode(`${Deno.pid}\n`));
      f.close();
      break;
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) throw e;
      const st = await Deno.stat(file).catch(() => undefined);
      if (st?.mtime && Date.now() - st.mtime.getTime() > staleMs) {
        await Deno.remove(file).catch(() => {});
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the lock ${file}`);
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 60));
    }
  }
  try {
    return await fn();
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}
