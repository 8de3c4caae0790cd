/**
 * Assets: v2 list paged by an opaque cursor (`cursorState`, base64 of the next
 * offset and limit, followed through `nextUrl`), `assets:batch-get`, `assets:batch-create` (a
 * top-level array, 201) and `assets:batch-patch` (keyed by id); v1 categories and statuses. A
 * status must belong to the status set of the asset's category; every change bumps `version`.
 */
import type { RequestContext } from "../context.ts";
import { json } from "../respond.ts";
import type { Route } from "../router.ts";
import { limitOffset } from "../admin/common.ts";
import { access, bad, body, checkFields, checkText, find, named } from "./common.ts";
import type { ProjectBuild, Rec } from "./store.ts";

const FIELDS = [
  "clientAssetId",
  "categoryId",
  "statusId",
  "description",
  "locationId",
  "barcode",
  "customAttributes",
];

function cursorOf(text: string | null): { limit?: number; offset: number } {
  if (text === null) return { offset: 0 };
  try {
    const c = JSON.parse(atob(text));
    if (Number.isInteger(c.offset) && c.offset >= 0) return c;
  } catch { /* refused below */ }
  throw bad("'cursorState' is not a cursor this list returned");
}

function list(_req: Request, ctx: RequestContext): Response {
  const { build } = access(ctx, "read");
  const q = ctx.url.searchParams;
  const cursor = cursorOf(q.get("cursorState"));
  const win = limitOffset(q.get("limit") ?? cursor.limit, cursor.offset, 25, 200);
  const values = (name: string) => q.getAll(name).flatMap((v) => v.split(",")).filter(Boolean);
  const categories = values("filter[categoryId]");
  const statuses = values("filter[statusId]");
  const text = q.get("filter[searchText]")?.toLowerCase();
  const withDeleted = q.get("includeDeleted") === "true";
  const all = build.assets.filter((a) =>
    (withDeleted || a.isActive) &&
    (categories.length === 0 || categories.includes(String(a.categoryId))) &&
    (statuses.length === 0 || statuses.includes(String(a.statusId))) &&
    (!text || `${a.clientAssetId} ${a.description ?? ""} ${a.barcode ?? ""}`.toLowerCase().includes(text))
  );
  const next = win.offset + win.limit < all.length
    ? btoa(JSON.stringify({ limit: win.limit, offset: win.offset + win.limit }))
    : undefined;
  const link = new URLSearchParams({ cursorState: next ?? "", limit: String(win.limit) });
  return json(200, {
    pagination: {
      limit: win.limit,
      offset: win.offset,
      ...(next ? { cursorState: next, nextUrl: `${ctx.baseUrl}${ctx.url.pathname}?${link}` } : {}),
    },
    results: all.slice(win.offset, win.offset + win.limit),
  });
}

async function batchGet(req: Request, ctx: RequestContext): Promise<Response> {
  const { build } = access(ctx, "read");
  const b = await body(req);
  if (!Array.isArray(b.ids) || !b.ids.every((id) => typeof id === "string")) {
    throw bad("'ids' must be a list of ids");
  }
  const ids = b.ids as string[];
  const withDeleted = ctx.url.searchParams.get("includeDeleted") === "true";
  return json(200, {
    results: build.assets.filter((a) => ids.includes(a.id) && (withDeleted || a.isActive)),
  });
}

/** Refuses an unknown category, or a status outside the category's status set. */
function checkAsset(build: ProjectBuild, a: Record<string, unknown>) {
  checkText(a, ["clientAssetId", "barcode", "locationId", "categoryId", "statusId"], 250);
  checkText(a, ["description"], 1000);
  const category = named(build.categories, a, "categoryId", "a category");
  if (!category.statusIds.includes(String(a.statusId))) {
    const labels = category.statusIds.map((id) => `${id} (${build.assetStatuses.get(id)?.label})`);
    throw bad(`'statusId' must be one of the category's statuses: ${labels.join(", ")}`);
  }
  if (
    a.customAttributes !== undefined &&
    (typeof a.customAttributes !== "object" || Array.isArray(a.customAttributes))
  ) {
    throw bad("'customAttributes' must be an object");
  }
}

async function batchCreate(req: Request, ctx: RequestContext): Promise<Response> {
  const { build, uid, now } = access(ctx, "write");
  const items = await body(req, true) as unknown as Record<string, unknown>[];
  if (items.length === 0) throw bad("the body must list at least one asset");
  const created: Rec[] = [];
  for (const item of items) {
    if (!item || typeof item !== "object") throw bad("each asset must be an object");
    checkFields(item, FIELDS, ["clientAssetId", "categoryId", "statusId"]);
    checkAsset(build, item);
    created.push({
      id: crypto.randomUUID(),
      description: null,
      barcode: null,
      locationId: null,
      customAttributes: {},
      ...item,
      isActive: true,
      version: build.counters.assetVersion++,
      companyId: null,
      createdAt: now,
      createdBy: uid,
      updatedAt: now,
      updatedBy: uid,
      deletedAt: null,
      deletedBy: null,
    });
  }
  build.assets.push(...created);
  return json(201, { results: created });
}

async function batchPatch(req: Request, ctx: RequestContext): Promise<Response> {
  const { build, uid, now } = access(ctx, "write");
  const b = await body(req);
  const out: Record<string, Rec> = {};
  const changes = Object.entries(b).map(([id, fields]) => {
    const asset = find(build.assets.filter((a) => a.isActive), id, "asset");
    if (!fields || typeof fields !== "object" || Array.isArray(fields)) {
      throw bad(`the changes of ${id} must be an object`);
    }
    checkFields(fields as Record<string, unknown>, FIELDS);
    checkAsset(build, { ...asset, ...fields });
    return [asset, fields] as const;
  });
  for (const [asset, fields] of changes) {
    Object.assign(asset, fields, { version: build.counters.assetVersion++, updatedAt: now, updatedBy: uid });
    out[asset.id] = asset;
  }
  return json(200, out);
}

function categories(_req: Request, ctx: RequestContext): Response {
  const { build } = access(ctx, "read");
  const results = build.categories.map((c) => ({
    id: c.id,
    name: c.name,
    parentId: c.parentId,
    isRoot: c.parentId === null,
    isLeaf: !build.categories.some((x) => x.parentId === c.id),
    subcategoryIds: build.categories.filter((x) => x.parentId === c.id).map((x) => x.id),
    isActive: true,
  }));
  return json(200, { pagination: { limit: 200, offset: 0, totalResults: results.length }, results });
}

function statuses(_req: Request, ctx: RequestContext): Response {
  const { build } = access(ctx, "read");
  return json(200, { pagination: { limit: 200 }, results: [...build.assetStatuses.values()] });
}

const READ = ["data:read", "data:write", "data:create"];
const V2 = "/construction/assets/v2/projects/:projectId";
const V1 = "/construction/assets/v1/projects/:projectId";

/** Routes of the assets service. */
export const assetRoutes: readonly Route[] = [
  { method: "GET", pattern: `${V2}/assets`, scopes: READ, handler: list },
  { method: "POST", pattern: `${V2}/assets:batch-get`, scopes: READ, handler: batchGet },
  { method: "POST", pattern: `${V2}/assets:batch-create`, scopes: READ, handler: batchCreate },
  { method: "PATCH", pattern: `${V2}/assets:batch-patch`, scopes: READ, handler: batchPatch },
  { method: "GET", pattern: `${V1}/categories`, scopes: READ, handler: categories },
  { method: "GET", pattern: `${V1}/asset-statuses`, scopes: READ, handler: statuses },
];
