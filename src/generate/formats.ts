/**
 * What the generator offers (generate.ts): its formats and defaults, apart from the generator so that
 * `generate`'s help reads them without loading it (and node:crypto).
 */

/** The formats `generate` writes, which are also their file extensions. */
export const MODEL_FORMATS = ["obj", "stl", "dxf", "ifc"] as const;

/** One of MODEL_FORMATS. */
export type ModelFormat = (typeof MODEL_FORMATS)[number];

/** Most objects a file gets when `objects` is not given. */
export const DEFAULT_MAX_OBJECTS = 1000;

/** Seed used when none is given, so that two runs give the same file. */
export const DEFAULT_SEED = 1;
