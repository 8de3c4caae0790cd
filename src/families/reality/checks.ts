/** The checks of reality-capture's arguments (scene ids, format lists), before any request. */
import { usageError } from "../../core/errors.ts";
import { fieldError } from "../../core/field_error.ts";
import { RC_FORMATS } from "./api.ts";

/** A photoscene id as the platform issues them: letters, digits, `-` and `_`. */
export function checkSceneId(value: string): string {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(value)) {
    throw fieldError({
      field: "scene_id",
      problem: `invalid photoscene id '${value}'`,
      help: "Use the photosceneid {step} answered (letters and digits).",
      next: { command: "diazo reality-capture create", tool: "reality_create" },
    });
  }
  return value;
}

/** Checks a comma-separated format list (`rcm,obj,ortho`). */
export function checkFormats(value: string): string[] {
  const formats = value.split(",").map((f) => f.trim().toLowerCase()).filter(Boolean);
  const bad = formats.find((f) => !(RC_FORMATS as readonly string[]).includes(f));
  if (bad !== undefined || formats.length === 0) {
    throw usageError(
      `unknown output format '${bad ?? value}'`,
      `Use a comma-separated list of ${RC_FORMATS.join(", ")}, e.g. --format rcm,obj.`,
    );
  }
  return [...new Set(formats)];
}
