/** `diazo generate <format>`: declared as data (command/decl.ts) over families/generate/verbs.ts. */
import { usageError } from "../../core/errors.ts";
import { DEFAULT_MAX_OBJECTS, DEFAULT_SEED, MODEL_FORMATS } from "../../generate/formats.ts";
import { MAX_OBJECTS } from "../../generate/layout.ts";
import { writeChunksTo } from "../../platform/fs_write.ts";
import type { CommandDecl } from "../../command/decl.ts";
import { positiveNumber } from "../../command/command.ts";

/** What the generator offers, for the command's help and defaults. */
const GENERATOR = {
  formats: MODEL_FORMATS,
  defaultMaxObjects: DEFAULT_MAX_OBJECTS,
  maxObjects: MAX_OBJECTS,
  defaultSeed: DEFAULT_SEED,
} as const;

/** The --seed option: a whole number that fits 32 bits. */
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

/** The options of `generate`, by key. */
interface GenerateOpts {
  size: string;
  out?: string;
  objects?: number;
  seed: number;
  force?: boolean;
}

/** The generate family: one command. */
export const GENERATE: CommandDecl = {
  name: "generate",
  description:
    `write a synthetic engineering file (${GENERATOR.formats.join(", ")}) of exactly --size bytes, ` +
    "for upload and translation demos and tests",
  args: [{ spec: "<format>", description: GENERATOR.formats.join(" | ") }],
  options: [
    {
      flags: "--size <size>",
      description: "exact size: bytes, or a number with KB MB GB (1000s) or KiB MiB GiB (1024s)",
      default: "1MiB",
    },
    {
      flags: "--out <file>",
      description: "file to write, or - for standard output (default: model.<format>)",
    },
    {
      flags: "--objects <n>",
      description:
        `groups/elements in the file (default: grows with --size, up to ${GENERATOR.defaultMaxObjects}; at most ${GENERATOR.maxObjects})`,
      parse: positiveNumber("--objects", true),
    },
    {
      flags: "--seed <n>",
      description: "seed of the geometry: the same seed gives the same bytes",
      parse: seed,
      default: GENERATOR.defaultSeed,
    },
    { flags: "--force", description: "overwrite the file if it exists" },
  ],
  helpText:
    "\nEvery format is written to the exact byte: OBJ, DXF and IFC are padded with comments, ASCII STL\n" +
    "(which has none) with trailing zeros in the first solid's coordinates. Groups: OBJ `o`/`g`,\n" +
    "STL solids, DXF layers, IFC elements, named like Beam_0001, Column_0002, ...\n" +
    "--out names the file; -o/--output sets the summary's format.",
  examples: [
    "diazo generate obj --size 5MiB",
    "diazo generate ifc --size 300MB --objects 500 --out tower.ifc",
    "diazo generate stl --size 1GiB --seed 7 --out big.stl --force -o json",
    "diazo generate dxf --size 64KiB --out - | wc -c",
  ],
  run: async (ctx, [format]: string[], opts: GenerateOpts) => {
    // The generator reaches node:crypto, which a declaration must not load.
    const { runGenerate } = await import("./verbs.ts");
    const { generated, description } = await runGenerate(
      {
        ...opts,
        format,
        signal: ctx.interruptSignal(),
        // The run's stdout (a test's or a pipeline step's capture), not the process's.
        toStream: (chunks, o) => writeChunksTo(ctx.io.stdout, chunks, o),
      },
      ctx,
    );
    // The bytes went to stdout: a summary there would corrupt them.
    if (!generated.file) return ctx.info(`Wrote ${description}`);
    await ctx.emit(generated, {
      columns: ["file", "format", "size", "sha1", "objects"],
      action: `Wrote ${description}`,
    });
  },
};
