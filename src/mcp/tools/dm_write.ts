/**
 * Tools that write to data management (ops/dm_write.ts, as `diazo folder create` and `diazo item
 * upload`): a folder in a folder, and a local file uploaded into a folder as a new item or as a
 * new version of the item of the same name.
 */
import { z } from "zod";
import { dmFolderId, dmProjectId } from "../../aps/dm_ids.ts";
import { runFolderCreate, runItemUpload } from "../../ops/dm_write.ts";
import { toolFile } from "../../ops/file_roots.ts";
import { authInput } from "../login.ts";
import { type AnyTool, defineTool } from "../tool.ts";
import { compact, IDS, projectIdInput, resource } from "./dm.ts";

const folderIdInput = z.string().min(1).describe(
  "Folder id, e.g. urn:adsk.wipprod:fs.folder:co.mgS-lb-BThaTdHnhiN_mbA (from folder_list).",
);
const CREATES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

const folderCreate = defineTool({
  name: "folder_create",
  title: "Create a folder",
  description:
    "Creates a folder named `name` inside a folder (a project's top folders, from folder_list, hold the others). " +
    `Names have 1-255 characters and none of < > : " / \\ | ? * ' $. A second folder of the same name is a conflict. ${IDS}`,
  input: {
    project_id: projectIdInput,
    parent_folder_id: folderIdInput,
    name: z.string().min(1).max(255).describe("The new folder's name."),
    auth: authInput,
  },
  output: { folder: resource },
  annotations: CREATES,
  scopes: ["data:create"],
  login: "either",
  async run(args, ctx) {
    const folder = await runFolderCreate({
      as: args.auth,
      usable: true,
      project: dmProjectId(args.project_id),
      parent: dmFolderId(args.parent_folder_id),
      name: args.name,
    }, ctx);
    return { folder: compact(folder) };
  },
});

const itemUpload = defineTool({
  name: "item_upload",
  title: "Upload a file into a folder",
  description:
    "Uploads a local file into a data management folder: a new item, or a new version of the item of the same " +
    "name. The file must be inside the directories the server allows (its working directory unless started with " +
    `--allow-dir). Answers the item and the version made (related.storage is its objectId). ${IDS}`,
  input: {
    project_id: projectIdInput,
    folder_id: folderIdInput,
    file: z.string().min(1).describe("Path of the local file, e.g. /home/me/models/tower.rvt."),
    name: z.string().min(1).max(255).optional().describe("The item's name; default the file's name."),
    auth: authInput,
  },
  output: {
    item: resource,
    version: resource,
    newVersion: z.boolean().describe("True when the folder already held an item of that name."),
  },
  annotations: CREATES,
  scopes: ["data:create"],
  login: "either",
  async run(args, ctx) {
    const project = dmProjectId(args.project_id);
    const folder = dmFolderId(args.folder_id);
    // Only files inside the allowed roots, never diazo's own config or state (symlinks resolved first).
    const file = await toolFile(args.file, ctx.cwd, ctx.fileRoots);
    const filed = await runItemUpload({
      as: args.auth,
      usable: true,
      project,
      folder,
      file,
      name: args.name,
    }, ctx);
    return { item: compact(filed.item), version: compact(filed.version), newVersion: filed.newVersion };
  },
});

/** The data management writing tools. */
export const DM_WRITE_TOOLS: readonly AnyTool[] = [folderCreate, itemUpload];
