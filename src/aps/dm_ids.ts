/**
 * Identifiers of data management: hubs and projects (`b.<guid>` for ACC/BIM 360,
 * `a.<token>` for personal and team hubs), folder, item and version URNs. The construction-cloud
 * admin APIs name the same account or project by its bare GUID; these functions turn either form
 * into the data management one and reject anything else before a request is sent.
 */
import type { NextStep } from "../core/errors.ts";
import { fieldError } from "../core/field_error.ts";
import type { AccAccountId, AccProjectId, DmProjectId, FolderId, HubId, ItemId, VersionId } from "./ids.ts";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `a.` ids are base64 of the team/personal space, standard or URL-safe. */
const A_ID = /^a\.[A-Za-z0-9+/_-]+={0,2}$/;
const WIP = "urn:adsk\\.wip[a-z]+";
const FOLDER = new RegExp(`^${WIP}:(?:fs|dm)\\.folder:[A-Za-z0-9._~-]+$`);
const ITEM = new RegExp(`^${WIP}:dm\\.lineage:[A-Za-z0-9._~-]+$`);
const VERSION = new RegExp(`^${WIP}:fs\\.file:vf\\.[A-Za-z0-9._~-]+\\?version=[1-9][0-9]*$`);

/** What each kind of id looks like, for hints. */
export const DM_ID_EXAMPLES = {
  hub: "b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 (ACC/BIM 360 account) or a.YnVzaW5lc3M6ZGlhem8 (personal hub)",
  project: "b.1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081 (an ACC/BIM 360 project GUID gets the b. prefix)",
  folder: "urn:adsk.wipprod:fs.folder:co.mgS-lb-BThaTdHnhiN_mbA",
  item: "urn:adsk.wipprod:dm.lineage:AeYgDtcTSuqYoyMweWFhhQ",
  version: "urn:adsk.wipprod:fs.file:vf.AeYgDtcTSuqYoyMweWFhhQ?version=2",
} as const;

/** The kinds of data management ids. */
export type DmIdKind = keyof typeof DM_ID_EXAMPLES;

/** Where each kind of id is listed. */
const LISTED: Record<DmIdKind, NextStep> = {
  hub: { command: "diazo hub list", tool: "hub_list" },
  project: { command: "diazo project list <hub>", tool: "project_list" },
  folder: { command: "diazo folder list <project> --hub <hub>", tool: "folder_list" },
  item: { command: "diazo folder list <project> <folder>", tool: "folder_list" },
  version: { command: "diazo item versions <project> <item>", tool: "item_versions" },
};

function invalid(kind: DmIdKind, id: string, field: string): never {
  const shown = id.length > 80 ? `${id.slice(0, 77)}...` : id;
  throw fieldError({
    field,
    problem: `invalid ${kind} id '${shown}'`,
    help: `${kind === "item" ? "An" : "A"} ${kind} id looks like ${
      DM_ID_EXAMPLES[kind]
    }; list them with {step}.`,
    next: LISTED[kind],
  });
}

/** Whether `text` is a GUID (the construction cloud's ids). */
export function isGuid(text: string): boolean {
  return GUID.test(text);
}

/** Hub or project id in data management form: a bare GUID gets `b.`, `b.<guid>` and `a.<id>` pass. */
function prefixed(kind: "hub" | "project", id: string, field: string): string {
  const text = id.trim();
  if (GUID.test(text)) return `b.${text}`;
  if (text.startsWith("b.") && GUID.test(text.slice(2))) return text;
  if (A_ID.test(text)) return text;
  return invalid(kind, id, field);
}

/** A hub id as data management wants it: an account GUID becomes `b.<guid>`; a usage error if malformed. */
export function dmHubId(id: string, field = "hub_id"): HubId {
  return prefixed("hub", id, field) as HubId;
}

/** A project id as data management wants it: a bare GUID becomes `b.<guid>`; a usage error if malformed. */
export function dmProjectId(id: string, field = "project_id"): DmProjectId {
  return prefixed("project", id, field) as DmProjectId;
}

/** A project's GUID in an ACC browser address, e.g. https://acc.autodesk.com/docs/files/projects/<guid>?folderUrn=... */
const ACC_URL = /^https?:\/\/[^/]*autodesk\.com\/.*?\/projects\/(b\.)?([0-9a-f-]{36})(?:[/?#]|$)/i;

/**
 * The bare GUID the construction-cloud APIs use for a hub or project: a GUID, `b.<guid>`, or (for a
 * project) the address of the project in the ACC web app; a usage error otherwise.
 */
export function accId(id: string, field = "project_id"): AccProjectId & AccAccountId {
  const text = id.trim();
  const fromUrl = ACC_URL.exec(text)?.[2];
  const guid = fromUrl ?? (text.startsWith("b.") ? text.slice(2) : text);
  if (GUID.test(guid)) return guid as AccProjectId & AccAccountId;
  const shown = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  throw fieldError({
    field,
    problem: `'${shown}' is not an ACC/BIM 360 id`,
    help: "Construction-cloud ids are GUIDs (data management adds b.), as {step} shows them; " +
      "the project's address in ACC (https://acc.autodesk.com/.../projects/<guid>) is accepted too.",
    next: LISTED.project,
  });
}

/** A folder URN, checked; a usage error if malformed. */
export function dmFolderId(id: string, field = "folder_id"): FolderId {
  const text = id.trim();
  return FOLDER.test(text) ? text as FolderId : invalid("folder", id, field);
}

/** An item (lineage) URN, checked; a usage error if malformed. */
export function dmItemId(id: string, field = "item_id"): ItemId {
  const text = id.trim();
  return ITEM.test(text) ? text as ItemId : invalid("item", id, field);
}

/** A version URN, checked; a URL-encoded `%3Fversion%3D2` is decoded first. A usage error if malformed. */
export function dmVersionId(id: string, field = "version_id"): VersionId {
  const text = id.trim().replace(/%3F/gi, "?").replace(/%3D/gi, "=");
  return VERSION.test(text) ? text as VersionId : invalid("version", id, field);
}

/** True when a hub or project id is a personal or team (`a.`) one, which only a user's login sees. */
export function isPersonalId(id: string): boolean {
  return id.trim().startsWith("a.");
}
