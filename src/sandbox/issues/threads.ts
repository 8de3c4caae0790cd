/**
 * The rest of ACC Issues v1 (Issues.yaml): the caller's profile (`users/me`), issue types with
 * their subtypes, an issue's comments (offset pages, 1-100, default 100) and its attachments. An
 * attachment names an object already uploaded to the project's storage
 * (`urn:adsk.objects:os.object:wip.dm.prod/<fileName>`); its size is read from that object.
 */

import { ISSUE_STATUSES } from "../../aps/issues.ts";
import { ACC_ROUTE_SCOPES } from "../acc_access.ts";
import { nowMs } from "../clock.ts";
import type { RequestContext } from "../context.ts";
import { adminError } from "../errors.ts";
import { findObject } from "../oss/object_store.ts";
import { empty, json, readJson } from "../respond.ts";
import type { Route } from "../router.ts";
import { offsetPage, window } from "../admin/common.ts";
import {
  attachmentBody,
  commentBody,
  CREATE_STATUSES,
  PERMITTED_ACTIONS,
  PERMITTED_ATTRIBUTES,
  typeBody,
} from "./bodies.ts";
import { issueOf, issuesOf } from "./project.ts";
import { MAX_ATTACHMENTS, type StoredAttachment } from "./store.ts";

const STORAGE_BUCKET = "wip.dm.prod";
const STORAGE_PREFIX = `urn:adsk.objects:os.object:${STORAGE_BUCKET}/`;

/** Whether `uid` administers the project (its membership says so). */
function isProjectAdmin(ctx: RequestContext, projectId: string, uid: string): boolean {
  for (const account of ctx.sandbox.admin.accounts.values()) {
    const user = account.users.find((u) => u.uid === uid);
    const member = account.members.get(projectId)?.find((m) => m.userId === user?.id);
    if (member) return member.projectAdmin;
  }
  return false;
}

function me(_req: Request, ctx: RequestContext): Response {
  const { id, uid } = issuesOf(ctx, "read");
  const scopes = ctx.token?.scope ?? [];
  const writes = scopes.includes("data:write") || scopes.includes("data:create");
  const fresh = {
    permittedActions: PERMITTED_ACTIONS,
    permittedAttributes: PERMITTED_ATTRIBUTES,
    permittedStatuses: CREATE_STATUSES,
    permitted_actions: PERMITTED_ACTIONS,
    permitted_attributes: PERMITTED_ATTRIBUTES,
    permitted_statuses: CREATE_STATUSES,
  };
  return json(200, {
    id: uid,
    isProjectAdmin: isProjectAdmin(ctx, id, uid),
    canManageTemplates: false,
    issues: { ...(writes ? { new: fresh } : {}), filter: { permittedStatuses: [...ISSUE_STATUSES] } },
    permissionLevels: writes ? ["create", "read", "write"] : ["read"],
  });
}

function types(_req: Request, ctx: RequestContext): Response {
  const { id, p, uid } = issuesOf(ctx, "read");
  const win = window(ctx, 200, 200);
  const active = ctx.url.searchParams.get("filter[isActive]");
  if (active !== null && active !== "true" && active !== "false") {
    throw adminError(400, "ERR_BAD_INPUT", "'filter[isActive]' must be true or false");
  }
  const subtypes = ctx.url.searchParams.get("include") === "subtypes";
  const results = p.types.filter((t) => active === null || String(t.isActive) === active)
    .map((t) => typeBody(t, id, subtypes, uid));
  return offsetPage(ctx, results, win, "none");
}

function listComments(_req: Request, ctx: RequestContext): Response {
  const { p } = issuesOf(ctx, "read");
  const issue = issueOf(p, ctx.params.issueId);
  const win = window(ctx, 100, 100);
  const desc = ctx.url.searchParams.get("sortBy") === "-createdAt";
  const all = [...p.comments.get(issue.id) ?? []].sort((a, b) =>
    (a.createdMs - b.createdMs) * (desc ? -1 : 1)
  );
  return offsetPage(ctx, all.map(commentBody), win, "none");
}

async function addComment(req: Request, ctx: RequestContext): Promise<Response> {
  const { p, uid } = issuesOf(ctx, "write");
  const issue = issueOf(p, ctx.params.issueId);
  const b = await readJson(req) as { body?: unknown } | undefined;
  const text = b?.body;
  if (typeof text !== "string" || text.trim() === "" || text.length > 10000) {
    throw adminError(400, "ERR_BAD_INPUT", "'body' must be a non-empty string of at most 10000 characters");
  }
  const comment = {
    id: crypto.randomUUID(),
    body: text,
    createdBy: uid,
    createdMs: nowMs(ctx.sandbox.clock),
  };
  const list = p.comments.get(issue.id) ?? [];
  list.push(comment);
  p.comments.set(issue.id, list);
  return json(201, commentBody(comment));
}

