/**
 * What app bundles and activities share: creation with version 1, immutable
 * numbered versions (`/versions`), named aliases (`/aliases`, built-in `$LATEST`), details by
 * unqualified name or qualified id, and deletion. One factory builds the routes of both kinds.
 */

import type { RequestContext } from "../context.ts";
import { daError } from "../errors.ts";
import { empty, json, readJson } from "../respond.ts";
import type { Handler, Route } from "../router.ts";
import { page } from "./paging.ts";
import { DA_NAME, type DaApp, daApp, daOwner, type DaVersioned } from "./store.ts";

/** What differs between app bundles and activities. */
export interface VersionedKind<V> {
  /** Path segment and the word in messages: `appbundles` / `AppBundle`. */
  segment: "appbundles" | "activities";
  noun: string;
  items(app: DaApp): Map<string, DaVersioned<V>>;
  /** Reads a create or new-version body (without `id`), or throws 400. */
  parse(body: Record<string, unknown>, ctx: RequestContext): V;
  /** A version as `GET` answers it (without `id` and `version`). */
  view(
    v: V,
    ctx: RequestContext,
    at: { owner: string; name: string; version: number },
  ): Record<string, unknown>;
  /** Extra fields of a create or new-version answer (app bundles: upload parameters). */
  created?(
    ctx: RequestContext,
    at: { owner: string; name: string; version: number },
  ): Record<string, unknown>;
}

/** The caller's app and owner name. */
export function callerApp(ctx: RequestContext): { clientId: string; app: DaApp; owner: string } {
  const clientId = ctx.clientId ?? "";
  const app = daApp(ctx.sandbox.da, clientId);
  return { clientId, app, owner: daOwner(app, clientId) };
}

function bodyObject(raw: unknown, noun: string): Record<string, unknown> {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw daError(400, `The request body must be a JSON object describing the ${noun}`);
  }
  return raw as Record<string, unknown>;
}

/** Resolves a path id: an own unqualified name, or `<owner>.<name>+<alias>` of the caller. */
function resolve<V>(kind: VersionedKind<V>, ctx: RequestContext) {
  const { app, owner } = callerApp(ctx);
  const raw = ctx.params.id;
  const m = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)\+([$A-Za-z0-9_]+)$/.exec(raw);
  const name = m ? m[2] : raw;
  const item = kind.items(app).get(name);
  if (!item || (m && m[1] !== owner)) throw daError(404, `${kind.noun} '${raw}' not found`);
  let version = item.latest;
  if (m && m[3] !== "$LATEST") {
    const v = item.aliases.get(m[3]);
    if (v === undefined) throw daError(404, `${kind.noun} '${raw}' not found: no alias '${m[3]}'`);
    version = v;
  }
  return { app, owner, item, version };
}

