/**
 * Tools over data management: hubs, projects, folders, item versions and a version's download formats
 * (families/dm/api.ts, as `diazo hub ...`).
 */
import { z } from "zod";
import { dmFolderId, dmHubId, dmItemId, dmProjectId, dmVersionId } from "../../aps/dm_ids.ts";
import { DiazoError, isDiazoError } from "../../core/errors.ts";
import { fieldError } from "../../core/field_error.ts";
import {
  type DmPage,
  type DmResource,
  runFolderList,
  runHubList,
  runItemVersions,
  runProjectList,
} from "./verbs.ts";
import { authInput, USER_LOGIN_HOW } from "../../mcp/login.ts";
import { listAnswer } from "../../mcp/result.ts";
import { type DerivedArgs, deriveTool } from "../../mcp/derive.ts";
import { type AnyTool, defineTool, listOutput, READ } from "../../mcp/tool.ts";
import { FOLDER, HUB, PROJECT } from "./commands.ts";
import { ITEM } from "./write_commands.ts";
import { HUB_ID_TEXT, PROJECT_ID_TEXT } from "./shared.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

/** How the ids of data management look, said once in the server's instructions. */
export const IDS =
  "Hub ids look like b.<guid> (ACC/BIM 360 account) or a.<id> (personal hub). Data management project ids carry " +
  "the b. prefix (b.<guid>), while construction-cloud (ACC admin, issues) APIs use the bare GUID; a bare GUID is " +
  "accepted here and gets the b. prefix.";
const LOGIN =
  'Needs data:read; personal (a.) hubs need your user login (auth "user" or "auto"), the app sees only hubs it is ' +
  "provisioned for.";

/** The `hub_id` argument of tools not derived from a command (mcp/derive.ts). */
export const hubIdInput = z.string().min(1).describe(HUB_ID_TEXT);
/** The `project_id` argument of tools not derived from a command. */
export const projectIdInput = z.string().min(1).describe(PROJECT_ID_TEXT);

/** A data management resource as the tools answer it. */
export const resource = z.object({
  type: z.string().describe("hubs, projects, folders, items or versions."),
  id: z.string(),
  name: z.string().optional().describe("attributes.displayName or attributes.name."),
  attributes: z.record(z.string(), z.unknown()).describe("Plain values; fields adds others."),
  related: z.record(z.string(), z.string()).optional().describe(
    "Related ids: parent, tip, storage (a version's objectId), derivatives (its URN).",
  ),
});

/**
 * A resource for a model: its name, the ids it points to, and its plain attributes (no schema links,
 * extension data or nulls) unless `fields` names more ("*": every attribute).
 */
export function compact(r: DmResource, fields: readonly string[] = []): z.input<typeof resource> {
  const related: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.relationships ?? {})) {
    const data = (v as { data?: { id?: unknown } } | undefined)?.data;
    if (data && typeof data.id === "string") related[k] = data.id;
  }
  const name = r.attributes.displayName ?? r.attributes.name;
  return {
    type: r.type,
    id: r.id,
    ...(typeof name === "string" ? { name } : {}),
    attributes: plainAttributes(r.attributes, fields),
    ...(Object.keys(related).length ? { related } : {}),
  };
}

function plainAttributes(
  attributes: Record<string, unknown>,
  fields: readonly string[],
): Record<string, unknown> {
  if (fields.includes("*")) return attributes;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attributes)) {
    if (fields.includes(k) || (v !== null && typeof v !== "object")) out[k] = v;
  }
  return out;
}

/** What a list tool is given besides its ids: the login, how many, and where to go on. */
interface ListArgs {
  auth: "auto" | "app" | "user";
  limit: number;
  cursor?: string;
}

/** The options of a list verb for a tool call: one page, the login by `auth`, a remedy in tool terms. */
function pageOf(args: DerivedArgs, hint: string) {
  return { as: args.auth, usable: true, limit: args.limit, cursor: args.cursor, hint };
}

/** One page as a list answer, with a personal hub's refusal told in the tools' terms. */
async function dmAnswer(fetch: Promise<DmPage>) {
  try {
    const page = await fetch;
    // `fields` names attributes: the kernel adds them under `attributes` (mcp/fields.ts).
    const sources = page.items.map((r) => r.attributes);
    return listAnswer(page, page.items.map((r) => compact(r)), undefined, { sources, under: "attributes" });
  } catch (e) {
    if (isDiazoError(e) && e.code === "three_legged_required" && e.status === 403) {
      // A personal hub refused the app (the platform's 403; a missing login has no status): the
      // verb's remedy is a command, a tool's caller needs the argument that picks the login.
      throw new DiazoError("failure", {
        status: e.status,
        body: e.body,
        cause: e,
        params: {
          detail: "This hub is reachable only with a user's login",
          hint: `Call with auth "user". ${USER_LOGIN_HOW}`,
        },
      });
    }
    throw e;
  }
}

/** How every data management list tool is derived: entries, with `fields`, `auth` with its "auto". */
const DERIVE = { list: "entries", types: { auth: authInput } };
/** What every data management tool shares: a list of resources, read-only, either login. */
const DM_LIST = {
  output: listOutput(resource),
  annotations: READ,
  login: "either",
} as const;

