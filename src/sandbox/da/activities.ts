/**
 * Activities: the kind's body and answers for the shared versioned routes. An
 * activity names its engine, its command line, its parameters (verb, local name, ...), the app
 * bundles it loads (qualified ids that must exist) and its settings.
 */

import type { RequestContext } from "../context.ts";
import { daError } from "../errors.ts";
import { DA_ENGINES, type DaActivityVersion, type DaParameter } from "./store.ts";
import { callerApp, type VersionedKind } from "./versioned.ts";

/** Verbs a parameter may take. */
export const DA_VERBS = ["get", "head", "put", "post", "patch", "read"] as const;

const QUALIFIED = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)\+([$A-Za-z0-9_]+)$/;

function parameters(raw: unknown): Record<string, DaParameter> {
  if (raw === undefined) return {};
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw daError(400, "'parameters' must be an object");
  }
  const out: Record<string, DaParameter> = {};
  for (const [name, p] of Object.entries(raw as Record<string, unknown>)) {
    const param = p as Record<string, unknown> | null;
    const verb = typeof param?.verb === "string" ? param.verb.toLowerCase() : undefined;
    if (!verb || !(DA_VERBS as readonly string[]).includes(verb)) {
      throw daError(400, `Parameter '${name}': 'verb' must be one of ${DA_VERBS.join(", ")}`);
    }
    if (param!.localName !== undefined && typeof param!.localName !== "string") {
      throw daError(400, `Parameter '${name}': 'localName' must be a string`);
    }
    out[name] = { ...(param as object), verb } as DaParameter;
  }
  return out;
}

function appBundleRefs(raw: unknown, ctx: RequestContext): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || !raw.every((x) => typeof x === "string")) {
    throw daError(400, "'appbundles' must be an array of qualified app bundle ids");
  }
  const { app, owner } = callerApp(ctx);
  for (const id of raw as string[]) {
    const m = QUALIFIED.exec(id);
    if (!m) throw daError(400, `'${id}' is not a qualified app bundle id (<owner>.<name>+<alias>)`);
    const bundle = m[1] === owner ? app.appBundles.get(m[2]) : undefined;
    if (!bundle || (m[3] !== "$LATEST" && !bundle.aliases.has(m[3]))) {
      throw daError(400, `AppBundle '${id}' not found`);
    }
  }
  return raw as string[];
}

/** Activities for the shared versioned routes. */
export const activityKind: VersionedKind<DaActivityVersion> = {
  segment: "activities",
  noun: "Activity",
  items: (app) => app.activities,
  parse(body, ctx) {
    const { engine, commandLine, parameters: params, appbundles, settings, description, ...rest } = body;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) throw daError(400, `Unknown field '${unknown[0]}' in the Activity`);
    if (typeof engine !== "string" || !DA_ENGINES.some((e) => e.id === engine)) {
      throw daError(400, `Engine '${String(engine)}' not found: 'engine' must be an engine id`);
    }
    const lines = typeof commandLine === "string" ? [commandLine] : commandLine;
    if (!Array.isArray(lines) || lines.length === 0 || !lines.every((l) => typeof l === "string")) {
      throw daError(400, "'commandLine' must be a string or a non-empty array of strings");
    }
    if (
      settings !== undefined && (typeof settings !== "object" || settings === null || Array.isArray(settings))
    ) {
      throw daError(400, "'settings' must be an object");
    }
    if (description !== undefined && typeof description !== "string") {
      throw daError(400, "'description' must be a string");
    }
    return {
      engine,
      commandLine: lines as string[],
      parameters: parameters(params),
      appbundles: appBundleRefs(appbundles, ctx),
      settings: (settings ?? {}) as Record<string, unknown>,
      description: description ?? "",
    };
  },
  view: (v) => ({
    commandLine: v.commandLine,
    parameters: v.parameters,
    engine: v.engine,
    appbundles: v.appbundles,
    settings: v.settings,
    description: v.description,
  }),
};
