/**
 * Checklists: JSON:API documents of a BIM 360 project's checklists container. The container id is
 * the data-management project's `relationships.checklists` (the project's GUID, except for the
 * older BIM 360 projects whose container differs); an ACC project has no such container: the
 * reference pages listed in tests/contract/undocumented.ts say these endpoints are "not compatible
 * with ACC projects", so the sandbox answers 404, one of the statuses those pages list. Instances and templates are listed with `page[limit]` /
 * `page[offset]` and `links.next`; one instance comes with its sections and items in `included`.
 * Creating an instance copies a template's sections and items; a status moves only along
 * not_started → in_progress → completed (and back one step), and the template cannot change.
 */
import { CHECKLIST_STATUSES, CHECKLIST_TEMPLATE_TYPES, CHECKLIST_TRANSITIONS } from "../../aps/acc_build.ts";
import type { RequestContext } from "../context.ts";
import { JSON_API_TYPE } from "../errors.ts";
import type { Route } from "../router.ts";
import { limitOffset } from "../admin/common.ts";
import { type AccNeed, accProject } from "../acc_access.ts";
import { nowMs } from "../clock.ts";
import { findProject } from "../admin/store.ts";
import {
  type Access,
  bad,
  body,
  checkDates,
  checkFields,
  checkMove,
  checkText,
  find,
  missing,
  named,
} from "./common.ts";
import { type ChecklistTemplate, projectBuild, type Rec } from "./store.ts";

const FIELDS = [
  "title",
  "description",
  "status",
  "assigneeId",
  "assigneeType",
  "dueDate",
  "scheduledDate",
  "location",
];

function doc(status: number, value: Record<string, unknown>): Response {
  return new Response(JSON.stringify({ jsonapi: { version: "1.0" }, ...value }), {
    status,
    headers: { "content-type": JSON_API_TYPE },
  });
}

type Section = { id: string; title: string; items: { id: string; title: string; response?: unknown }[] };

function instanceResource(c: Rec) {
  const { id, sections, ...attributes } = c;
  const statusId = CHECKLIST_STATUSES.indexOf(String(c.status)) + 1;
  return {
    type: "instances",
    id,
    attributes: { ...attributes, statusId, templateType: CHECKLIST_TEMPLATE_TYPES[String(c.templateTypeId)] },
    relationships: {
      template: { data: { type: "templates", id: c.templateId } },
      sections: { data: (sections as Section[]).map((s) => ({ type: "instance_sections", id: s.id })) },
    },
  };
}

function included(c: Rec) {
  return (c.sections as Section[]).flatMap((s, index) => [
    {
      type: "instance_sections",
      id: s.id,
      attributes: { title: s.title, index },
      relationships: { items: { data: s.items.map((it) => ({ type: "instance_items", id: it.id })) } },
    },
    ...s.items.map((it, i) => ({
      type: "instance_items",
      id: it.id,
      attributes: { title: it.title, index: i, response: it.response ?? null },
    })),
  ]);
}

function templateResource(t: ChecklistTemplate) {
  return {
    type: "templates",
    id: t.id,
    attributes: {
      title: t.title,
      templateTypeId: t.templateTypeId,
      templateTypeName: CHECKLIST_TEMPLATE_TYPES[t.templateTypeId],
      sectionCount: t.sections.length,
      itemCount: t.sections.reduce((n, s) => n + s.items.length, 0),
      createdAt: t.createdAt,
    },
  };
}

/** The project whose checklists container the path names, once the access rule let the request in. */
function access(ctx: RequestContext, need: AccNeed): Access {
  const id = ctx.params.containerId;
  const projects = [...ctx.sandbox.dm.world.projects.values()];
  const named = projects.find((p) => p.checklistsContainerId === id);
  const own = projects.find((p) => p.id === `b.${id}`);
  const projectId = named ? named.id.slice(2) : own?.checklistsContainerId ? undefined : id;
  const admin = projectId === undefined ? undefined : findProject(ctx.sandbox.admin, projectId);
  if (!admin || admin.platform === "acc") throw missing(`checklists container ${id}`);
  const project = accProject(ctx, admin.id, need);
  return {
    build: projectBuild(ctx.sandbox.accBuild, project.id),
    uid: ctx.token?.userid ?? "",
    now: new Date(nowMs(ctx.sandbox.clock)).toISOString(),
  };
}

/** One page of `all` as a JSON:API document with `links.next` on every page but the last. */
function paged(ctx: RequestContext, all: readonly unknown[]): Response {
  const q = ctx.url.searchParams;
  const win = limitOffset(q.get("page[limit]") ?? undefined, q.get("page[offset]") ?? undefined, 50, 200);
  const next = new URLSearchParams(q);
  next.set("page[limit]", String(win.limit));
  next.set("page[offset]", String(win.offset + win.limit));
  return doc(200, {
    meta: { page: { limit: win.limit, offset: win.offset, totalResults: all.length } },
    data: all.slice(win.offset, win.offset + win.limit),
    links: win.offset + win.limit < all.length ? { next: `${ctx.baseUrl}${ctx.url.pathname}?${next}` } : {},
  });
}

