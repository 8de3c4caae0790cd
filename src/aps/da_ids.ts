/**
 * Design Automation ids: qualified ids `<owner>.<name>+<alias>` (engines, app
 * bundles, activities) and the unqualified names of nicknames, app bundles and activities, checked
 * where input enters so that a malformed one is refused before any request.
 */
import { usageError } from "../core/errors.ts";
import { fieldError } from "../core/field_error.ts";
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
export function checkEngineId(id: string, field = "engine"): EngineId {
  if (parseQualifiedId(id)) return id as EngineId;
  throw fieldError({
    field,
    problem: `invalid engine id '${id}'`,
    help: "Engine ids are qualified, e.g. Autodesk.AutoCAD+24 or Autodesk.Revit+2024; list them with {step}.",
    next: { command: "diazo da engine list", tool: "da_engine_list" },
  });
}

/** Checks an unqualified name (app bundle, activity, nickname): letters, digits and underscores. */
export function checkDaName(what: string, name: string, field = "name"): DaName {
  if (NAME.test(name)) return name as DaName;
  throw fieldError({
    field,
    problem: `invalid ${what} '${name}'`,
    help: `A ${what} is 1-64 letters, digits or underscores, e.g. ${
      name.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 64) || "MyApp"
    }.`,
  });
}

/** Verbs an activity parameter takes. */
export const DA_VERBS = ["get", "head", "put", "post", "patch", "read"] as const;

/** One activity parameter from `--param name:verb[:localName]`. */
export interface ParamSpec {
  name: string;
  verb: (typeof DA_VERBS)[number];
  localName?: string;
}

/** Parses `name:verb[:localName]` (e.g. `input:get:input.dwg`), a usage error otherwise. */
export function parseParamSpec(text: string): ParamSpec {
  const [name, verb, ...rest] = text.split(":");
  const localName = rest.join(":");
  if (!name || !NAME.test(name) || !(DA_VERBS as readonly string[]).includes(verb?.toLowerCase() ?? "")) {
    throw usageError(
      `invalid --param '${text}'`,
      `Write name:verb[:localName], verb one of ${
        DA_VERBS.join(", ")
      }; e.g. --param input:get:input.dwg --param result:put:result.pdf`,
    );
  }
  return {
    name,
    verb: verb.toLowerCase() as ParamSpec["verb"],
    ...(localName ? { localName } : {}),
  };
}

/**
 * A reference to an app bundle or activity from input: `Name`, `Name+alias` (owned by the app, so
 * qualified with `nickname()`, called only then) or already qualified `Owner.Name+alias`; `Name`
 * alone means `$LATEST`.
 */
export function qualifyId(what: string, ref: string, nickname: () => string, field = "id"): string {
  if (parseQualifiedId(ref)) return ref;
  const m = /^([A-Za-z0-9_]{1,64})(?:\+([$A-Za-z0-9_]+))?$/.exec(ref);
  if (!m) {
    throw fieldError({
      field,
      problem: `invalid ${what} '${ref}'`,
      help: `Name it as Name, Name+alias or Owner.Name+alias (letters, digits and underscores), e.g. ${
        ref.replace(/[^A-Za-z0-9_+.$]/g, "_") || "MyActivity"
      }+prod.`,
    });
  }
  return `${nickname()}.${m[1]}+${m[2] ?? "$LATEST"}`;
}

/** True when `ref` already names its owner (`Owner.Name+alias`). */
export function isQualified(ref: string): boolean {
  return parseQualifiedId(ref) !== undefined;
}

/** An example of each flag's `name=value`, for the hint of a malformed one. */
const ASSIGNMENT_EXAMPLES: Record<string, string> = {
  "--input": "input=drawing.dwg",
  "--out": "result=result.pdf",
  "--value": 'params={"scale":2}',
};

/** Splits `name=value` of `flag` (e.g. `--input`), a usage error when there is no name. */
export function parseAssignment(flag: string, text: string): [name: string, value: string] {
  const at = text.indexOf("=");
  const name = at > 0 ? text.slice(0, at) : "";
  if (!NAME.test(name) || at === text.length - 1) {
    throw usageError(
      `invalid ${flag} '${text}'`,
      `Write ${flag} name=value, name being the activity's parameter, e.g. ${flag} ${
        ASSIGNMENT_EXAMPLES[flag] ?? "input=drawing.dwg"
      }`,
    );
  }
  return [name, text.slice(at + 1)];
}
