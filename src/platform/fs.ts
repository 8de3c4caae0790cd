/**
 * The file reads and appends of every run. The writers that never leave a half-written file behind are
 * fs_write.ts, which a run loads only when it writes.
 */
/**
 * Reads a text file, or undefined when it does not exist. Read synchronously: the files read this way
 * are small (config, tokens, plugins, transfer records), and an asynchronous read that fails costs a
 * short command's start-up about a millisecond more in thread hand-offs.
 */
// deno-lint-ignore require-await
export async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return Deno.readTextFileSync(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

/**
 * Appends `text` to `file` (created with `mode`) in one write, so that concurrent appends of short
 * lines do not interleave. Synchronous: not `Deno.writeTextFile(..., { append })`, which makes Deno
 * load its web streams (~2 ms of a short command's run), nor an opened file (~1 ms of hand-offs).
 */
// deno-lint-ignore require-await
export async function appendText(file: string, text: string, mode = 0o644): Promise<void> {
  Deno.writeFileSync(file, new TextEncoder().encode(text), { append: true, create: true, mode });
}
