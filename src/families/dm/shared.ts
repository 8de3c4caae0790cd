/**
 * What the data management commands share: the `--as` and `--limit` options, the example ids of
 * their help, and the flat helpers (name, size, version number) added beside the platform's fields.
 */
import type { DmResource } from "./verbs.ts";
import { dmFolderId, dmProjectId } from "../../aps/dm_ids.ts";
import { positiveNumber } from "../../command/command.ts";
import type { ArgumentDecl, OptionDecl } from "../../command/decl.ts";

const WHO = ["user", "app"] as const;

/** Example ids of the help texts. */
export const HUB_ID = "b.dc6589d2-9ad1-4301-a2e8-6a1ff3b25cec";
/** An example project id. */
export const PROJECT_ID = "b.91f8bd44-058f-480c-adbb-861df5101b22";
/** An example folder id. */
export const FOLDER_ID = "urn:adsk.wipprod:fs.folder:co._4-IQg9mPjRVhoEz9rdqrA";
/** An example item id. */
export const ITEM_ID = "urn:adsk.wipprod:dm.lineage:w3t4bvtQzhwf41oMYi4F_A";

/** Whose login a command uses (`--as`). */
export type Who = (typeof WHO)[number];

/** What a tool's hub id says to a model (mcp/derive.ts). */
export const HUB_ID_TEXT = "Hub id, e.g. b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69 (from hub_list).";
/** What a tool's project id says to a model. */
export const PROJECT_ID_TEXT =
  "Project id, e.g. b.1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081 (from project_list; a bare GUID gets the b. prefix).";

/** `--as user|app`: whose login a command uses; its tools call it `auth` (with "auto", mcp/login.ts). */
export function asOption(): OptionDecl {
  return {
    flags: "--as <who>",
    description:
      "act as the logged-in user (3-legged) or the app (2-legged); default: the user when the profile has a 3-legged login, else the app",
    choices: WHO,
    toolName: "auth",
  };
}

/** `<project>` of the write commands: an id or a name. */
export const PROJECT_ARG: ArgumentDecl = {
  spec: "<project>",
  description: "project: b.<guid> or its name",
  parse: dmProjectId,
  complete: "project",
  names: "project",
};

/** `<project>` of `folder get`, `item get` and `item versions`: an id or a name. */
export const PROJECT_ID_OR_NAME: ArgumentDecl = {
  spec: "<project>",
  description: "project id or name",
  parse: dmProjectId,
  complete: "project",
  names: "project",
};

/** `<folder>` of the write commands. */
export const FOLDER_ARG: ArgumentDecl = {
  spec: "<folder>",
  description: "the folder (urn:adsk.wipprod:fs.folder:co....)",
  parse: dmFolderId,
};

/** `--name <name>` of a rename. */
export const NEW_NAME: OptionDecl = { flags: "--name <name>", description: "the new name", required: true };

/** The write verbs, loaded when a command runs (they reach node:path and node:crypto, which a declaration must not load). */
export const writes = () => import("./write.ts");

/** `--limit <n>`. */
export function limitOption(): OptionDecl {
  return {
    flags: "--limit <n>",
    description: "stop after n results",
    parse: positiveNumber("--limit", true),
  };
}

function attr(r: DmResource | undefined, path: string): unknown {
  let v: unknown = r?.attributes;
  for (const k of path.split(".")) {
    v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[k] : undefined;
  }
  return v;
}

/**
 * A resource with flat helpers beside the platform's fields (for tables and queries): its name,
 * last change and, for items (from their tip version) and versions, the version number and size.
 */
export function withHelpers(r: DmResource, tip?: DmResource): DmResource & Record<string, unknown> {
  const version = r.type === "versions" ? r : tip;
  const helpers: Record<string, unknown> = {
    name: attr(r, "displayName") ?? attr(r, "name"),
    // A folder's own time changes only when it is renamed; the rollup shows its newest content.
    lastModified: (r.type === "folders" ? attr(r, "lastModifiedTimeRollup") : undefined) ??
      attr(r, "lastModifiedTime"),
  };
  if (version) {
    helpers.versionNumber = attr(version, "versionNumber");
    helpers.size = attr(version, "storageSize");
  }
  if (r.type === "hubs") {
    helpers.region = attr(r, "region");
    helpers.hubType = String(attr(r, "extension.type") ?? "").split(":").pop();
  }
  if (r.type === "projects") helpers.projectType = attr(r, "extension.data.projectType") ?? "personal";
  return { ...r, ...helpers };
}
