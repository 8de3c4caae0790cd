/**
 * Presets: named output specs of a translation job. Built-ins are read-only; user presets live in
 * `presets.json` in the config dir (README.md, "Configuration").
 */
import { osPath } from "../platform/path.ts";
import { DiazoError, usageError } from "../core/errors.ts";
import { readTextIfExists } from "../platform/fs.ts";
import { writeFileAtomic } from "../platform/fs_write.ts";
import {
  BOTH,
  OUTPUT_TYPES,
  type OutputFormat,
  type OutputType,
  type View,
  VIEWABLE_TYPES,
  VIEWS,
} from "../aps/derivative_formats.ts";

/** A preset as stored. */
export interface PresetSpec {
  description?: string;
  formats: OutputFormat[];
}

/** A preset as listed: its name, spec and whether it is built in. */
export interface Preset extends PresetSpec {
  name: string;
  builtin: boolean;
}

/** The built-in presets. */
export const BUILTIN_PRESETS: Readonly<Record<string, PresetSpec>> = {
  svf2: { description: "viewer format SVF2, 2D and 3D views", formats: [{ type: "svf2", views: BOTH }] },
  "svf2-3d": { description: "viewer format SVF2, 3D views only", formats: [{ type: "svf2", views: ["3d"] }] },
  svf: { description: "legacy viewer format SVF, 2D and 3D views", formats: [{ type: "svf", views: BOTH }] },
  obj: { description: "Wavefront OBJ geometry", formats: [{ type: "obj" }] },
  "stl-binary": {
    description: "binary STL, one file",
    formats: [{ type: "stl", advanced: { format: "binary", exportFileStructure: "single" } }],
  },
  "stl-ascii": {
    description: "ASCII STL, one file",
    formats: [{ type: "stl", advanced: { format: "ascii", exportFileStructure: "single" } }],
  },
  step: { description: "STEP AP214", formats: [{ type: "step" }] },
  iges: { description: "IGES", formats: [{ type: "iges" }] },
  ifc: { description: "IFC (from Revit)", formats: [{ type: "ifc" }] },
  thumbnail: {
    description: "400x400 PNG thumbnail",
    formats: [{ type: "thumbnail", advanced: { width: 400, height: 400 } }],
  },
  viewer: {
    description: "SVF2 2D+3D and a 400x400 thumbnail",
    formats: [{ type: "svf2", views: BOTH }, { type: "thumbnail", advanced: { width: 400, height: 400 } }],
  },
};

const PRESET_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Path of presets.json inside a config dir. */
export function presetsPath(configDir: string): string {
  return osPath().join(configDir, "presets.json");
}

/** Checks a preset name: 1-64 characters of [a-z0-9._-], starting with a letter or digit. */
export function validatePresetName(name: string): void {
  if (PRESET_NAME.test(name)) return;
  throw usageError(
    `invalid preset name '${name}'`,
    "Preset names use 1-64 characters of lower-case letters, digits, '.', '_' and '-', e.g. my-svf2.",
  );
}

/** Checks one output format from a file; `where` names it in the error. */
function validateFormat(value: unknown, where: string, fail: (detail: string) => DiazoError): OutputFormat {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw fail(`${where} must be an object`);
  }
  const f = value as Record<string, unknown>;
  if (typeof f.type !== "string" || !(OUTPUT_TYPES as readonly string[]).includes(f.type)) {
    throw fail(`${where}.type must be one of ${OUTPUT_TYPES.join(", ")}`);
  }
  const out: OutputFormat = { type: f.type as OutputType };
  if (f.views !== undefined) {
    if (!VIEWABLE_TYPES.has(f.type)) throw fail(`${where}.views applies only to svf and svf2`);
    if (
      !Array.isArray(f.views) || f.views.length === 0 ||
      !f.views.every((v) => (VIEWS as readonly unknown[]).includes(v))
    ) {
      throw fail(`${where}.views must be a non-empty array of "2d" and "3d"`);
    }
    out.views = [...new Set(f.views as View[])];
  } else if (VIEWABLE_TYPES.has(f.type)) {
    out.views = [...BOTH];
  }
  if (f.advanced !== undefined) {
    if (typeof f.advanced !== "object" || f.advanced === null || Array.isArray(f.advanced)) {
      throw fail(`${where}.advanced must be an object`);
    }
    out.advanced = f.advanced as Record<string, unknown>;
  }
  return out;
}