function list(_req: Request, ctx: RequestContext): Response {
  const { build } = access(ctx, "read");
  const q = ctx.url.searchParams;
  const values = (name: string) => q.get(`filter[${name}]`)?.split(",").filter(Boolean);
  const statuses = values("statusId");
  const types = values("templateTypeId");
  const all = build.checklists.filter((c) =>
    (!statuses || statuses.includes(String(CHECKLIST_STATUSES.indexOf(String(c.status)) + 1))) &&
    (!types || types.includes(String(c.templateTypeId)))
  ).map(instanceResource);
  return paged(ctx, all);
}

function getOne(_req: Request, ctx: RequestContext): Response {
  const { build } = access(ctx, "read");
  const c = find(build.checklists, ctx.params.instanceId, "checklist");
  const include = ctx.url.searchParams.get("include");
  return doc(200, { data: instanceResource(c), ...(include ? { included: included(c) } : {}) });
}

/** The attributes of a JSON:API body `{data: {type: "instances", attributes}}`. */
async function attributesOf(req: Request): Promise<Record<string, unknown>> {
  const data = (await body(req)).data as Record<string, unknown> | undefined;
  if (!data || data.type !== "instances" || typeof data.attributes !== "object" || data.attributes === null) {
    throw bad('the body must be {"data": {"type": "instances", "attributes": {...}}}');
  }
  return data.attributes as Record<string, unknown>;
}

function checkChecklist(a: Record<string, unknown>) {
  checkText(a, ["title", "location", "assigneeId", "assigneeType"], 255);
  checkText(a, ["description"], 3000);
  checkDates(a, ["dueDate", "scheduledDate"]);
  if (a.status !== undefined && !CHECKLIST_STATUSES.includes(String(a.status))) {
    throw bad(`'status' must be one of ${CHECKLIST_STATUSES.join(", ")}`);
  }
}

async function create(req: Request, ctx: RequestContext): Promise<Response> {
  const { build, uid, now } = access(ctx, "write");
  const a = await attributesOf(req);
  checkFields(a, [...FIELDS, "templateId"], ["templateId", "title"]);
  checkChecklist(a);
  if (a.status !== undefined && a.status !== "not_started") {
    throw bad("a new checklist starts as 'not_started'");
  }
  const t = named(build.templates, a, "templateId", "a checklist template");
  const c: Rec = {
    id: String(build.counters.checklist++),
    description: null,
    assigneeId: null,
    assigneeType: null,
    dueDate: null,
    scheduledDate: null,
    location: null,
    ...a,
    status: "not_started",
    templateTypeId: t.templateTypeId,
    createdBy: uid,
    createdAt: now,
    updatedAt: now,
    sections: t.sections.map((s) => ({ ...s, items: s.items.map((it) => ({ ...it, response: null })) })),
  };
  build.checklists.push(c);
  return doc(201, { data: instanceResource(c) });
}

async function update(req: Request, ctx: RequestContext): Promise<Response> {
  const { build, now } = access(ctx, "write");
  const c = find(build.checklists, ctx.params.instanceId, "checklist");
  const a = await attributesOf(req);
  if ("templateId" in a) throw bad("'templateId' cannot change: create another checklist from the template");
  checkFields(a, FIELDS);
  checkChecklist(a);
  if (a.status !== undefined) {
    checkMove("the checklist", CHECKLIST_TRANSITIONS, String(c.status), String(a.status));
  }
  Object.assign(c, a, { updatedAt: now });
  return doc(200, { data: instanceResource(c) });
}

function templates(_req: Request, ctx: RequestContext): Response {
  return paged(ctx, access(ctx, "read").build.templates.map(templateResource));
}

function template(_req: Request, ctx: RequestContext): Response {
  const t = find(access(ctx, "read").build.templates, ctx.params.templateId, "template");
  return doc(200, { data: templateResource(t) });
}

const READ = ["data:read", "data:write", "data:create"];
const C = "/bim360/checklists/v1/containers/:containerId";

/** Routes of the checklists service. */
export const checklistRoutes: readonly Route[] = [
  { method: "GET", pattern: `${C}/instances`, scopes: READ, handler: list },
  { method: "POST", pattern: `${C}/instances`, scopes: READ, handler: create },
  { method: "GET", pattern: `${C}/instances/:instanceId`, scopes: READ, handler: getOne },
  { method: "PATCH", pattern: `${C}/instances/:instanceId`, scopes: READ, handler: update },
  { method: "GET", pattern: `${C}/templates`, scopes: READ, handler: templates },
  { method: "GET", pattern: `${C}/templates/:templateId`, scopes: READ, handler: template },
];
