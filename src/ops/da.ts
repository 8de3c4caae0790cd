/**
 * The Design Automation verbs (`da ...`): the app's nickname, engines, app bundles and activities,
 * as the app (code:all). Names and engine ids arrive checked (aps/da_ids.ts).
 */
import { type DaName, describeId, type EngineId, type QualifiedId } from "../aps/da_ids.ts";
import {
  type AppBundleCreated,
  createAppBundle,
  type Engine,
  getEngine,
  getNickname,
  listActivities,
  listAppBundles,
  listEngines,
  setNickname,
} from "../services/da.ts";
import type { OpsDeps } from "./deps.ts";

/** A listed id with its parts beside it (owner, name, alias). */
export type DaIdRow = { id: string } & Partial<QualifiedId>;

/** `da nickname`: the app's nickname, after setting it to `name` when given. */
export async function runDaNickname(opts: { name?: DaName }, deps: OpsDeps): Promise<{ nickname: string }> {
  const http = await deps.http();
  if (opts.name !== undefined) await setNickname(http, opts.name);
  return { nickname: await getNickname(http) };
}

/** What the id lists list. */
export type DaListKind = "engines" | "appbundles" | "activities";

const LISTS = { engines: listEngines, appbundles: listAppBundles, activities: listActivities } as const;

/** `da engine|appbundle|activity list`: every id (every page up to `limit`), with its parts. */
export async function runDaList(
  opts: { kind: DaListKind; limit?: number },
  deps: OpsDeps,
): Promise<DaIdRow[]> {
  const out: DaIdRow[] = [];
  for await (const id of LISTS[opts.kind](await deps.http(), { limit: opts.limit })) out.push(describeId(id));
  return out;
}

/** `da engine get`: an engine's details. */
export async function runDaEngineGet(opts: { id: EngineId }, deps: OpsDeps): Promise<Engine> {
  return await getEngine(await deps.http(), opts.id);
}

/** `da appbundle create`: an app bundle (version 1) and where to upload its package. */
export async function runDaAppBundleCreate(
  opts: { id: DaName; engine: EngineId; description?: string },
  deps: OpsDeps,
): Promise<AppBundleCreated> {
  return await createAppBundle(await deps.http(), opts);
}
