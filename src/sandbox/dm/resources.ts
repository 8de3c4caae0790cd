/**
 * The seeded world as JSON:API resource objects in the platform's shapes (datamanagement.yaml:
 * HubData, ProjectData, FolderData, ItemData, VersionData), with absolute links on the address the
 * client used.
 */
import { encodeUrn } from "../../aps/urn.ts";
import { SANDBOX_USER } from "../auth/users.ts";
import type { Resource } from "./jsonapi.ts";
import {
  DM_STORAGE_BUCKET,
  type DmFolder,
  type DmHub,
  type DmItem,
  type DmProject,
  type DmVersion,
  type DmWorld,
} from "./world.ts";

const USER_NAME = `${SANDBOX_USER.firstName} ${SANDBOX_USER.lastName}`;
const SCHEMA = "https://developer.api.autodesk.com/schema/v1/versions";

function extension(type: string, data: Record<string, unknown> = {}) {
  return { type, version: "1.0", schema: { href: `${SCHEMA}/${encodeURIComponent(`${type}-1.0`)}` }, data };
}

function stamps(created: string, modified: string) {
  return {
    createTime: created,
    createUserId: SANDBOX_USER.userid,
    createUserName: USER_NAME,
    lastModifiedTime: modified,
    lastModifiedUserId: SANDBOX_USER.userid,
    lastModifiedUserName: USER_NAME,
  };
}

const enc = encodeURIComponent;
const related = (href: string) => ({ links: { related: { href } } });
const ref = (type: string, id: string, href: string) => ({
  data: { type, id },
  links: { related: { href } },
});

/** Links of the platform's web front end, for `links.webView`. */
function webView(project: DmProject, path = ""): string {
  if (project.projectType === "ACC") {
    return `https://acc.autodesk.com/docs/files/projects/${project.id.slice(2)}${path}`;
  }
  if (project.projectType === "BIM360") {
    return `https://docs.b360.autodesk.com/projects/${project.id.slice(2)}${path}`;
  }
  return `https://diazo-sandbox.autodesk360.com/g/projects/${enc(project.id)}${path}`;
}

/** A hub resource. */
export function hubResource(hub: DmHub, base: string): Resource {
  const self = `${base}/project/v1/hubs/${enc(hub.id)}`;
  return {
    type: "hubs",
    id: hub.id,
    attributes: { name: hub.name, extension: extension(hub.extensionType), region: hub.region },
    relationships: {
      projects: related(`${self}/projects`),
      ...(hub.personal
        ? { pimCollection: { data: { type: "collection", id: `co.${hub.id.slice(2, 22)}` } } }
        : {}),
    },
    links: { self: { href: self } },
  };
}

/** A project resource. */
export function projectResource(project: DmProject, base: string): Resource {
  const hubHref = `${base}/project/v1/hubs/${enc(project.hubId)}`;
  const self = `${hubHref}/projects/${enc(project.id)}`;
  const data = project.projectType ? { projectType: project.projectType } : {};
  const container = (type: string, path: string, id = project.id.slice(2)) => ({
    data: { type, id },
    meta: { link: { href: `${base}${path.replace("{id}", id)}` } },
  });
  return {
    type: "projects",
    id: project.id,
    attributes: { name: project.name, scopes: ["global"], extension: extension(project.extensionType, data) },
    relationships: {
      hub: ref("hubs", project.hubId, hubHref),
      rootFolder: {
        data: { type: "folders", id: project.rootFolderId },
        meta: {
          link: { href: `${base}/data/v1/projects/${enc(project.id)}/folders/${enc(project.rootFolderId)}` },
        },
      },
      topFolders: related(`${self}/topFolders`),
      ...(project.projectType
        ? {
          issues: container("issueContainerId", "/construction/issues/v1/projects/{id}/issues"),
          submittals: container("submittalContainerId", "/construction/submittals/v2/projects/{id}/items"),
          rfis: container("rfisContainerId", "/bim360/rfis/v2/containers/{id}/rfis"),
          markups: container("markupsContainerId", "/issues/v1/containers/{id}/markups"),
          checklists: container(
            "checklistsContainerId",
            "/bim360/checklists/v1/containers/{id}/instances",
            project.checklistsContainerId,
          ),
          cost: container("costContainerId", "/cost/v1/containers/{id}/budgets"),
          locations: container(
            "locationsContainerId",
            "/bim360/locations/v2/containers/{id}/trees/default/nodes",
          ),
        }
        : {}),
    },
    links: { self: { href: self }, webView: { href: webView(project) } },
  };
}

function dataHref(base: string, projectId: string, kind: string, id: string): string {
  return `${base}/data/v1/projects/${enc(projectId)}/${kind}/${enc(id)}`;
}

