/**
 * The `translate preset` verbs (named output specs, built in or kept in presets.json) and the
 * choice of a job's output formats from a preset and format flags. Local only: no platform call.
 */
import { formatsFromFlags, type OutputFormat, parseViews } from "../../aps/derivative_formats.ts";
import {
  addPreset,
  BUILTIN_PRESETS,
  findPreset,
  listPresets,
  loadUserPresets,
  type Preset,
  presetsPath,
  removePreset,
  saveUserPresets,
} from "../../config/presets.ts";

export type { Preset } from "../../config/presets.ts";

/** Where the user's presets live: the config directory of the run. */
export interface PresetPlace {
  configDir: string;
}

/**
 * The output formats of a job: a preset's, then `types` (which replace a preset's of the same
 * type); svf2 when neither is given. `views` applies to every svf/svf2 output.
 */
export async function startFormats(
  opts: PresetPlace & { preset?: string; types?: readonly string[]; views?: readonly string[] },
): Promise<OutputFormat[]> {
  const types = opts.types ?? [];
  const views = opts.views === undefined ? undefined : parseViews(opts.views);
  let formats: OutputFormat[] = [];
  if (opts.preset !== undefined) {
    const user = opts.preset in BUILTIN_PRESETS ? {} : await loadUserPresets(opts.configDir);
    formats = structuredClone(findPreset(opts.preset, user).formats);
  }
  if (types.length > 0) {
    const extra = formatsFromFlags(types, views);
    formats = [...formats.filter((f) => !extra.some((e) => e.type === f.type)), ...extra];
  }
  if (formats.length === 0) formats = structuredClone(BUILTIN_PRESETS.svf2.formats);
  if (views) { for (const f of formats) if (f.views) f.views = [...views]; }
  return formats;
}

/** `translate preset list`: the built-in presets and the user's. */
export async function runPresetList(opts: PresetPlace): Promise<Preset[]> {
  return listPresets(await loadUserPresets(opts.configDir));
}

/** `translate preset show`: one preset. */
export async function runPresetShow(opts: PresetPlace & { name: string }): Promise<Preset> {
  return findPreset(opts.name, await loadUserPresets(opts.configDir));
}

/** `translate preset create`: a preset of the user's (with `replace`, over one of the same name); where it was saved. */
export async function runPresetCreate(
  opts: PresetPlace & {
    name: string;
    types: readonly string[];
    views?: readonly string[];
    description?: string;
    replace?: boolean;
  },
): Promise<{ preset: Preset; file: string }> {
  const formats = formatsFromFlags(opts.types, opts.views);
  const user = addPreset(await loadUserPresets(opts.configDir), opts.name, {
    ...(opts.description ? { description: opts.description } : {}),
    formats,
  }, { replace: opts.replace });
  await saveUserPresets(opts.configDir, user);
  return { preset: findPreset(opts.name, user), file: presetsPath(opts.configDir) };
}

/** `translate preset delete`: removes a preset of the user's (built-ins stay). */
export async function runPresetDelete(
  opts: PresetPlace & { name: string },
): Promise<{ name: string; deleted: true }> {
  const user = removePreset(await loadUserPresets(opts.configDir), opts.name);
  await saveUserPresets(opts.configDir, user);
  return { name: opts.name, deleted: true };
}
