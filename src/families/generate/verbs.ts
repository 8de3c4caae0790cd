/** `generate <format>`: a synthetic engineering file of an exact size, written to a file or a stream. */
import path from "node:path";
import { DiazoError, usageError } from "../../core/errors.ts";
import { formatSize, generateModel, parseFormat, parseSize, sha1Chunks } from "../../generate/generate.ts";
import { writeChunksAtomic } from "../../platform/fs_write.ts";
import type { OpsDeps } from "../../session/deps.ts";

/** Options of `generate`. */
export interface GenerateOptions {
  format: string;
  /** Bytes, or a number with KB MB GB or KiB MiB GiB. */
  size: string;
  objects?: number;
  seed: number;
  /** The file to write (relative to the deps' cwd); "-" hands the bytes to `toStream`. */
  out?: string;
  force?: boolean;
  signal?: AbortSignal;
  /** Where `--out -` goes (the CLI's standard output). */
  toStream?: (chunks: Iterable<Uint8Array>, opts: { signal?: AbortSignal }) => Promise<unknown>;
}

/** The generated file as `generate` reports it; `file` is absent when it went to the stream. */
export interface GeneratedFile {
  file?: string;
  format: string;
  size: number;
  sha1: string;
  objects: number;
  seed: number;
}

/** What `generate` returns: the record, and a line that says what was written. */
export interface GenerateResult {
  generated: GeneratedFile;
  description: string;
}

function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === "AbortError";
}

/** `generate`: writes the model to `out` (default model.<format>) atomically, or to the stream for "-". */
export async function runGenerate(
  opts: GenerateOptions,
  deps: Pick<OpsDeps, "cwd">,
): Promise<GenerateResult> {
  const format = parseFormat(opts.format);
  const size = parseSize(opts.size);
  const model = generateModel({ format, size, objects: opts.objects, seed: opts.seed });
  const hashed = sha1Chunks(model.chunks());
  const what = `${formatSize(size)} ${format} with ${model.objects} objects (seed ${model.seed})`;
  const out = opts.out ?? `model.${format}`;
  const record = (file?: string): GeneratedFile => ({
    ...(file ? { file } : {}),
    format,
    size,
    sha1: hashed.sha1(),
    objects: model.objects,
    seed: model.seed,
  });
  try {
    if (out === "-") {
      if (!opts.toStream) {
        throw usageError("--out - needs a stream to write to", "Write to a file with --out.");
      }
      await opts.toStream(hashed.chunks, { signal: opts.signal });
      return { generated: record(), description: `${what} to standard output, sha1 ${hashed.sha1()}` };
    }
    const file = path.resolve(deps.cwd, out);
    await writeChunksAtomic(file, hashed.chunks, { overwrite: Boolean(opts.force), signal: opts.signal });
    return { generated: record(file), description: `${what} to ${file}` };
  } catch (e) {
    if (isAbort(e)) throw new DiazoError("interrupted", { cause: e });
    if (e instanceof Deno.errors.AlreadyExists) {
      throw usageError(
        `${out} already exists`,
        "Pass --force to overwrite it, or choose another file with --out.",
      );
    }
    throw e;
  }
}