function versionNumber(raw: unknown): number | undefined {
  const n = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : raw;
  return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** A version as the platform answers it: `id` (owner.name), the kind's fields, `version`. */
function answer<V>(
  kind: VersionedKind<V>,
  ctx: RequestContext,
  at: { owner: string; name: string; version: number },
  v: V,
  created = false,
): Response {
  return json(200, {
    ...(created ? kind.created?.(ctx, at) ?? {} : {}),
    id: `${at.owner}.${at.name}`,
    ...kind.view(v, ctx, at),
    version: at.version,
  });
}

const at = (owner: string, name: string, version: number) => ({ owner, name, version });
/** A create's or new version's answer (with the kind's extras, e.g. upload parameters). */
const answerCreated = <V>(
  kind: VersionedKind<V>,
  ctx: RequestContext,
  owner: string,
  name: string,
  version: number,
  v: V,
) => answer(kind, ctx, at(owner, name, version), v, true);

/** Create, details and deletion of one kind. */
function itemHandlers<V>(kind: VersionedKind<V>) {
  const create: Handler = async (req, ctx) => {
    const body = bodyObject(await readJson(req), kind.noun);
    const { id, ...rest } = body;
    if (typeof id !== "string" || !DA_NAME.test(id)) {
      throw daError(400, "'id' must be 1-64 letters, digits or underscores (an unqualified name)");
    }
    const v = kind.parse(rest, ctx);
    const { app, owner } = callerApp(ctx);
    const items = kind.items(app);
    if (items.has(id)) {
      throw daError(409, `${kind.noun} '${owner}.${id}' already exists: post a new version instead`);
    }
    items.set(id, { name: id, versions: new Map([[1, v]]), latest: 1, aliases: new Map() });
    return answerCreated(kind, ctx, owner, id, 1, v);
  };
  const get: Handler = (_req, ctx) => {
    const { owner, item, version } = resolve(kind, ctx);
    return answer(kind, ctx, at(owner, item.name, version), item.versions.get(version)!);
  };
  const remove: Handler = (_req, ctx) => {
    const { app, item } = resolve(kind, ctx);
    kind.items(app).delete(item.name);
    return empty(204);
  };
  return { create, get, remove };
}

/** The numbered versions of one kind. */
function versionHandlers<V>(kind: VersionedKind<V>) {
  const listVersions: Handler = (_req, ctx) => {
    const { item } = resolve(kind, ctx);
    return page([...item.versions.keys()].sort((a, b) => a - b), ctx);
  };
  const addVersion: Handler = async (req, ctx) => {
    const { owner, item } = resolve(kind, ctx);
    const body = bodyObject(await readJson(req), kind.noun);
    if (body.id !== undefined) throw daError(400, "A new version takes the body of a create without 'id'");
    const v = kind.parse(body, ctx);
    item.latest += 1;
    item.versions.set(item.latest, v);
    return answerCreated(kind, ctx, owner, item.name, item.latest, v);
  };
  const oneVersion = (ctx: RequestContext) => {
    const { owner, item } = resolve(kind, ctx);
    const n = versionNumber(ctx.params.version);
    const v = n === undefined ? undefined : item.versions.get(n);
    if (!v || n === undefined) {
      throw daError(404, `${kind.noun} '${item.name}' has no version ${ctx.params.version}`);
    }
    return { owner, item, n, v };
  };
  const getVersion: Handler = (_req, ctx) => {
    const { owner, item, n, v } = oneVersion(ctx);
    return answer(kind, ctx, at(owner, item.name, n), v);
  };
  const removeVersion: Handler = (_req, ctx) => {
    const { item, n } = oneVersion(ctx);
    if ([...item.aliases.values()].includes(n)) {
      throw daError(409, `Version ${n} is used by an alias: point the alias elsewhere first`);
    }
    item.versions.delete(n);
    return empty(204);
  };
  return { listVersions, addVersion, getVersion, removeVersion };
}

/** The aliases of one kind. */
function aliasHandlers<V>(kind: VersionedKind<V>) {
  const listAliases: Handler = (_req, ctx) => {
    const { item } = resolve(kind, ctx);
    const rows = [
      { version: item.latest, id: "$LATEST" },
      ...[...item.aliases].map(([id, version]) => ({ id, version })),
    ];
    return page(rows, ctx);
  };
  const aliasBody = async (req: Request, item: DaVersioned<V>) => {
    const body = bodyObject(await readJson(req), "alias");
    const version = versionNumber(body.version);
    if (version === undefined || !item.versions.has(version)) {
      throw daError(400, `'version' must name an existing version of '${item.name}'`);
    }
    return { body, version };
  };
  const addAlias: Handler = async (req, ctx) => {
    const { item } = resolve(kind, ctx);
    const { body, version } = await aliasBody(req, item);
    const id = body.id;
    if (typeof id !== "string" || !DA_NAME.test(id) || id === "$LATEST") {
      throw daError(400, "'id' must be an alias name: letters, digits or underscores");
    }
    if (item.aliases.has(id)) throw daError(409, `Alias '${id}' already exists: PATCH it to move it`);
    item.aliases.set(id, version);
    return json(200, { version, id });
  };
  const aliasOf = (ctx: RequestContext, item: DaVersioned<V>, verb: "modify" | "read" | "delete") => {
    const v = item.aliases.get(ctx.params.alias);
    if (v === undefined) throw daError(404, `Cannot ${verb} alias that does not exist.`);
    return v;
  };
  const getAlias: Handler = (_req, ctx) => {
    const { item } = resolve(kind, ctx);
    return json(200, { version: aliasOf(ctx, item, "read"), id: ctx.params.alias });
  };
  const patchAlias: Handler = async (req, ctx) => {
    const { item } = resolve(kind, ctx);
    aliasOf(ctx, item, "modify");
    const { version } = await aliasBody(req, item);
    item.aliases.set(ctx.params.alias, version);
    return json(200, { version, id: ctx.params.alias });
  };
  const removeAlias: Handler = (_req, ctx) => {
    const { item } = resolve(kind, ctx);
    aliasOf(ctx, item, "delete");
    item.aliases.delete(ctx.params.alias);
    return empty(204);
  };

  return { listAliases, addAlias, getAlias, patchAlias, removeAlias };
}

/** Builds every route of one kind under `base` (e.g. `/da/:region/v3`), each wrapped by `wrap`. */
export function versionedRoutes<V>(
  kind: VersionedKind<V>,
  base: string,
  scopes: readonly string[],
  wrap: (h: Handler) => Handler,
): Route[] {
  const { create, get, remove } = itemHandlers(kind);
  const { listVersions, addVersion, getVersion, removeVersion } = versionHandlers(kind);
  const { listAliases, addAlias, getAlias, patchAlias, removeAlias } = aliasHandlers(kind);
  const p = `${base}/${kind.segment}`;
  const table: [string, string, Handler][] = [
    ["POST", p, create],
    ["GET", `${p}/:id`, get],
    ["DELETE", `${p}/:id`, remove],
    ["GET", `${p}/:id/versions`, listVersions],
    ["POST", `${p}/:id/versions`, addVersion],
    ["GET", `${p}/:id/versions/:version`, getVersion],
    ["DELETE", `${p}/:id/versions/:version`, removeVersion],
    ["GET", `${p}/:id/aliases`, listAliases],
    ["POST", `${p}/:id/aliases`, addAlias],
    ["GET", `${p}/:id/aliases/:alias`, getAlias],
    ["PATCH", `${p}/:id/aliases/:alias`, patchAlias],
    ["DELETE", `${p}/:id/aliases/:alias`, removeAlias],
  ];
  return table.map(([method, pattern, handler]) => ({ method, pattern, scopes, handler: wrap(handler) }));
}