const hubList = deriveTool(HUB, {
  name: "hub_list",
  scopes: toolScopes("hub_list"),
  title: "List hubs",
  description: `Lists the hubs (ACC/BIM 360 accounts, personal hubs) the login can see. ${LOGIN}`,
  derive: DERIVE,
  ...DM_LIST,
  run: (args, ctx) =>
    dmAnswer(
      runHubList(pageOf(args, "Check the login: auth_status tells which login is used."), ctx),
    ),
});

const projectList = deriveTool(PROJECT, {
  name: "project_list",
  scopes: toolScopes("project_list"),
  title: "List projects of a hub",
  description: `Lists the projects of a hub. ${LOGIN}`,
  derive: DERIVE,
  ...DM_LIST,
  run: (args, ctx) =>
    dmAnswer(
      runProjectList({
        ...pageOf(args, 'Check the hub id with hub_list; personal (a.) hubs need auth "user".'),
        hub: dmHubId(args.hub_id),
      }, ctx),
    ),
});

const folderList = deriveTool(FOLDER, {
  name: "folder_list",
  scopes: toolScopes("folder_list"),
  title: "List folders and files",
  description:
    "Lists a project's top folders (give hub_id and no folder_id), or the contents of one folder (give folder_id): " +
    "sub-folders and items (files, with their tip version in related.tip). Folder ids look like " +
    `urn:adsk.wipprod:fs.folder:co.<id>, item ids like urn:adsk.wipprod:dm.lineage:<id>. ${LOGIN}`,
  derive: DERIVE,
  ...DM_LIST,
  run(args, ctx) {
    const project = dmProjectId(args.project_id);
    if (args.folder_id === undefined) {
      if (args.hub_id === undefined) {
        throw fieldError({
          field: "hub_id",
          problem: "{hub_id} is needed to list a project's top folders",
          help: "Pass {hub_id} (from {step}), or {folder_id} to list one folder's contents.",
          next: { command: "diazo hub list", tool: "hub_list" },
        });
      }
      return dmAnswer(
        runFolderList({
          ...pageOf(args, "Check both ids with hub_list and project_list (project ids carry b.)."),
          hub: dmHubId(args.hub_id),
          project,
        }, ctx),
      );
    }
    return dmAnswer(
      runFolderList({
        ...pageOf(args, "Check both ids: folder_list without folder_id lists the top folders."),
        project,
        folder: dmFolderId(args.folder_id),
        type: args.type,
      }, ctx),
    );
  },
});

const itemVersions = deriveTool(ITEM, {
  name: "item_versions",
  scopes: toolScopes("item_versions"),
  title: "List an item's versions",
  description:
    "Lists the versions of an item (a file), newest first, with version number, size, dates, and in related: " +
    "storage (the objectId of the version's bytes) and derivatives (the URN for translate_status, translate_manifest " +
    `and translate_properties). Item ids look like urn:adsk.wipprod:dm.lineage:<id> (from folder_list). ${LOGIN}`,
  derive: DERIVE,
  ...DM_LIST,
  run: (args, ctx) =>
    dmAnswer(
      runItemVersions({
        ...pageOf(args, "Check both ids with folder_list and project_list."),
        project: dmProjectId(args.project_id),
        item: dmItemId(args.item_id),
      }, ctx),
    ),
});

const itemFormats = defineTool({
  name: "item_formats",
  scopes: toolScopes("item_formats"),
  title: "List a version's download formats",
  description:
    "Lists the other file formats (e.g. pdf, dwg, ifc) the platform can convert an item's tip version, or one " +
    "version, to for download (`diazo item download <project> <item> --format <type>` downloads one). " +
    `Give item_id or version_id. ${LOGIN}`,
  input: {
    project_id: projectIdInput,
    item_id: z.string().min(1).optional().describe("Item id (its tip version is asked about)."),
    version_id: z.string().min(1).optional().describe("Version id (from item_versions), instead of item_id."),
    auth: authInput,
  },
  output: {
    version: z.string().describe("The version the formats are of."),
    name: z.string().describe("The version's file name."),
    formats: z.array(z.string()).describe("File types, e.g. pdf."),
  },
  annotations: READ,
  login: "either",
  async run(args, ctx) {
    const project = dmProjectId(args.project_id); // first: a malformed project is named before the one-of rule
    if ((args.item_id === undefined) === (args.version_id === undefined)) {
      throw fieldError({ field: "item_id", problem: "give {item_id} or {version_id} (one of them)" });
    }
    const target = args.item_id !== undefined
      ? { item: dmItemId(args.item_id) }
      : { version: dmVersionId(args.version_id!) };
    // The verb loads with the tool's first call: it reaches the download machinery.
    const { runItemFormats } = await import("./formats.ts");
    const rows = await runItemFormats({
      as: args.auth,
      usable: true,
      project,
      target,
    }, ctx);
    const version = rows[0]?.version ?? args.version_id ?? "";
    return { version, name: rows[0]?.name ?? "", formats: rows.map((r) => r.format) };
  },
});

/** The data management area's tools. */
export const DM_TOOLS: readonly AnyTool[] = [hubList, projectList, folderList, itemVersions, itemFormats];
