/**
 * Synthetic engineering files (OBJ, STL, DXF, IFC) of an exact size, for demos and tests: pure and
 * deterministic (same format, size, objects and seed give the same bytes), yielded as ~1 MiB chunks
 * so that memory stays flat for any size.
 */
import { createHash } from "node:crypto";
import { usageError } from "../core/errors.ts";
import { dxfWriter } from "./dxf.ts";
import { ifcWriter } from "./ifc.ts";
import { MAX_OBJECTS } from "./layout.ts";
import { DEFAULT_MAX_OBJECTS, DEFAULT_SEED, MODEL_FORMATS, type ModelFormat } from "./formats.ts";
import { objWriter } from "./obj.ts";
import { filePieces, type FormatWriter, minimumBytes, planFile } from "./plan.ts";
import { formatSize } from "./size.ts";
import { chunked } from "./text.ts";
import { stlWriter } from "./stl.ts";

export { formatSize, MAX_SIZE, parseSize } from "./size.ts";
export { MAX_OBJECTS } from "./layout.ts";

export { DEFAULT_MAX_OBJECTS, DEFAULT_SEED, MODEL_FORMATS, type ModelFormat } from "./formats.ts";

/** What to generate. */
export interface GenerateOptions {
  format: ModelFormat;
  /** Exact size in bytes. */
  size: number;
  /** Number of groups/elements; by default it grows with the size (up to DEFAULT_MAX_OBJECTS). */
  objects?: number;
  seed?: number;
}

/** A planned file: its parameters and its bytes, produced on demand. */
export interface GeneratedModel {
  format: ModelFormat;
  size: number;
  objects: number;
  seed: number;
  /** The file's bytes in chunks of ~1 MiB; each call starts over. */
  chunks(): Iterable<Uint8Array>;
}

/** The format named by `input` (case-insensitive), else a usage error. */
export function parseFormat(input: string): ModelFormat {
  const f = input.toLowerCase();
  if ((MODEL_FORMATS as readonly string[]).includes(f)) return f as ModelFormat;
  throw usageError(
    `unknown format '${input}'`,
    `Choose one of ${MODEL_FORMATS.join(", ")}, e.g. \`diazo generate ifc --size 5MiB\`.`,
  );
}

function writer(format: ModelFormat, objects: number, seed: number, size: number): FormatWriter {
  switch (format) {
    case "obj":
      return objWriter({ objects, seed });
    case "stl":
      return stlWriter();
    case "dxf":
      return dxfWriter({ objects, seed });
    case "ifc":
      return ifcWriter({ objects, seed, size });
  }
}

/** Bytes of the smallest valid file of `format` with `objects` objects. */
export function minimumSize(format: ModelFormat, objects = 1, seed = DEFAULT_SEED): number {
  return minimumBytes(writer(format, objects, seed, 0), objects, seed);
}

/** The objects a file of `size` bytes gets by default: ~sqrt(size / 64), capped, and as many as fit. */
export function defaultObjects(format: ModelFormat, size: number, seed = DEFAULT_SEED): number {
  let hi = Math.max(1, Math.min(DEFAULT_MAX_OBJECTS, Math.floor(Math.sqrt(size / 64))));
  const fits = (n: number) => minimumBytes(writer(format, n, seed, size), n, seed) <= size;
  if (fits(hi)) return hi;
  let lo = 1;
  // Largest n in [lo, hi) that fits: minimum sizes grow with n.
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

function checkInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw usageError(
      `${name} must be a whole number from ${min} to ${max}, got ${value}`,
      `Example: ${name} 10`,
    );
  }
}

/** Plans a file of exactly `opts.size` bytes; too small a size or bad counts are usage errors. */
export function generateModel(opts: GenerateOptions): GeneratedModel {
  const { format, size } = opts;
  const seed = opts.seed ?? DEFAULT_SEED;
  checkInteger("--seed", seed, 0, 2 ** 32 - 1);
  checkInteger("--size", size, 1, Number.MAX_SAFE_INTEGER);
  if (opts.objects !== undefined) checkInteger("--objects", opts.objects, 1, MAX_OBJECTS);
  const smallest = minimumSize(format, 1, seed);
  if (size < smallest) {
    throw usageError(
      `--size ${size} is below the smallest valid ${format} file (${smallest} bytes)`,
      `Use --size ${smallest} or more.`,
    );
  }
  const objects = opts.objects ?? defaultObjects(format, size, seed);
  const w = writer(format, objects, seed, size);
  const needed = minimumBytes(w, objects, seed);
  if (size < needed) {
    throw usageError(
      `--size ${size} is too small for ${objects} objects in ${format} (at least ${needed} bytes, ${
        formatSize(needed)
      })`,
      `Use --size ${needed} or more, or fewer --objects.`,
    );
  }
  return {
    format,
    size,
    objects,
    seed,
    chunks() {
      // A fresh writer per pass: the IFC writer numbers entities as it goes.
      const fresh = writer(format, objects, seed, size);
      return chunked(filePieces(fresh, planFile(fresh, objects, seed, size), seed));
    },
  };
}

/** Passes chunks through unchanged while computing their SHA-1, readable once they are consumed. */
export function sha1Chunks(chunks: Iterable<Uint8Array>): { chunks: Iterable<Uint8Array>; sha1(): string } {
  const hash = createHash("sha1");
  let digest: string | undefined;
  return {
    chunks: (function* () {
      for (const chunk of chunks) {
        hash.update(chunk);
        yield chunk;
      }
      digest = hash.digest("hex");
    })(),
    sha1() {
      if (digest === undefined) throw new Error("sha1() before every chunk was consumed");
      return digest;
    },
  };
}
