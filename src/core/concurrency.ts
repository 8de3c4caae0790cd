/** Bounded parallelism: a counting semaphore and a worker pool over a list. */

/** Limits how many tasks run at once; shared limiters bound work across callers. */
export interface Limiter {
  /** Runs `task` once a slot is free. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** A limiter allowing `n` tasks at once (at least one). */
export function createLimiter(n: number): Limiter {
  const size = Math.max(1, Math.floor(n));
  let active = 0;
  const waiting: (() => void)[] = [];
  const acquire = (): Promise<void> => {
    if (active < size) {
      active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return {
    async run(task) {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

/**
 * Runs `fn` over `items` with at most `n` at once and returns the settled results in input
 * order; one failure does not stop the others.
 */
export async function mapSettled<T, R>(
  items: readonly T[],
  n: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = { status: "fulfilled", value: await fn(items[i], i) };
      } catch (reason) {
        results[i] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, n), items.length) }, worker));
  return results;
}
