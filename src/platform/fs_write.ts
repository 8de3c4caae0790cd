/**
 * File writes that never leave a half-written file behind: a temp file in the same directory, then a
 * rename. Apart from fs.ts's reads and appends, which every run makes: a run that writes nothing
 * (a list) loads none of this.
 */
import { osPath } from "./path.ts";

/** node:path's functions for this OS, without node:path (platform/path.ts). */
const path = osPath();

/**
 * Writes a file atomically: a temp file in the same directory, then a rename. `mode` applies to the
 * new file (0o600 for secrets) and is set before any content is written.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const dir = path.dirname(file);
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `.${path.basename(file)}.${crypto.randomUUID()}.tmp`);
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  try {
    await Deno.writeFile(tmp, bytes, { mode, createNew: true });
    if (Deno.build.os !== "windows") await Deno.chmod(tmp, mode);
    await Deno.rename(tmp, file);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
  // A writer killed between its write and its rename leaves a temp file; one a minute old is dead.
  await removeAtomicLeftovers(file, { olderThanMs: 60_000 });
}

/**
 * Removes the temp files that atomic saves of `file` left behind when killed mid-save; with
 * `olderThanMs`, only those not modified for that long (a live save takes milliseconds).
 * Returns how many were removed; never throws.
 */
export async function removeAtomicLeftovers(
  file: string,
  opts: { olderThanMs?: number } = {},
): Promise<number> {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  let removed = 0;
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.startsWith(prefix) || !entry.name.endsWith(".tmp")) continue;
      const leftover = path.join(dir, entry.name);
      if (opts.olderThanMs !== undefined) {
        const mtime = (await Deno.stat(leftover).catch(() => undefined))?.mtime?.getTime();
        if (mtime === undefined || Date.now() - mtime < opts.olderThanMs) continue;
      }
      removed += await Deno.remove(leftover).then(() => 1, () => 0);
    }
  } catch {
    // an unreadable directory has nothing we may tidy
  }
  return removed;
}

/**
 * Streams chunks into a file atomically: a temp file in the same directory, renamed over `file`
 * when every chunk is written, removed on any failure or abort. Unless `overwrite`, an existing
 * `file` is refused with Deno.errors.AlreadyExists before anything is written. Returns the bytes written.
 */
export async function writeChunksAtomic(
  file: string,
  chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  opts: { overwrite?: boolean; mode?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const refuseExisting = async () => {
    if (opts.overwrite) return;
    const there = await Deno.lstat(file).then(() => true, (e) => {
      if (e instanceof Deno.errors.NotFound) return false;
      throw e;
    });
    if (there) throw new Deno.errors.AlreadyExists(`${file} already exists`);
  };
  await refuseExisting();
  const dir = path.dirname(file);
  await Deno.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${crypto.randomUUID()}.tmp`);
  const mode = opts.mode ?? 0o644;
  const handle = await Deno.open(tmp, { write: true, createNew: true, mode });
  let written = 0;
  let closed = false;
  try {
    for await (const chunk of chunks) {
      opts.signal?.throwIfAborted();
      written += await writeAll(handle, chunk);
    }
    opts.signal?.throwIfAborted();
    handle.close();
    closed = true;
    await refuseExisting();
    await Deno.rename(tmp, file);
    return written;
  } catch (e) {
    if (!closed) handle.close();
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/**
 * Writes chunks to `out` (the run's standard output, which a test or a pipeline step may capture),
 * in order; returns the bytes written.
 */
export async function writeChunksTo(
  out: { write(bytes: Uint8Array): void },
  chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  opts: { signal?: AbortSignal } = {},
): Promise<number> {
  let written = 0;
  for await (const chunk of chunks) {
    opts.signal?.throwIfAborted();
    out.write(chunk);
    written += chunk.length;
  }
  return written;
}

async function writeAll(w: { write(p: Uint8Array): Promise<number> }, bytes: Uint8Array): Promise<number> {
  let off = 0;
  while (off < bytes.length) off += await w.write(bytes.subarray(off));
  return bytes.length;
}
