/**
 * What the build services' handlers share: the access rule and the project's data in one call,
 * request bodies read and checked, and the
 * refusal of a status move the workflow does not allow. Error bodies of these services are not
 * documented; the sandbox answers `{"code", "message"}` as the admin services do.
 */
import { allowedMoves } from "../../aps/acc_build.ts";
import { type AccNeed, accProject } from "../acc_access.ts";
import { nowMs } from "../clock.ts";
import type { RequestContext } from "../context.ts";
import { adminError, type SandboxError } from "../errors.ts";
import { readJson } from "../respond.ts";
import { type ProjectBuild, projectBuild } from "./store.ts";

/** The caller, the project's build data and the time, once the access rule let the request in. */
export interface Access {
  build: ProjectBuild;
  /** The caller's Autodesk id. */
  uid: string;
  /** Now on the sandbox clock, ISO 8601. */
  now: string;
}

/** Applies the access rule to the path's project and returns its data. */
export function access(ctx: RequestContext, need: AccNeed): Access {
  const project = accProject(ctx, ctx.params.projectId, need);
  return {
    build: projectBuild(ctx.sandbox.accBuild, project.id),
    uid: ctx.token?.userid ?? "",
    now: new Date(nowMs(ctx.sandbox.clock)).toISOString(),
  };
}

/** A 400 of these services. */
export function bad(message: string): SandboxError {
  return adminError(400, "ERR_BAD_INPUT", message);
}

/** A 404 of a record of these services. */
export function missing(what: string): SandboxError {
  return adminError(404, "ERR_NOT_FOUND", `${what} not found`);
}

/** The JSON body, which must be an object (or an array when `array`); else 400. */
export async function body(req: Request, array = false): Promise<Record<string, unknown>> {
  const b = await readJson(req);
  const ok = array ? Array.isArray(b) : b !== null && typeof b === "object" && !Array.isArray(b);
  if (!ok) throw bad(`the request body must be a JSON ${array ? "array" : "object"}`);
  return b as Record<string, unknown>;
}

/** Refuses a field outside `allowed`, and a required one that is absent. */
export function checkFields(
  b: Record<string, unknown>,
  allowed: readonly string[],
  required: readonly string[] = [],
) {
  const unknown = Object.keys(b).find((k) => !allowed.includes(k));
  if (unknown !== undefined) throw bad(`'${unknown}' is not a field of this request`);
  const absent = required.find((k) => b[k] === undefined || b[k] === null || b[k] === "");
  if (absent !== undefined) throw bad(`'${absent}' is required`);
}

/** Refuses a string field that is not a string of at most `max` characters. */
export function checkText(b: Record<string, unknown>, fields: readonly string[], max = 1000) {
  for (const f of fields) {
    const v = b[f];
    if (v !== undefined && v !== null && (typeof v !== "string" || v.length > max)) {
      throw bad(`'${f}' must be a string of at most ${max} characters`);
    }
  }
}

/** Refuses a date field that is not YYYY-MM-DD. */
export function checkDates(b: Record<string, unknown>, fields: readonly string[]) {
  for (const f of fields) {
    const v = b[f];
    if (v !== undefined && v !== null && (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(v))) {
      throw bad(`'${f}' must be a date (YYYY-MM-DD)`);
    }
  }
}

/** Refuses a move from `from` to `to` that `graph` does not allow, naming the allowed ones. */
export function checkMove(
  what: string,
  graph: Readonly<Record<string, readonly string[]>>,
  from: string,
  to: string,
) {
  if (from === to) return;
  const allowed = allowedMoves(graph, from);
  if (!allowed.includes(to)) {
    throw bad(
      `cannot move ${what} from '${from}' to '${to}'; allowed: ${
        allowed.length ? allowed.join(", ") : "none"
      }`,
    );
  }
}

/**
 * The record a body field names (`templateId`, `specId`...), else 400: a body naming what the
 * project lacks is a bad request, not a missing path (which would read as the project missing).
 */
export function named<T extends { id: string }>(
  records: readonly T[],
  b: Record<string, unknown>,
  field: string,
  what: string,
): T {
  const r = records.find((x) => x.id === String(b[field]));
  if (!r) throw bad(`'${field}' ${b[field]} is not ${what} of the project`);
  return r;
}

/** The record with `id`, else 404 naming it. */
export function find<T extends { id: string }>(records: readonly T[], id: string, what: string): T {
  const r = records.find((x) => x.id === id);
  if (!r) throw missing(`${what} '${id}'`);
  return r;
}
