/**
 * The Design Automation verbs (`da ...`): the app's nickname, engines, app bundles (with their
 * package and aliases), the service's health; activities and work items are in da_activity.ts and
 * da_workitem.ts. As the app (code:all). Names and engine ids arrive checked (aps/da_ids.ts).
 */
import { checkDaName, type DaName, describeId, type EngineId, type QualifiedId } from "../../aps/da_ids.ts";
import { DiazoError, usageError } from "../../core/errors.ts";
import {
  type AppBundleCreated,
  createAppBundle,
  daIdsPage,
  type Engine,
  getEngine,
  getNickname,
  listActivities,
  listAppBundles,
  listEngines,
  setAlias,
  setNickname,
  uploadPackage,
} from "./api.ts";
import { getHealth } from "./workitems_api.ts";
import type { Http } from "../../http/http.ts";
import { osPath, resolveFrom } from "../../platform/path.ts";
import type { OpsDeps } from "../../session/deps.ts";
import { type ListPage, mapPage } from "../../http/list.ts";

/** A listed id with its parts beside it (owner, name, alias). */
export type DaIdRow = { id: string } & Partial<QualifiedId>;

/** `da nickname`: the app's nickname, after setting it to `name` when given. */
export async function runDaNickname(opts: { name?: DaName }, deps: OpsDeps): Promise<{ nickname: string }> {
  const http = await deps.http();
  if (opts.name !== undefined) await setNickname(http, opts.name);
  const nickname = await getNickname(http);
  const settings = await deps.settings();
  const note = nicknameNote(
    nickname,
    settings.clientId.value,
    settings.daNickname.value?.trim() || undefined,
  );
  if (note) deps.info(note);
  return { nickname };
}

/**
 * What a person must know beside the app's nickname: the commands that create ids use the
 * configured one (requireNickname), which the platform's answer alone does not set.
 */
export function nicknameNote(
  platform: string,
  clientId: string | undefined,
  configured: string | undefined,
): string | undefined {
  const set = (name: string) => `set SVC_DA_NICKNAME=${name} (or \`diazo config set da_nickname ${name}\`)`;
  if (configured === platform) return undefined;
  if (configured === undefined) {
    return platform === clientId
      ? `The app has no nickname of its own (its ids are owned by its client id). Creating app bundles and activities needs one: ${
        set("<name>")
      }; diazo then gives it to the app.`
      : `Creating app bundles and activities needs this nickname configured too: ${set(platform)}.`;
  }
  return platform === clientId
    ? `The configured nickname ${configured} is given to the app at its first app bundle or activity.`
    : `The configured nickname ${configured} is not the app's: ${set(platform)}.`;
}

/**
 * The configured nickname (SVC_DA_NICKNAME, APS_DA_NICKNAME or the profile's `da_nickname`), checked;
 * "Design Automation nickname required" (exit 2) when there is none.
 */
export async function requireNickname(deps: OpsDeps): Promise<DaName> {
  const nickname = (await deps.settings()).daNickname.value?.trim();
  if (!nickname) throw new DiazoError("nickname_required");
  return checkDaName("nickname", nickname);
}

/**
 * Makes the app's nickname the configured one: nothing when it already is, sets it when the app has
 * none yet (the platform then answers its client id), a usage error when the app has another.
 */
export async function ensureNickname(http: Http, nickname: DaName, deps: OpsDeps): Promise<void> {
  const current = await getNickname(http);
  if (current === nickname) return;
  if (current !== (await deps.settings()).clientId.value) {
    throw usageError(
      `the app's Design Automation nickname is '${current}', not '${nickname}'`,
      `Set SVC_DA_NICKNAME=${current}: the nickname is the owner of every id the app creates, and it changes only once the app's data is deleted.`,
    );
  }
  await setNickname(http, nickname);
  deps.info(`Nickname of the app set to ${nickname}`);
}

/** What the id lists list. */
export type DaListKind = "engines" | "appbundles" | "activities";

const LISTS = { engines: listEngines, appbundles: listAppBundles, activities: listActivities } as const;

/** `da engines|appbundles|activities`: every id (every page up to `limit`), with its parts. */
export async function runDaList(
  opts: { kind: DaListKind; limit?: number },
  deps: OpsDeps,
): Promise<DaIdRow[]> {
  const out: DaIdRow[] = [];
  for await (const id of LISTS[opts.kind](await deps.http(), { limit: opts.limit })) out.push(describeId(id));
  return out;
}

/** One page of `runDaList`'s ids from the platform's cursor (the tool server's paging). */
export async function runDaListPage(
  opts: { kind: DaListKind; limit: number; cursor?: string },
  deps: OpsDeps,
): Promise<ListPage<DaIdRow>> {
  const page = await daIdsPage(await deps.http(), opts.kind, { limit: opts.limit, cursor: opts.cursor });
  return mapPage(page, describeId);
}

