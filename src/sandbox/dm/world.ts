/**
 * The data management world of the sandbox: hubs, projects, folders, items and versions, seeded
 * deterministically (the same ids, names, times and sizes in every sandbox).
 *
 * Seed: one ACC account hub (`b.` id, region US) with two projects whose top folders are "Project
 * Files" and "Plans" (nested folders, .rvt/.dwg/.ifc items with 1-3 versions, and a "Sheets"
 * folder of 450 drawings so that listing it at the default page size of 200 takes three pages),
 * and one personal hub (`a.` id) that only a user's (3-legged) token can see.
 */
import type { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { SANDBOX_USER } from "../auth/users.ts";

/** A hub (an ACC/BIM 360 account or a personal hub). */
export interface DmHub {
  id: string;
  name: string;
  region: string;
  extensionType: string;
  /** Seen only by tokens that act for a user. */
  personal: boolean;
  projectIds: string[];
}

/** A project of a hub. */
export interface DmProject {
  id: string;
  hubId: string;
  name: string;
  extensionType: string;
  /** `extension.data.projectType` of ACC/BIM 360 projects. */
  projectType?: "ACC" | "BIM360";
  /** The BIM 360 checklists container (`relationships.checklists`) of an older BIM 360 project, where it is not its GUID. */
  checklistsContainerId?: string;
  rootFolderId: string;
  topFolderIds: string[];
}

/** A folder; `childIds` lists its folders and items in display order. */
export interface DmFolder {
  id: string;
  projectId: string;
  parentId?: string;
  name: string;
  extensionType: string;
  isRoot: boolean;
  createTime: string;
  lastModifiedTime: string;
  /** The newest change anywhere below the folder. */
  lastModifiedTimeRollup: string;
  childIds: string[];
}

/** An item (a file's lineage). */
export interface DmItem {
  id: string;
  projectId: string;
  parentId: string;
  displayName: string;
  extensionType: string;
  /** Oldest first; the last one is the tip. */
  versionIds: string[];
}

/** One version of an item. */
export interface DmVersion {
  id: string;
  itemId: string;
  projectId: string;
  versionNumber: number;
  name: string;
  fileType: string;
  mimeType: string;
  storageSize: number;
  /** `urn:adsk.objects:os.object:wip.dm.prod/<uuid>.<ext>` */
  storageId: string;
  extensionType: string;
  createTime: string;
}

/** A job that converts a version to another format (`POST .../downloads`); its id is the download's too. */
export interface DmDownload {
  id: string;
  projectId: string;
  versionId: string;
  fileType: string;
  /** When it was created and how long it works, on the sandbox clock. */
  createdMs: number;
  durationMs: number;
  /** `urn:adsk.objects:os.object:wip.dm.prod/<uuid>.<fileType>`: the converted file. */
  storageId: string;
}

/** Everything data management knows, by id. */
export interface DmWorld {
  hubs: Map<string, DmHub>;
  projects: Map<string, DmProject>;
  folders: Map<string, DmFolder>;
  items: Map<string, DmItem>;
  versions: Map<string, DmVersion>;
  /** Download jobs, by id (a world saved before they existed has none). */
  downloads?: Map<string, DmDownload>;
}

/** Bucket of the storage objects behind versions. */
export const DM_STORAGE_BUCKET = "wip.dm.prod";

/** Number of drawings in the seeded "Sheets" folder. */
export const SHEETS_COUNT = 450;

const MIME: Record<string, string> = {
  rvt: "application/vnd.autodesk.revit",
  dwg: "application/acad",
  ifc: "application/x-step",
  nwd: "application/vnd.autodesk.navisworks",
};

/** The MIME type of a file of extension `ext` (lower case, no dot). */
export function mimeTypeOf(ext: string): string {
  return MIME[ext] ?? "application/octet-stream";
}

/** A file (with its number of versions) or a folder of further nodes. */
type SeedNode = { file: string; versions: number } | { folder: string; children: SeedNode[] };

const file = (name: string, versions = 1): SeedNode => ({ file: name, versions });
const folder = (name: string, children: SeedNode[]): SeedNode => ({ folder: name, children });

const SHEETS = Array.from(
  { length: SHEETS_COUNT },
  (_, i) => file(`A-${String(i + 1).padStart(3, "0")}.dwg`),
);

const RIVERSIDE: SeedNode[] = [
  folder("Project Files", [
    folder("Architecture", [
      file("Riverside Tower.rvt", 3),
      file("Site Plan.dwg", 2),
      file("Riverside Tower.ifc", 1),
    ]),
    folder("Structure", [
      folder("Steel", [file("Frame.ifc", 2), file("Connections.dwg", 1)]),
      file("Foundations.dwg", 1),
    ]),
    folder("Sheets", SHEETS),
    file("Coordination.nwd", 2),
  ]),
  folder("Plans", [
    file("Ground Floor.dwg", 2),
    file("Roof.dwg", 1),
    folder("Archive", [file("Ground Floor (2023).dwg", 1)]),
  ]),
];

const HARBOR: SeedNode[] = [
  folder("Project Files", [file("Harbor Bridge.rvt", 2), file("Deck.ifc", 1)]),
  folder("Plans", []),
];

const PERSONAL: SeedNode[] = [
  folder("My Designs", [file("Bracket.dwg", 2), file("Pump Housing.ifc", 1)]),
];

function digest(label: string): Buffer {
  return createHash("sha1").update(`diazo-dm:${label}`).digest();
}

/** The name of the seeded BIM 360 account's hub. */
export const BIM360_HUB_NAME = "Diazo Legacy (BIM 360)";

/** A GUID (version-4 layout) derived from `label`. */
function guid(label: string): string {
  const h = digest(label).toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** 22 URL-safe characters derived from `label`, like the platform's folder and lineage ids. */
function token(label: string): string {
  return digest(label).subarray(0, 16).toString("base64url");
}

/** A deterministic clock: each call is 37 minutes after the previous one. */
function ticker(startMs: number): () => string {
  let t = startMs;
  return () => {
    t += 37 * 60_000;
    return new Date(t).toISOString();
  };
}

interface Flavour {
  folder: string;
  item: string;
  version: string;
}

const BIM360: Flavour = {
  folder: "folders:autodesk.bim360:Folder",
  item: "items:autodesk.bim360:File",
  version: "versions:autodesk.bim360:File",
};
const CORE: Flavour = {
  folder: "folders:autodesk.core:Folder",
  item: "items:autodesk.core:File",
  version: "versions:autodesk.core:File",
};

/** A new empty folder in `parent`, created at `time`, entered in the world and in its parent. */
export function addFolder(
  world: DmWorld,
  parent: DmFolder,
  f: { id: string; name: string; extensionType: string; time: string },
): DmFolder {
  const folder: DmFolder = {
    id: f.id,
    projectId: parent.projectId,
    parentId: parent.id,
    name: f.name,
    extensionType: f.extensionType,
    isRoot: false,
    createTime: f.time,
    lastModifiedTime: f.time,
    lastModifiedTimeRollup: f.time,
    childIds: [],
  };
  world.folders.set(folder.id, folder);
  parent.childIds.push(folder.id);
  return folder;
}

/** The extension of a file name, lower case without the dot ("" when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** The next version of `item`, entered in the world and made the item's tip. */
export function addVersion(
  world: DmWorld,
  item: DmItem,
  v: { name: string; size: number; storageId: string; extensionType: string; time: string },
): DmVersion {
  const n = item.versionIds.length + 1;
  const ext = extensionOf(v.name);
  const version: DmVersion = {
    id: `urn:adsk.wipprod:fs.file:vf.${item.id.slice(item.id.lastIndexOf(":") + 1)}?version=${n}`,
    itemId: item.id,
    projectId: item.projectId,
    versionNumber: n,
    name: v.name,
    fileType: ext,
    mimeType: mimeTypeOf(ext),
    storageSize: v.size,
    storageId: v.storageId,
    extensionType: v.extensionType,
    createTime: v.time,
  };
  world.versions.set(version.id, version);
  item.versionIds.push(version.id);
  return version;
}

function addTree(
  world: DmWorld,
  project: DmProject,
  parent: DmFolder,
  nodes: readonly SeedNode[],
  flavour: Flavour,
  tick: () => string,
): string {
  let newest = parent.lastModifiedTime;
  for (const node of nodes) {
    const label = `${parent.id}/${"file" in node ? node.file : node.folder}`;
    if ("folder" in node) {
      const f = addFolder(world, parent, {
        id: `urn:adsk.wipprod:fs.folder:co.${token(label)}`,
        name: node.folder,
        extensionType: flavour.folder,
        time: tick(),
      });
      f.lastModifiedTimeRollup = addTree(world, project, f, node.children, flavour, tick);
      if (f.lastModifiedTimeRollup > newest) newest = f.lastModifiedTimeRollup;
      continue;
    }
    const ext = extensionOf(node.file);
    const item: DmItem = {
      id: `urn:adsk.wipprod:dm.lineage:${token(label)}`,
      projectId: project.id,
      parentId: parent.id,
      displayName: node.file,
      extensionType: flavour.item,
      versionIds: [],
    };
    for (let n = 1; n <= node.versions; n++) {
      const v = addVersion(world, item, {
        name: node.file,
        size: 20_000 + digest(`${label}#${n}`).readUInt32BE(0) % 40_000_000,
        storageId: `urn:adsk.objects:os.object:${DM_STORAGE_BUCKET}/${guid(`${label}#${n}`)}.${ext}`,
        extensionType: flavour.version,
        time: tick(),
      });
      if (v.createTime > newest) newest = v.createTime;
    }
    world.items.set(item.id, item);
    parent.childIds.push(item.id);
  }
  return newest;
}

function addProject(
  world: DmWorld,
  hub: DmHub,
  p: Pick<DmProject, "id" | "name" | "extensionType" | "projectType" | "checklistsContainerId">,
  tree: readonly SeedNode[],
  flavour: Flavour,
  tick: () => string,
): void {
  const created = tick();
  const root: DmFolder = {
    id: `urn:adsk.wipprod:fs.folder:co.${token(`${p.id}/root`)}`,
    projectId: p.id,
    name: p.id.replace(/^b\./, ""),
    extensionType: flavour.folder,
    isRoot: true,
    createTime: created,
    lastModifiedTime: created,
    lastModifiedTimeRollup: created,
    childIds: [],
  };
  const project: DmProject = { ...p, hubId: hub.id, rootFolderId: root.id, topFolderIds: [] };
  world.folders.set(root.id, root);
  root.lastModifiedTimeRollup = addTree(world, project, root, tree, flavour, tick);
  project.topFolderIds = [...root.childIds];
  world.projects.set(project.id, project);
  hub.projectIds.push(project.id);
}

/** A world with no hubs, projects, folders, items or versions. */
export function emptyDmWorld(): DmWorld {
  return {
    hubs: new Map(),
    projects: new Map(),
    folders: new Map(),
    items: new Map(),
    versions: new Map(),
    downloads: new Map(),
  };
}

/** Builds the seeded world. */
export function seedWorld(): DmWorld {
  const world = emptyDmWorld();
  const tick = ticker(Date.UTC(2024, 2, 4, 9, 0, 0));
  const account: DmHub = {
    id: `b.${guid("hub/acc")}`,
    name: "Diazo Sandbox Account",
    region: "US",
    extensionType: "hubs:autodesk.bim360:Account",
    personal: false,
    projectIds: [],
  };
  const personal: DmHub = {
    id: `a.${btoa(`business:${SANDBOX_USER.username}`).replace(/=+$/, "")}`,
    name: `${SANDBOX_USER.firstName} ${SANDBOX_USER.lastName}'s personal hub`,
    region: "US",
    extensionType: "hubs:autodesk.a360:PersonalHub",
    personal: true,
    projectIds: [],
  };
  // A BIM 360 account is a hub of the same extension type as an ACC one; its projects live in the
  // admin store only (sandbox/admin/store.ts); the hub lists them from there (sandbox/dm/routes.ts).
  const legacy: DmHub = {
    id: `b.${guid("hub/bim360")}`,
    name: BIM360_HUB_NAME,
    region: "US",
    extensionType: "hubs:autodesk.bim360:Account",
    personal: false,
    projectIds: [],
  };
  world.hubs.set(account.id, account);
  world.hubs.set(legacy.id, legacy);
  world.hubs.set(personal.id, personal);
  const bim = "projects:autodesk.bim360:Project";
  addProject(
    world,
    account,
    {
      id: `b.${guid("project/riverside")}`,
      name: "Riverside Tower",
      extensionType: bim,
      projectType: "ACC",
    },
    RIVERSIDE,
    BIM360,
    tick,
  );
  addProject(
    world,
    account,
    {
      id: `b.${guid("project/harbor")}`,
      name: "Harbor Bridge",
      extensionType: bim,
      projectType: "BIM360",
      checklistsContainerId: guid("container/harbor/checklists"),
    },
    HARBOR,
    BIM360,
    tick,
  );
  addProject(
    world,
    personal,
    {
      id: `a.${btoa(`project:${SANDBOX_USER.username}#default`).replace(/=+$/, "")}`,
      name: "Default Project",
      extensionType: "projects:autodesk.core:Project",
    },
    PERSONAL,
    CORE,
    tick,
  );
  return world;
}

let seeded: DmWorld | undefined;

/**
 * The seeded world, built once per process. Nobody changes it: a sandbox that writes works on a
 * copy of its own (store.ts), so the seed serves every sandbox and every reset.
 */
export function dmWorld(): DmWorld {
  return seeded ??= seedWorld();
}
