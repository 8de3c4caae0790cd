/**
 * The one reader of input files (`.env`, config.json, plugins.json, `--from-file` bodies, pipeline
 * files, CSV imports, `api --input` and `-F key=@file`): regular files only, a size cap per kind, and memory
 * proportional to the file's size. A FIFO would block every command, `/dev/zero` would never end:
 * both are refused by their type before a byte is read. README.md "Safety" lists the caps.
 */
import { usageError } from "./errors.ts";

const MiB = 1024 * 1024;

/** The largest file of each kind diazo reads. */
export const INPUT_LIMITS = {
  dotenv: 1 * MiB,
  body: 1 * MiB,
  key: 1 * MiB,
  profiles: 1 * MiB,
  config: 1 * MiB,
  plugins: 1 * MiB,
  pipeline: 1 * MiB,
  world: 16 * MiB,
  csv: 64 * MiB,
  request: 256 * MiB,
} as const;

/** What a file is read as (its cap, and the words of its errors). */
export type InputKind = keyof typeof INPUT_LIMITS;

const NAMES: Record<InputKind, string> = {
  dotenv: "a .env file",
  body: "a request body file",
  key: "a private key file",
  profiles: "a profile export file",
  config: "a configuration file",
  plugins: "a plugins file",
  pipeline: "a pipeline file",
  world: "a sandbox world file",
  csv: "a CSV file",
  request: "a request body",
};

/** A file's type in words, when it is not a regular file. */
function typeOf(info: Deno.FileInfo): string | undefined {
  if (info.isFile) return undefined;
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO (named pipe)";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

/** The refusal of a file that is not a regular one (a directory included). */
function notRegular(shown: string, kind: InputKind, what: string) {
  return usageError(
    `${shown} is ${what}, not a regular file`,
    `diazo reads ${NAMES[kind]} only from a regular file; replace or remove ${shown}.`,
  );
}

/** The refusal of a file over its kind's cap. */
function tooLarge(shown: string, kind: InputKind, size: string) {
  const cap = INPUT_LIMITS[kind] / MiB;
  return usageError(
    `${shown} is ${size}: ${NAMES[kind]} is at most ${cap} MiB`,
    `Check that ${shown} is the file meant; a larger input is refused before anything is sent.`,
  );
}

/** How a read names its file and what a directory or a missing file is. */
export interface InputFileOptions {
  /** The file as shown in errors (default: `file`). */
  shown?: string;
  /** What a directory is: an error (default) or "absent" (undefined). */
  directory?: "error" | "absent";
  /** What a missing file is: Deno's own error (default), for the caller to word, or "absent" (undefined). */
  missing?: "error" | "absent";
}

/**
 * The bytes of `file` (shown as `shown` in errors), checked by type and size before any read (a
 * usage error naming it); a missing or unreadable file fails with Deno's own error, for the caller
 * to word. Synchronous: most runs read small files (config.json, plugins.json) or stat one that is
 * not there (.env), and an asynchronous read costs a short command's start-up more in thread
 * hand-offs than the read itself.
 */
export function readInputFileSync(
  file: string,
  kind: InputKind,
  opts: InputFileOptions = {},
): Uint8Array | undefined {
  const shown = opts.shown ?? file;
  const cap = INPUT_LIMITS[kind];
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(file);
  } catch (e) {
    if (opts.missing === "absent" && e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  if (info.isDirectory && opts.directory === "absent") return undefined;
  const what = typeOf(info);
  if (what) throw notRegular(shown, kind, what);
  if (info.size > cap) throw tooLarge(shown, kind, `${(info.size / MiB).toFixed(1)} MiB`);
  const handle = Deno.openSync(file, { read: true });
  try {
    // Checked again on the open file: the name may have been swapped for a FIFO since.
    const opened = typeOf(handle.statSync());
    if (opened) throw notRegular(shown, kind, opened);
    // One byte more than the size read: a file that grew since is noticed, and read on to the cap.
    const buf = new Uint8Array(info.size + 1);
    let got = 0;
    while (got < buf.length) {
      const n = handle.readSync(buf.subarray(got));
      if (n === null) return buf.subarray(0, got);
      got += n;
    }
    if (got > cap) throw tooLarge(shown, kind, "growing past its cap");
    return readRest(handle, buf, cap, shown, kind);
  } finally {
    handle.close();
  }
}

/** A file that grew after its size was read: the rest, up to the cap. */
function readRest(
  handle: Deno.FsFile,
  start: Uint8Array,
  cap: number,
  shown: string,
  kind: InputKind,
): Uint8Array {
  const parts = [start];
  let total = start.length;
  for (;;) {
    const buf = new Uint8Array(Math.min(MiB, cap + 1 - total));
    const n = handle.readSync(buf);
    if (n === null) break;
    total += n;
    if (total > cap) throw tooLarge(shown, kind, "growing past its cap");
    parts.push(buf.subarray(0, n));
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}

/** `readInputFileSync` for callers that await: the same checks, an error as a rejected promise. */
// deno-lint-ignore require-await
export async function readInputFile(
  file: string,
  kind: InputKind,
  opts: InputFileOptions = {},
): Promise<Uint8Array | undefined> {
  return readInputFileSync(file, kind, opts);
}

/** `readInputFileSync` as UTF-8 text. */
export function readInputTextSync(
  file: string,
  kind: InputKind,
  opts: InputFileOptions = {},
): string | undefined {
  const bytes = readInputFileSync(file, kind, opts);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

/** `readInputFile` as UTF-8 text. */
// deno-lint-ignore require-await
export async function readInputText(
  file: string,
  kind: InputKind,
  opts: InputFileOptions = {},
): Promise<string | undefined> {
  return readInputTextSync(file, kind, opts);
}
