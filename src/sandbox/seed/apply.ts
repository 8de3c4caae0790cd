/**
 * Builds the world a world file declares (validate.ts checked it against schema.ts) in a fresh
 * sandbox: it replaces the built-in hubs, projects, folders, items, issues and account data, and
 * adds the declared apps and buckets. Ids given are kept; ids left out are derived from names.
 */

import { createHash } from "node:crypto";
import { dirname, isAbsolute, join } from "node:path";
import type { IssueStatus } from "../../aps/issues.ts";
import { type AdminAccount, type AdminUser, seedGuid, seedProject } from "../admin/store.ts";
import { SANDBOX_USER } from "../auth/users.ts";
import { registerApp, WELL_KNOWN_APP } from "../auth/store.ts";
import { nowMs } from "../clock.ts";
import type { SandboxContext } from "../context.ts";
import { projectIssues } from "../issues/store.ts";
import { putObject } from "../oss/object_store.ts";
import type { Bucket } from "../oss/store.ts";
import {
  addFolder,
  addVersion,
  DM_STORAGE_BUCKET,
  type DmFolder,
  type DmWorld,
  emptyDmWorld,
  extensionOf,
} from "../dm/world.ts";

/** An item of a folder: a name and the local file it holds. */
interface WorldItem {
  id?: string;
  name: string;
  file: string;
}

/** A folder and what it holds. */
interface WorldFolder {
  id?: string;
  name: string;
  folders?: WorldFolder[];
  items?: WorldItem[];
}

/** An issue of a project. */
interface WorldIssue {
  id?: string;
  title: string;
  description?: string;
  status?: IssueStatus;
  type?: string;
  due_date?: string;
}

/** A project of a hub. */
interface WorldProject {
  id?: string;
  name: string;
  folders?: WorldFolder[];
  issues?: WorldIssue[];
}

/** A hub (an ACC or BIM 360 account). */
interface WorldHub {
  id?: string;
  name: string;
  type?: "ACC" | "BIM360";
  region?: string;
  projects?: WorldProject[];
}

/** A world file, as validate.ts accepts it. */
export interface World {
  apps?: { client_id: string; client_secret: string; callback_url?: string; scopes?: string[] }[];
  users?: { id?: string; email: string; first_name?: string; last_name?: string; job_title?: string }[];
  hubs?: WorldHub[];
  buckets?: {
    key: string;
    policy?: string;
    owner?: string;
    objects?: { key: string; file: string; content_type?: string }[];
  }[];
}

/** 22 URL-safe characters derived from `label`, like the platform's folder and lineage ids. */
function token(label: string): string {
  return createHash("sha1").update(`diazo-world:${label}`).digest().subarray(0, 16).toString("base64url");
}

/** What building a world needs besides the sandbox: where relative file names start. */
interface Build {
  sb: SandboxContext;
  base: string;
  time: string;
}

function localFile(b: Build, file: string): string {
  return isAbsolute(file) ? file : join(b.base, file);
}

async function addItem(
  b: Build,
  world: DmWorld,
  parent: DmFolder,
  it: WorldItem,
  ext: string,
): Promise<void> {
  const id = it.id ?? `urn:adsk.wipprod:dm.lineage:${token(`${parent.id}/${it.name}`)}`;
  const objectKey = `${crypto.randomUUID()}.${extensionOf(it.name) || "bin"}`;
  using f = await Deno.open(localFile(b, it.file));
  const obj = await putObject(b.sb.oss, DM_STORAGE_BUCKET, objectKey, f.readable);
  const item = {
    id,
    projectId: parent.projectId,
    parentId: parent.id,
    displayName: it.name,
    extensionType: `items:${ext}:File`,
    versionIds: [],
  };
  addVersion(world, item, {
    name: it.name,
    size: obj.size,
    storageId: `urn:adsk.objects:os.object:${DM_STORAGE_BUCKET}/${objectKey}`,
    extensionType: `versions:${ext}:File`,
    time: b.time,
  });
  world.items.set(id, item);
  parent.childIds.push(id);
}

async function addFolders(b: Build, world: DmWorld, parent: DmFolder, folders: WorldFolder[], ext: string) {
  for (const f of folders) {
    const folder = addFolder(world, parent, {
      id: f.id ?? `urn:adsk.wipprod:fs.folder:co.${token(`${parent.id}/${f.name}`)}`,
      name: f.name,
      extensionType: `folders:${ext}:Folder`,
      time: b.time,
    });
    await addFolders(b, world, folder, f.folders ?? [], ext);
    for (const it of f.items ?? []) await addItem(b, world, folder, it, ext);
  }
}

function storageBucket(b: Build, apps: string[]): Bucket {
  return {
    bucketKey: DM_STORAGE_BUCKET,
    bucketOwner: "autodesk-data-management",
    createdDate: nowMs(b.sb.clock),
    policyKey: "persistent",
    region: "US",
    permissions: apps.map((authId) => ({ authId, access: "full" })),
  };
}

function accountUsers(w: World, accountId: string, now: number): AdminUser[] {
  const base = {
    region: "US",
    status: "active" as const,
    companyId: seedGuid(`world/${accountId}/company`),
    createdMs: now,
  };
  return [
    {
      ...base,
      id: seedGuid(`world/${accountId}/user/sandbox`),
      uid: SANDBOX_USER.userid,
      email: SANDBOX_USER.email,
      firstName: SANDBOX_USER.firstName,
      lastName: SANDBOX_USER.lastName,
      role: "account_admin",
      jobTitle: "Account Administrator",
    },
    ...(w.users ?? []).map((u): AdminUser => ({
      ...base,
      id: seedGuid(`world/${accountId}/user/${u.email}`),
      uid: u.id ?? u.email.replace(/[^A-Za-z0-9]/g, "").toUpperCase(),
      email: u.email,
      firstName: u.first_name ?? "",
      lastName: u.last_name ?? "",
      role: "account_user",
      jobTitle: u.job_title ?? "",
    })),
  ];
}