/** Checks a preset spec (from a file or built on the command line). */
export function validatePresetSpec(
  value: unknown,
  where: string,
  fail: (detail: string) => DiazoError,
): PresetSpec {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw fail(`${where} must be an object`);
  }
  const p = value as Record<string, unknown>;
  if (p.description !== undefined && typeof p.description !== "string") {
    throw fail(`${where}.description must be a string`);
  }
  if (!Array.isArray(p.formats) || p.formats.length === 0) {
    throw fail(`${where}.formats must be a non-empty array`);
  }
  const formats = p.formats.map((f, i) => validateFormat(f, `${where}.formats[${i}]`, fail));
  return { ...(p.description ? { description: p.description as string } : {}), formats };
}

/** Parses and validates presets.json text: `{"presets": {"<name>": {"description"?, "formats": [...]}}}`. */
export function parsePresets(text: string, file: string): Record<string, PresetSpec> {
  const fail = (detail: string) => new DiazoError("invalid_config", { params: { file, detail } });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw fail((e as Error).message);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw fail("expected a JSON object");
  const presets = (raw as Record<string, unknown>).presets ?? {};
  if (typeof presets !== "object" || presets === null || Array.isArray(presets)) {
    throw fail("presets must be an object of name -> preset");
  }
  const out: Record<string, PresetSpec> = {};
  for (const [name, spec] of Object.entries(presets as Record<string, unknown>)) {
    if (!PRESET_NAME.test(name)) throw fail(`presets.${name}: invalid preset name`);
    out[name] = validatePresetSpec(spec, `presets.${name}`, fail);
  }
  return out;
}

/** Serialises user presets for presets.json. */
export function stringifyPresets(presets: Record<string, PresetSpec>): string {
  const sorted = Object.fromEntries(Object.entries(presets).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify({ presets: sorted }, null, 2) + "\n";
}

/** Built-in presets first, then the user's, each group by name. */
export function listPresets(user: Record<string, PresetSpec>): Preset[] {
  const builtins = Object.entries(BUILTIN_PRESETS).map(([name, p]) => ({ name, builtin: true, ...p }));
  const own = Object.entries(user).filter(([name]) => !(name in BUILTIN_PRESETS))
    .sort(([a], [b]) => a < b ? -1 : 1)
    .map(([name, p]) => ({ name, builtin: false, ...p }));
  return [...builtins, ...own];
}

/** The preset called `name`, or the catalog's unknown_preset error listing every preset. */
export function findPreset(name: string, user: Record<string, PresetSpec>): Preset {
  const found = listPresets(user).find((p) => p.name === name);
  if (found) return found;
  throw unknownPreset(name, user);
}

function unknownPreset(name: string, user: Record<string, PresetSpec>): DiazoError {
  return new DiazoError("unknown_preset", {
    params: { name, available: listPresets(user).map((p) => p.name).join(", ") },
  });
}

/** Adds a user preset; built-in names are refused, an existing user preset needs `replace`. */
export function addPreset(
  user: Record<string, PresetSpec>,
  name: string,
  spec: PresetSpec,
  opts: { replace?: boolean } = {},
): Record<string, PresetSpec> {
  validatePresetName(name);
  if (name in BUILTIN_PRESETS) {
    throw usageError(`'${name}' is a built-in preset and cannot be overwritten`, "Choose another name.");
  }
  if (name in user && !opts.replace) {
    throw new DiazoError("conflict", {
      params: { detail: `preset '${name}' already exists (use --force to replace it)` },
    });
  }
  return { ...user, [name]: spec };
}

/** Removes a user preset; built-ins are refused, an unknown name is the unknown_preset error. */
export function removePreset(user: Record<string, PresetSpec>, name: string): Record<string, PresetSpec> {
  if (name in BUILTIN_PRESETS) {
    throw usageError(
      `'${name}' is a built-in preset and cannot be deleted`,
      "Only presets you created can be deleted.",
    );
  }
  if (!(name in user)) throw unknownPreset(name, user);
  const { [name]: _removed, ...rest } = user;
  return rest;
}

/** Loads the user presets of a config dir; a missing file is none. */
export async function loadUserPresets(configDir: string): Promise<Record<string, PresetSpec>> {
  const file = presetsPath(configDir);
  const text = await readTextIfExists(file);
  return text === undefined ? {} : parsePresets(text, file);
}

/** Saves the user presets atomically. */
export async function saveUserPresets(configDir: string, presets: Record<string, PresetSpec>): Promise<void> {
  await writeFileAtomic(presetsPath(configDir), stringifyPresets(presets));
}
