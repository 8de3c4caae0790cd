/**
 * `da activity create`: an activity from flags or a body file (`--from-file`, flags win), its app
 * bundles qualified with the app's nickname, created (or its next version when it exists) and its
 * alias pointed at the new version.
 */
import {
  checkDaName,
  checkEngineId,
  type DaName,
  type EngineId,
  type ParamSpec,
  qualifyId,
} from "../../aps/da_ids.ts";
import { usageError } from "../../core/errors.ts";
import { type Activity, type ActivityBody, createActivity, getEngine, setAlias } from "./api.ts";
import type { BodyShape, BodySource } from "../../session/body_file.ts";
import { createOrVersion, ensureNickname, requireNickname } from "./verbs.ts";
import type { OpsDeps } from "../../session/deps.ts";

/** The fields a `--from-file` activity body may carry (the platform's create body, plus `alias`). */
export const ACTIVITY_BODY_SHAPE: BodyShape = {
  id: "string",
  engine: "string",
  commandLine: "string[]",
  parameters: "object",
  appbundles: "string[]",
  settings: "object",
  description: "string",
  alias: "string",
};

/** What `da activity create` takes; every field may also come from the `fromFile` body. */
export interface ActivityCreateOpts {
  id?: string;
  engine?: string;
  /** App bundles: `Name`, `Name+alias` or `Owner.Name+alias`. */
  appbundles?: string[];
  commandLine?: string[];
  params?: ParamSpec[];
  description?: string;
  alias?: string;
  /** A body file (`--from-file`), read and checked against ACTIVITY_BODY_SHAPE before any request. */
  fromFile?: BodySource;
}

/** What `da activity create` did. */
export interface ActivityCreated extends Activity {
  qualifiedId: string;
  alias?: string;
  summary: string;
}

function required<T>(value: T | undefined, flag: string, example: string): T {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) {
    throw usageError(`${flag} is required`, `Give it as a flag or in --from-file, e.g. ${flag} ${example}`);
  }
  return value;
}

/** The activity's name, engine, body and alias from flags over the file, checked before any request. */
function activityBody(opts: ActivityCreateOpts, f: Record<string, unknown>, nickname: () => string) {
  const id: DaName = checkDaName("activity name", required(opts.id ?? f.id as string, "--id", "CountLines"));
  const engine: EngineId = checkEngineId(
    required(opts.engine ?? f.engine as string, "--engine", "Autodesk.AutoCAD+24"),
  );
  const commandLine = required(
    opts.commandLine?.length ? opts.commandLine : f.commandLine as string[],
    "--command",
    "'$(engine.path)\\\\accoreconsole.exe /i \"$(args[input].path)\"'",
  );
  const fromFlags = Object.fromEntries(
    (opts.params ?? []).map((
      p,
    ) => [p.name, { verb: p.verb, ...(p.localName ? { localName: p.localName } : {}) }]),
  );
  const parameters = { ...(f.parameters as Record<string, Record<string, unknown>> ?? {}), ...fromFlags };
  const bundles = opts.appbundles?.length ? opts.appbundles : (f.appbundles as string[] | undefined) ?? [];
  const alias = opts.alias ?? f.alias as string | undefined;
  const body: ActivityBody = {
    engine,
    commandLine,
    parameters,
    appbundles: bundles.map((b) => qualifyId("app bundle", b, nickname)),
    ...(f.settings ? { settings: f.settings as Record<string, unknown> } : {}),
    ...((opts.description ?? f.description) !== undefined
      ? { description: opts.description ?? f.description as string }
      : {}),
  };
  return { id, body, alias: alias === undefined ? undefined : checkDaName("alias", alias) };
}

/** `da activity create`: see the file's comment. */
export async function runDaActivityCreate(opts: ActivityCreateOpts, deps: OpsDeps): Promise<ActivityCreated> {
  let file: Record<string, unknown> = {};
  if (opts.fromFile) {
    // The YAML reader loads only when a file is given.
    const { readBodyFile } = await import("../../session/body_file.ts");
    file = await readBodyFile(opts.fromFile, ACTIVITY_BODY_SHAPE);
  }
  const nickname = await requireNickname(deps);
  const { id, body, alias } = activityBody(opts, file, () => nickname);
  const http = await deps.http();
  await getEngine(http, body.engine as EngineId);
  await ensureNickname(http, nickname, deps);
  const created = await createOrVersion((next) => createActivity(http, id, body, next));
  if (alias) await setAlias(http, "activities", id, alias, created.version);
  const qualifiedId = `${created.id}+${alias ?? "$LATEST"}`;
  return {
    ...created,
    qualifiedId,
    ...(alias ? { alias } : {}),
    summary: `Created activity ${created.id} version ${created.version}${
      alias ? `; alias ${alias} -> ${created.version}` : ""
    }`,
  };
}