/** A hub, its ACC or BIM 360 account (the sandbox user and the declared users in every project) and its projects. */
async function addHub(b: Build, world: DmWorld, w: World, h: WorldHub, now: number): Promise<void> {
  const sb = b.sb;
  const hubId = h.id ?? `b.${seedGuid(`world/hub/${h.name}`)}`;
  const platform = h.type === "BIM360" ? "bim360" : "acc";
  world.hubs.set(hubId, {
    id: hubId,
    name: h.name,
    region: h.region ?? "US",
    extensionType: "hubs:autodesk.bim360:Account",
    personal: false,
    projectIds: [],
  });
  const accountId = hubId.slice(2);
  const users = accountUsers(w, accountId, now);
  const role = { id: seedGuid(`world/${accountId}/role`), name: "Project Member" };
  const account: AdminAccount = {
    id: accountId,
    name: h.name,
    platform,
    projects: new Map(),
    users,
    companies: [{ id: users[0].companyId, name: h.name }],
    roles: [role],
    members: new Map(),
  };
  sb.admin.accounts.set(accountId, account);
  for (const [i, p] of (h.projects ?? []).entries()) {
    const projectId = p.id ?? `b.${seedGuid(`world/${hubId}/project/${p.name}`)}`;
    const bare = projectId.slice(2);
    const root: DmFolder = {
      id: `urn:adsk.wipprod:fs.folder:co.${token(`${projectId}/root`)}`,
      projectId,
      name: bare,
      extensionType: "folders:autodesk.bim360:Folder",
      isRoot: true,
      createTime: b.time,
      lastModifiedTime: b.time,
      lastModifiedTimeRollup: b.time,
      childIds: [],
    };
    world.folders.set(root.id, root);
    await addFolders(b, world, root, p.folders ?? [], "autodesk.bim360");
    world.projects.set(projectId, {
      id: projectId,
      hubId,
      name: p.name,
      extensionType: "projects:autodesk.bim360:Project",
      projectType: h.type === "BIM360" ? "BIM360" : "ACC",
      rootFolderId: root.id,
      topFolderIds: [...root.childIds],
    });
    world.hubs.get(hubId)!.projectIds.push(projectId);
    account.projects.set(bare, seedProject(accountId, i, { id: bare, name: p.name, platform }));
    account.members.set(
      bare,
      users.map((u, j) => ({ userId: u.id, projectAdmin: j === 0, roleIds: [role.id], addedMs: now })),
    );
    addIssues(sb, bare, p.issues ?? [], now);
  }
}

/** Replaces the sandbox's built-in world with the one `w` declares; file names are relative to `worldFile`. */
export async function applyWorld(sb: SandboxContext, w: World, worldFile: string): Promise<void> {
  const b: Build = { sb, base: dirname(worldFile), time: new Date(nowMs(sb.clock)).toISOString() };
  const now = nowMs(sb.clock);
  for (const a of w.apps ?? []) {
    registerApp(sb.auth, {
      clientId: a.client_id,
      clientSecret: a.client_secret,
      callbackUrl: a.callback_url ?? WELL_KNOWN_APP.callbackUrl,
    });
    if (a.scopes) sb.auth.apps.get(a.client_id)!.scopes = [...a.scopes];
  }
  const apps = [...sb.auth.apps.keys()];
  sb.oss.buckets.set(DM_STORAGE_BUCKET, storageBucket(b, apps));
  const world = emptyDmWorld();
  sb.admin.accounts.clear();
  sb.issues.projects.clear();
  sb.accBuild.projects.clear();
  for (const h of w.hubs ?? []) await addHub(b, world, w, h, now);
  sb.dm.world = world;
  sb.dm.revive?.();
  for (const bk of w.buckets ?? []) {
    const owner = bk.owner ?? WELL_KNOWN_APP.clientId;
    sb.oss.buckets.set(bk.key, {
      bucketKey: bk.key,
      bucketOwner: owner,
      createdDate: now,
      policyKey: bk.policy ?? "transient",
      region: "US",
      permissions: [{ authId: owner, access: "full" }],
    });
    for (const o of bk.objects ?? []) {
      using f = await Deno.open(localFile(b, o.file));
      await putObject(sb.oss, bk.key, o.key, f.readable, o.content_type);
    }
  }
}

function addIssues(
  sb: SandboxContext,
  projectId: string,
  issues: WorldIssue[],
  now: number,
): void {
  const p = projectIssues(sb.issues, projectId);
  const uid = SANDBOX_USER.userid;
  for (const [i, x] of issues.entries()) {
    const type = p.types.find((t) => t.title === x.type) ?? p.types[0];
    const status = x.status ?? "open";
    const id = x.id ?? seedGuid(`world/${projectId}/issue/${i}`);
    p.issues.set(id, {
      id,
      displayId: p.nextDisplayId++,
      title: x.title,
      description: x.description ?? null,
      issueTypeId: type.id,
      issueSubtypeId: type.subtypes[0].id,
      status,
      assignedTo: null,
      assignedToType: null,
      dueDate: x.due_date ?? null,
      startDate: null,
      locationId: null,
      locationDetails: null,
      rootCauseId: null,
      published: status !== "draft",
      watchers: [],
      createdBy: uid,
      createdMs: now,
      updatedBy: uid,
      updatedMs: now,
      openedBy: status === "draft" ? null : uid,
      openedMs: status === "draft" ? null : now,
      closedBy: status === "closed" ? uid : null,
      closedMs: status === "closed" ? now : null,
    });
  }
}
