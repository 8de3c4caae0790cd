/**
 * The Model Derivative service's output vocabulary (modelderivative.yaml): output types, views, one
 * entry of a job's `output.formats`, and their parsers, shared by the client and the sandbox.
 */
import { usageError } from "../core/errors.ts";

/** The platform's output types (modelderivative.yaml `OutputType`). */
export const OUTPUT_TYPES = [
  "svf",
  "svf2",
  "thumbnail",
  "stl",
  "step",
  "iges",
  "obj",
  "ifc",
  "dwg",
  "fbx",
] as const;
/** One output type. */
export type OutputType = (typeof OUTPUT_TYPES)[number];
/** Views of a viewable output (svf, svf2). */
export const VIEWS = ["2d", "3d"] as const;
/** One view kind. */
export type View = (typeof VIEWS)[number];

/** Output types that take `views`; the platform requires them there. */
export const VIEWABLE_TYPES: ReadonlySet<string> = new Set(["svf", "svf2"]);

/** One entry of a job's `output.formats`. */
export interface OutputFormat {
  type: OutputType;
  views?: View[];
  advanced?: Record<string, unknown>;
}

/** Both views, the default of viewable outputs. */
export const BOTH: View[] = ["2d", "3d"];

/** Normalises and checks an output type name. */
export function parseOutputType(value: string): OutputType {
  const t = value.trim().toLowerCase();
  if ((OUTPUT_TYPES as readonly string[]).includes(t)) return t as OutputType;
  throw usageError(`unknown output format '${value}'`, `Use one of: ${OUTPUT_TYPES.join(", ")}.`);
}

/** Normalises and checks view names ("2d", "3d"). */
export function parseViews(values: readonly string[]): View[] {
  const out: View[] = [];
  for (const v of values.map((x) => x.trim().toLowerCase()).filter(Boolean)) {
    if (!(VIEWS as readonly string[]).includes(v)) {
      throw usageError(`unknown view '${v}'`, `Use ${VIEWS.join(" and/or ")}, e.g. --views 2d,3d.`);
    }
    if (!out.includes(v as View)) out.push(v as View);
  }
  if (out.length === 0) throw usageError("no views given", "Use --views 2d, 3d or 2d,3d.");
  return out;
}

/**
 * Output formats from command-line values: each type once, `views` (default 2d+3d) on the viewable
 * types only.
 */
export function formatsFromFlags(types: readonly string[], views?: readonly string[]): OutputFormat[] {
  const chosenViews = views ? parseViews(views) : BOTH;
  const seen = new Set<string>();
  const out: OutputFormat[] = [];
  for (const raw of types.flatMap((t) => t.split(",")).filter((t) => t.trim() !== "")) {
    const type = parseOutputType(raw);
    if (seen.has(type)) continue;
    seen.add(type);
    out.push(VIEWABLE_TYPES.has(type) ? { type, views: [...chosenViews] } : { type });
  }
  if (out.length === 0) {
    throw usageError(
      "no output format given",
      `Pass --format (${OUTPUT_TYPES.join(", ")}) or --preset <name>.`,
    );
  }
  return out;
}
