/** File helpers that never leave a half-written file behind. */
import path from "node:path";

/** Reads a text file, or undefined when it does not exist. */
export async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

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
}
