/**
 * `folder_search`: the folders and files of a project whose name holds a text, found by walking the
 * project's folders (families/dm/verbs.ts, as `diazo folder list` reads them) from its top folders or one
 * folder, at most MAX_FOLDERS folders per call.
 */
import { z } from "zod";
import { dmFolderId, dmHubId, dmProjectId } from "../../aps/dm_ids.ts";
import { fieldError } from "../../core/field_error.ts";
import { pageFromStart } from "../../http/list.ts";
import { authInput } from "../../mcp/login.ts";
import { listAnswer } from "../../mcp/result.ts";
import {
  type AnyTool,
  cursorInput,
  defineTool,
  limitInput,
  listOutput,
  READ,
  type ToolContext,
} from "../../mcp/tool.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";
import { compact, hubIdInput, projectIdInput, resource } from "./tools.ts";
import { type DmResource, runFolderList } from "./verbs.ts";

/** The most folders one search reads. */
export const MAX_FOLDERS = 300;

interface SearchArgs {
  project_id: string;
  hub_id?: string;
  folder_id?: string;
  name: string;
  type?: "folders" | "items";
  auth: "auto" | "app" | "user";
}

type FolderId = ReturnType<typeof dmFolderId>;

/** A match and the folder path it was found under. */
type Found = { resource: DmResource; path: string };

/** Walks the folders breadth first until `upTo` matches are found; `walked` says how far it went. */
async function search(
  args: SearchArgs,
  upTo: number,
  ctx: ToolContext,
  walked: { folders: number; bounded: boolean },
) {
  const login = { as: args.auth, usable: true, hint: "Check the ids with project_list and folder_list." };
  const project = dmProjectId(args.project_id);
  const text = args.name.toLowerCase();
  const found: Found[] = [];
  const queue: { id: FolderId; path: string }[] = [];
  const consider = (r: DmResource, under: string) => {
    const name = String(r.attributes.displayName ?? r.attributes.name ?? "");
    const kind = r.type === "folders" ? "folders" : "items";
    if (name.toLowerCase().includes(text) && (!args.type || args.type === kind)) {
      found.push({ resource: r, path: under });
    }
    if (r.type === "folders") queue.push({ id: r.id as FolderId, path: `${under}/${name}` });
  };
  if (args.folder_id !== undefined) queue.push({ id: dmFolderId(args.folder_id), path: "" });
  else {
    if (args.hub_id === undefined) {
      throw fieldError({
        field: "hub_id",
        problem: "{hub_id} is needed to search from a project's top folders",
        help: "Pass {hub_id} (from {step}), or {folder_id} to search one folder and its sub-folders.",
        next: { command: "diazo hub list", tool: "hub_list" },
      });
    }
    const top = await runFolderList({ ...login, hub: dmHubId(args.hub_id), project }, ctx);
    for (const r of top.items) consider(r, "");
  }
  while (queue.length && found.length < upTo) {
    if (walked.folders >= MAX_FOLDERS) {
      walked.bounded = true;
      return found;
    }
    const folder = queue.shift()!;
    walked.folders++;
    const page = await runFolderList({ ...login, project, folder: folder.id }, ctx);
    for (const r of page.items) consider(r, folder.path);
  }
  return found;
}

const folderSearch = defineTool({
  name: "folder_search",
  scopes: toolScopes("folder_search"),
  title: "Search a project's folders and files by name",
  description:
    "Finds a project's folders and files whose name holds a text (any case), with their path: from its top " +
    `folders (hub_id) or under one folder (folder_id), at most ${MAX_FOLDERS} folders a call (else complete: false).`,
  input: {
    project_id: projectIdInput,
    name: z.string().min(1).describe("Text the name holds, e.g. level 1 or .rvt."),
    hub_id: hubIdInput.optional().describe("Hub id, to search from the project's top folders."),
    folder_id: z.string().min(1).optional().describe(
      "Folder id (from folder_list), to search only under it.",
    ),
    type: z.enum(["folders", "items"]).optional().describe("Only folders or only files."),
    auth: authInput,
    limit: limitInput("matches"),
    cursor: cursorInput,
  },
  output: {
    ...listOutput(
      resource.extend({ path: z.string().describe("The folders above it, e.g. /Project Files/Sheets.") }),
    ),
    folders_searched: z.number(),
    complete: z.boolean().describe("False when the search stopped at its folder bound: search a sub-folder."),
  },
  annotations: READ,
  login: "either",
  async run(args, ctx) {
    const walked = { folders: 0, bounded: false };
    const { limit, cursor, ...rest } = args;
    const page = await pageFromStart(
      (upTo) => search(rest, upTo, ctx, walked),
      { limit, cursor },
      `folder_search ${JSON.stringify(rest)}`,
    );
    const items = page.items.map((f) => ({ ...compact(f.resource), path: f.path || "/" }));
    const sources = page.items.map((f) => f.resource.attributes);
    const answer = listAnswer(page, items, undefined, { sources, under: "attributes" });
    return { ...answer, folders_searched: walked.folders, complete: !walked.bounded };
  },
});

/** The data management search tool. */
export const DM_SEARCH_TOOLS: readonly AnyTool[] = [folderSearch];