/** `da engine get`: an engine's details. */
export async function runDaEngineGet(opts: { id: EngineId }, deps: OpsDeps): Promise<Engine> {
  return await getEngine(await deps.http(), opts.id);
}

/** What `da appbundle-create` takes. */
export interface AppBundleCreateOpts {
  id: DaName;
  engine: EngineId;
  description?: string;
  /** The package (a zip) to upload; relative to `deps.cwd`. */
  packageFile?: string;
  alias?: DaName;
}

/** What `da appbundle-create` did. */
export interface AppBundleCreatedResult {
  id: string;
  engine: string;
  version: number;
  /** The id an activity names it by: `<owner>.<name>+<alias or $LATEST>`. */
  qualifiedId: string;
  alias?: string;
  package?: { file: string; size: number };
  /** Where to upload the package, when none was given. */
  uploadParameters?: AppBundleCreated["uploadParameters"];
  summary: string;
}

/** The largest package the platform's upload form takes (100 MB). */
const PACKAGE_LIMIT = 104_857_600;

/**
 * Reads a package before any request: "File not found" when it is missing; a directory or a
 * package over the platform's 100 MB is a usage error.
 */
async function readPackage(deps: OpsDeps, file: string): Promise<{ name: string; bytes: Uint8Array }> {
  const abs = await resolveFrom(deps.cwd, file);
  if ((await Deno.stat(abs).catch(() => undefined))?.isDirectory) {
    throw usageError(`${file} is a directory`, "Zip the bundle (e.g. MyApp.bundle/) and pass the .zip file.");
  }
  // The upload module (and node:crypto) loads only for a package.
  const { statFile } = await import("../../transfer/upload.ts");
  const { size } = await statFile(abs, file);
  if (size > PACKAGE_LIMIT) {
    throw usageError(
      `${file} is ${(size / 1048576).toFixed(1)} MiB: the platform takes packages of at most 100 MB`,
      "Leave out of the zip what the engine does not load, or fetch large data as a work item input.",
    );
  }
  return { name: osPath().basename(file), bytes: await Deno.readFile(abs) };
}

/** Creates a resource, or its next version when it exists (409). */
export async function createOrVersion<T>(create: (newVersion: boolean) => Promise<T>): Promise<T> {
  try {
    return await create(false);
  } catch (e) {
    if (!(e instanceof DiazoError) || e.status !== 409) throw e;
    return await create(true);
  }
}

/**
 * `da appbundle-create`: checks the engine ("Engine not found"), makes the app's nickname the
 * configured one, creates the app bundle (or its next version when it exists), uploads the package
 * through the form the platform returns, and points `alias` at the new version.
 */
export async function runDaAppBundleCreate(
  opts: AppBundleCreateOpts,
  deps: OpsDeps,
): Promise<AppBundleCreatedResult> {
  const nickname = await requireNickname(deps);
  const pkg = opts.packageFile === undefined ? undefined : await readPackage(deps, opts.packageFile);
  const http = await deps.http();
  await getEngine(http, opts.engine);
  await ensureNickname(http, nickname, deps);
  const created = await createOrVersion((next) => createAppBundle(http, opts, next));
  if (pkg) await uploadPackage(http, created.uploadParameters, pkg);
  if (opts.alias) await setAlias(http, "appbundles", opts.id, opts.alias, created.version);
  const qualifiedId = `${created.id}+${opts.alias ?? "$LATEST"}`;
  const what = pkg ? ` with ${opts.packageFile} (${pkg.bytes.length} bytes)` : "";
  return {
    id: created.id,
    engine: created.engine,
    version: created.version,
    qualifiedId,
    ...(opts.alias ? { alias: opts.alias } : {}),
    ...(pkg ? { package: { file: opts.packageFile!, size: pkg.bytes.length } } : {}),
    ...(pkg ? {} : { uploadParameters: created.uploadParameters }),
    summary: `Created app bundle ${created.id} version ${created.version}${what}${
      opts.alias ? `; alias ${opts.alias} -> ${created.version}` : ""
    }`,
  };
}

/** One engine's health. */
export interface EngineHealth {
  engine: string;
  status: string;
  ok: boolean;
}

/** The platform's status of a healthy engine. */
export const HEALTHY = "Fully Operational";

/** `da status`: the service's health per engine (`engine` alone, or all), as the platform reports it. */
export async function runDaStatus(opts: { engine?: string }, deps: OpsDeps): Promise<EngineHealth[]> {
  const answer = await getHealth(await deps.http(), opts.engine ?? "api");
  const entries: [string, string][] = answer.engines
    ? Object.entries(answer.engines).map(([engine, h]) => [engine, h?.Status ?? "unknown"])
    : [[opts.engine ?? "api", answer.Status ?? "unknown"]];
  return entries.map(([engine, status]) => ({ engine, status, ok: status === HEALTHY }));
}