function listAttachments(_req: Request, ctx: RequestContext): Response {
  const { p } = issuesOf(ctx, "read");
  const issue = issueOf(p, ctx.params.issueId);
  return json(200, {
    attachments: (p.attachments.get(issue.id) ?? []).map((a) => attachmentBody(a, issue.id)),
  });
}

/** One attachment of a payload, checked against the storage it names; throws 400. */
function checkedAttachment(ctx: RequestContext, item: unknown, uid: string): StoredAttachment {
  const a = (item ?? {}) as Record<string, unknown>;
  for (const k of ["attachmentId", "displayName", "fileName", "attachmentType", "storageUrn"]) {
    if (typeof a[k] !== "string" || (a[k] as string).trim() === "") {
      throw adminError(400, "ERR_BAD_INPUT", `every attachment needs '${k}'`);
    }
  }
  if (a.attachmentType !== "issue-attachment") {
    throw adminError(400, "ERR_BAD_INPUT", "'attachmentType' must be issue-attachment");
  }
  const urn = a.storageUrn as string;
  if (urn !== `${STORAGE_PREFIX}${a.fileName}`) {
    throw adminError(400, "ERR_BAD_INPUT", `'storageUrn' must be ${STORAGE_PREFIX}<fileName>`);
  }
  const object = findObject(ctx.sandbox.oss, STORAGE_BUCKET, a.fileName as string);
  if (!object) throw adminError(400, "ERR_BAD_INPUT", `no uploaded object at ${urn}`);
  return {
    attachmentId: a.attachmentId as string,
    displayName: a.displayName as string,
    fileName: a.fileName as string,
    storageUrn: urn,
    fileSize: object.reportedSize ?? object.size,
    createdBy: uid,
    createdMs: nowMs(ctx.sandbox.clock),
  };
}

async function addAttachments(req: Request, ctx: RequestContext): Promise<Response> {
  const { p, uid } = issuesOf(ctx, "write");
  const b = await readJson(req) as { domainEntityId?: unknown; attachments?: unknown } | undefined;
  if (typeof b?.domainEntityId !== "string" || !Array.isArray(b.attachments) || b.attachments.length === 0) {
    throw adminError(
      400,
      "ERR_BAD_INPUT",
      "the body needs 'domainEntityId' and a non-empty 'attachments' list",
    );
  }
  const issue = issueOf(p, b.domainEntityId);
  const items = b.attachments.map((a) => checkedAttachment(ctx, a, uid));
  const list = p.attachments.get(issue.id) ?? [];
  const taken = items.find((a) => list.some((x) => x.attachmentId === a.attachmentId));
  if (taken) throw adminError(409, "ERR_CONFLICT", `attachment ${taken.attachmentId} already exists`);
  if (list.length + items.length > MAX_ATTACHMENTS) {
    throw adminError(422, "ERR_LIMIT", `an issue has at most ${MAX_ATTACHMENTS} attachments`);
  }
  list.push(...items);
  p.attachments.set(issue.id, list);
  return json(200, { attachments: items.map((a) => attachmentBody(a, issue.id)) });
}

function deleteAttachment(_req: Request, ctx: RequestContext): Response {
  const { p } = issuesOf(ctx, "write");
  const issue = issueOf(p, ctx.params.issueId);
  const list = p.attachments.get(issue.id) ?? [];
  const at = list.findIndex((a) => a.attachmentId === ctx.params.attachmentId);
  if (at < 0) throw adminError(404, "ERR_NOT_FOUND", `attachment ${ctx.params.attachmentId} not found`);
  list.splice(at, 1);
  return empty(204);
}

/** The routes of profile, types, comments and attachments under `base`. */
export function threadRoutes(base: string): Route[] {
  const s = ACC_ROUTE_SCOPES;
  return [
    { method: "GET", pattern: `${base}/users/me`, scopes: s, handler: me },
    { method: "GET", pattern: `${base}/issue-types`, scopes: s, handler: types },
    { method: "GET", pattern: `${base}/issues/:issueId/comments`, scopes: s, handler: listComments },
    { method: "POST", pattern: `${base}/issues/:issueId/comments`, scopes: s, handler: addComment },
    { method: "POST", pattern: `${base}/attachments`, scopes: s, handler: addAttachments },
    { method: "GET", pattern: `${base}/attachments/:issueId/items`, scopes: s, handler: listAttachments },
    {
      method: "DELETE",
      pattern: `${base}/attachments/:issueId/items/:attachmentId`,
      scopes: s,
      handler: deleteAttachment,
    },
  ];
}
