/**
 * Design Automation ids (aps-api.md §7): qualified ids `<owner>.<name>+<alias>` (engines, app
 * bundles, activities) and the unqualified names of nicknames, app bundles and activities, checked
 * where input enters so that a malformed one is refused before any request.
 */
import { usageError } from "../core/errors.ts";
import type { Checked } from "./ids.ts";

/** A qualified engine id, e.g. `Autodesk.AutoCAD+24`. */
export type EngineId = Checked<"EngineId">;
/** An unqualified Design Automation name (nickname, app bundle, activity): 1-64 of `[A-Za-z0-9_]`. */
export type DaName = Checked<"DaName">;

/** The parts of a fully qualified id `<owner>.<name>+<alias>`. */
export interface QualifiedId {
  owner: string;
  name: string;
  alias: string;
}

const QUALIFIED = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)\+([$A-Za-z0-9_]+)$/;
const NAME = /^[A-Za-z0-9_]{1,64}$/;

/** Splits a qualified id such as `Autodesk.AutoCAD+24`; undefined when it is not one. */
export function parseQualifiedId(id: string): QualifiedId | undefined {
  const m = QUALIFIED.exec(id);
  return m ? { owner: m[1], name: m[2], alias: m[3] } : undefined;
}

/** A list entry as diazo shows it: the platform's id, with its parts beside it. */
export function describeId(id: string): { id: string } & Partial<QualifiedId> {
  return { id, ...parseQualifiedId(id) };
}

/** Checks an engine id before any request: a usage error unless it is `<owner>.<name>+<version>`. */
export function checkEngineId(id: string): EngineId {
  if (parseQualifiedId(id)) return id as EngineId;
  throw usageError(
    `invalid engine id '${id}'`,
    "Engine ids are qualified, e.g. Autodesk.AutoCAD+24 or Autodesk.Revit+2024; list them with `diazo da engine list`.",
  );
}

/** Checks an unqualified name (app bundle, activity, nickname): letters, digits and underscores. */
export function checkDaName(what: string, name: string): DaName {
  if (NAME.test(name)) return name as DaName;
  throw usageError(
    `invalid ${what} '${name}'`,
    `A ${what} is 1-64 letters, digits or underscores, e.g. ${
      name.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 64) || "MyApp"
    }.`,
  );
}