function folderData(folder: DmFolder): Record<string, unknown> {
  const allowed = folder.extensionType.includes("bim360")
    ? ["folders", "items:autodesk.bim360:File", "items:autodesk.bim360:Document"]
    : ["folders", "items:autodesk.core:File"];
  return {
    allowedTypes: allowed,
    visibleTypes: allowed,
    namingStandardIds: [],
    isRoot: folder.isRoot,
    folderType: "normal",
  };
}

/** A folder resource. */
export function folderResource(world: DmWorld, folder: DmFolder, base: string): Resource {
  const project = world.projects.get(folder.projectId)!;
  const self = dataHref(base, folder.projectId, "folders", folder.id);
  return {
    type: "folders",
    id: folder.id,
    attributes: {
      name: folder.name,
      displayName: folder.name,
      ...stamps(folder.createTime, folder.lastModifiedTime),
      lastModifiedTimeRollup: folder.lastModifiedTimeRollup,
      objectCount: folder.childIds.length,
      hidden: false,
      extension: extension(folder.extensionType, folderData(folder)),
    },
    relationships: {
      ...(folder.parentId
        ? {
          parent: ref(
            "folders",
            folder.parentId,
            dataHref(base, folder.projectId, "folders", folder.parentId),
          ),
        }
        : {}),
      refs: { links: { self: { href: `${self}/relationships/refs` }, related: { href: `${self}/refs` } } },
      links: { links: { self: { href: `${self}/relationships/links` } } },
      contents: related(`${self}/contents`),
    },
    links: { self: { href: self }, webView: { href: webView(project, `?folderUrn=${enc(folder.id)}`) } },
  };
}

/** An item resource; its times are those of its first and tip versions. */
export function itemResource(world: DmWorld, item: DmItem, base: string): Resource {
  const project = world.projects.get(item.projectId)!;
  const first = world.versions.get(item.versionIds[0])!;
  const tip = world.versions.get(item.versionIds.at(-1)!)!;
  const self = dataHref(base, item.projectId, "items", item.id);
  return {
    type: "items",
    id: item.id,
    attributes: {
      displayName: item.displayName,
      ...stamps(first.createTime, tip.createTime),
      lastModifiedTimeRollup: tip.createTime,
      hidden: false,
      reserved: false,
      extension: extension(item.extensionType),
    },
    relationships: {
      tip: ref("versions", tip.id, `${self}/tip`),
      versions: related(`${self}/versions`),
      parent: ref("folders", item.parentId, `${self}/parent`),
      refs: { links: { self: { href: `${self}/relationships/refs` }, related: { href: `${self}/refs` } } },
      links: { links: { self: { href: `${self}/relationships/links` } } },
    },
    links: {
      self: { href: self },
      webView: { href: webView(project, `?folderUrn=${enc(item.parentId)}&entityId=${enc(item.id)}`) },
    },
  };
}

/** A version resource, with its storage object and derivative URN. */
export function versionResource(world: DmWorld, version: DmVersion, base: string): Resource {
  const project = world.projects.get(version.projectId)!;
  const self = dataHref(base, version.projectId, "versions", version.id);
  const objectKey = version.storageId.slice(version.storageId.indexOf("/") + 1);
  const derivative = encodeUrn(version.id);
  return {
    type: "versions",
    id: version.id,
    attributes: {
      name: version.name,
      displayName: version.name,
      ...stamps(version.createTime, version.createTime),
      versionNumber: version.versionNumber,
      mimeType: version.mimeType,
      fileType: version.fileType,
      storageSize: version.storageSize,
      extension: extension(version.extensionType, {
        processState: "PROCESSING_COMPLETE",
        extractionState: "SUCCESS",
        splittingState: "NOT_SPLIT",
        reviewState: "NOT_IN_REVIEW",
        revisionDisplayLabel: String(version.versionNumber),
        sourceFileName: version.name,
        storageType: "OSS",
        conformingStatus: "NONE",
      }),
    },
    relationships: {
      item: ref("items", version.itemId, dataHref(base, version.projectId, "items", version.itemId)),
      refs: { links: { self: { href: `${self}/relationships/refs` }, related: { href: `${self}/refs` } } },
      links: { links: { self: { href: `${self}/relationships/links` } } },
      storage: {
        data: { type: "objects", id: version.storageId },
        meta: { link: { href: `${base}/oss/v2/buckets/${DM_STORAGE_BUCKET}/objects/${enc(objectKey)}` } },
      },
      derivatives: {
        data: { type: "derivatives", id: derivative },
        meta: { link: { href: `${base}/modelderivative/v2/designdata/${derivative}/manifest` } },
      },
      downloadFormats: related(`${self}/downloadFormats`),
    },
    links: {
      self: { href: self },
      webView: { href: webView(project, `?entityId=${enc(version.id)}`) },
    },
  };
}

/** A folder's child (folder or item) as a resource. */
export function childResource(world: DmWorld, id: string, base: string): Resource {
  const folder = world.folders.get(id);
  return folder ? folderResource(world, folder, base) : itemResource(world, world.items.get(id)!, base);
}
