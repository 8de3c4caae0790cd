/**
 * Tools that write to data management (families/dm/write.ts, as `diazo folder create` and `diazo item
 * upload`): a folder in a folder, and a local file uploaded into a folder as a new item or as a
 * new version of the item of the same name.
 */
import path from "node:path";
import { z } from "zod";
import { dmFolderId, dmItemId, dmProjectId, dmVersionId } from "../../aps/dm_ids.ts";
import { fieldError } from "../../core/field_error.ts";
import { runFolderCreate, runItemDownload, runItemUpload } from "./write.ts";
import { toolFile } from "../../session/file_roots.ts";
import { authInput } from "../../mcp/login.ts";
import { toolProgress } from "../../mcp/progress.ts";
import { type AnyTool, defineTool } from "../../mcp/tool.ts";
import { compact, projectIdInput, resource } from "./tools.ts";
import { toolScopes } from "../../mcp/tool_scopes.ts";

const folderIdInput = z.string().min(1).describe(
  "Folder id, e.g. urn:adsk.wipprod:fs.folder:co.mgS-lb-BThaTdHnhiN_mbA (from folder_list).",
);
const CREATES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

const folderCreate = defineTool({
  name: "folder_create",
  title: "Create a folder",
  description:
    "Creates a folder named `name` inside a folder (a project's top folders, from folder_list, hold the others). " +
    `Names have 1-255 characters and none of < > : " / \\ | ? * ' $. A second folder of the same name is a conflict.`,
  input: {
    project_id: projectIdInput,
    parent_folder_id: folderIdInput,
    name: z.string().min(1).max(255).describe("The new folder's name."),
    auth: authInput,
  },
  output: { folder: resource },
  annotations: CREATES,
  scopes: toolScopes("folder_create"),
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
    `--allow-dir). Answers the item and the version made (related.storage is its objectId).`,
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
  scopes: toolScopes("item_upload"),
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

const itemDownload = defineTool({
  name: "item_download",
  title: "Download a file from data management",
  description:
    "Downloads an item's tip version, or one version, into a directory the server allows (default its first), " +
    `checked by SHA-1; reports byte progress.`,
  input: {
    project_id: projectIdInput,
    item_id: z.string().min(1).optional().describe("Item id (its tip version is downloaded)."),
    version_id: z.string().min(1).optional().describe("Version id (from item_versions), instead of item_id."),
    out_dir: z.string().min(1).optional().describe("An allowed directory; default the server's first."),
    overwrite: z.boolean().default(false).describe("Replace a file of the same name."),
    auth: authInput,
  },
  output: {
    item: z.string(),
    version: z.string(),
    file: z.string(),
    size: z.number(),
    sha1: z.string(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  scopes: toolScopes("item_download"),
  login: "either",
  async run(args, ctx) {
    const project = dmProjectId(args.project_id);
    if ((args.item_id === undefined) === (args.version_id === undefined)) {
      throw fieldError({ field: "item_id", problem: "give {item_id} or {version_id} (one of them)" });
    }
    const target = args.item_id !== undefined
      ? { item: dmItemId(args.item_id) }
      : { version: dmVersionId(args.version_id!) };
    const dir = await toolFile(args.out_dir ?? ctx.fileRoots.allowed[0], ctx.cwd, ctx.fileRoots);
    const got = await runItemDownload(
      {
        as: args.auth,
        usable: true,
        project,
        target,
        out: dir + path.sep,
        force: args.overwrite,
        signal: ctx.signal,
      },
      ctx,
      toolProgress(ctx),
    );
    return { item: got.item, version: got.version, file: got.file, size: got.size, sha1: got.sha1 };
  },
});

/** The data management writing tools. */
export const DM_WRITE_TOOLS: readonly AnyTool[] = [folderCreate, itemUpload, itemDownload];
