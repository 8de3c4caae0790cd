/** `diazo generate <format>`: a synthetic engineering file of an exact size, for demos and tests. */
import path from "node:path";
import { DiazoError, usageError } from "../core/errors.ts";
import {
  DEFAULT_MAX_OBJECTS,
  DEFAULT_SEED,
  formatSize,
  generateModel,
  MAX_OBJECTS,
  MODEL_FORMATS,
  parseFormat,
  parseSize,
  sha1Chunks,
} from "../generate/generate.ts";
import { writeChunksAtomic, writeChunksTo } from "../platform/fs.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "./command.ts";

function seed(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 2 ** 32 - 1) {
    throw usageError(
      `--seed must be a whole number from 0 to ${2 ** 32 - 1}, got '${value}'`,
      "Example: --seed 42",
    );
  }
  return n;
}

function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === "AbortError";
}

/** Registers the generate command. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const cmd = program.command("generate")
    .description(
      `write a synthetic engineering file (${MODEL_FORMATS.join(", ")}) of exactly --size bytes, ` +
        "for upload and translation demos and tests",
    )
    .argument("<format>", MODEL_FORMATS.join(" | "))
    .option(
      "--size <size>",
      "exact size: bytes, or a number with KB MB GB (1000s) or KiB MiB GiB (1024s)",
      "1MiB",
    )
    .option("-o, --out <file>", "file to write, or - for standard output (default: model.<format>)")
    .option(
      "--objects <n>",
      `groups/elements in the file (default: grows with --size, up to ${DEFAULT_MAX_OBJECTS}; at most ${MAX_OBJECTS})`,
      positiveNumber("--objects", true),
    )
    .option("--seed <n>", "seed of the geometry: the same seed gives the same bytes", seed, DEFAULT_SEED)
    .option("--force", "overwrite the file if it exists")
    .action(async (formatArg, opts, command) => {
      const ctx = makeCtx(command);
      const format = parseFormat(formatArg);
      const size = parseSize(opts.size);
      const model = generateModel({ format, size, objects: opts.objects, seed: opts.seed });
      const abort = new AbortController();
      ctx.onInterrupt(() => abort.abort());
      const hashed = sha1Chunks(model.chunks());
      const what = `${formatSize(size)} ${format} with ${model.objects} objects (seed ${model.seed})`;
      const out = opts.out ?? `model.${format}`;
      try {
        if (out === "-") {
          await writeChunksTo(ctx.io.stdout, hashed.chunks, { signal: abort.signal });
          ctx.info(`Wrote ${what} to standard output, sha1 ${hashed.sha1()}`);
          return;
        }
        const file = path.resolve(ctx.cwd, out);
        await writeChunksAtomic(file, hashed.chunks, {
          overwrite: Boolean(opts.force),
          signal: abort.signal,
        });
        ctx.info(`Wrote ${what} to ${file}`);
        await ctx.emit(
          { file, format, size, sha1: hashed.sha1(), objects: model.objects, seed: model.seed },
          { columns: ["file", "format", "size", "sha1", "objects"] },
        );
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
    });
  cmd.addHelpText(
    "after",
    "\nEvery format is written to the exact byte: OBJ, DXF and IFC are padded with comments, ASCII STL\n" +
      "(which has none) with trailing zeros in the first solid's coordinates. Groups: OBJ `o`/`g`,\n" +
      "STL solids, DXF layers, IFC elements, named like Beam_0001, Column_0002, ...\n" +
      "After `generate`, -o names the file; the summary's format is set with --output.",
  );
  examples(cmd, [
    "diazo generate obj --size 5MiB",
    "diazo generate ifc --size 300MB --objects 500 -o tower.ifc",
    "diazo generate stl --size 1GiB --seed 7 -o big.stl --force --output json",
    "diazo generate dxf --size 64KiB -o - | wc -c",
  ]);
}
