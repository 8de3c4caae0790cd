/**
 * Data management families `hub`, `project`, `folder`, `item`: browse hubs, projects, folders,
 * items and versions, declared as data (command/decl.ts). Commands act as the logged-in user when
 * the profile has a 3-legged login, else as the app (2-legged); `--as user|app` chooses.
 */
import { dmFolderId, dmHubId, dmProjectId } from "../../aps/dm_ids.ts";
import { usageError } from "../../core/errors.ts";
import {
  type DmPage,
  runFolderGet,
  runFolderList,
  runHubGet,
  runHubList,
  runProjectGet,
  runProjectList,
} from "./verbs.ts";
import type { CommandDecl } from "../../command/decl.ts";
import {
  asOption,
  FOLDER_ARG,
  FOLDER_ID,
  HUB_ID,
  HUB_ID_TEXT,
  limitOption,
  NEW_NAME,
  PROJECT_ARG,
  PROJECT_ID,
  PROJECT_ID_OR_NAME,
  PROJECT_ID_TEXT,
  type Who,
  withHelpers,
  writes,
} from "./shared.ts";

export { withHelpers };

const HUB_COLUMNS = ["name", "id", "hubType", "region"];
const PROJECT_COLUMNS = ["name", "id", "projectType"];
const CONTENT_COLUMNS = ["type", "name", "id", "lastModified", "versionNumber", "size"];

/** The options of a listing: `--limit` and `--as`. */
interface ListOpts {
  limit?: number;
  as?: Who;
}

/** The family `hub`. */
export const HUB: CommandDecl = {
  name: "hub",
  description: "list the hubs (accounts) your login can see",
  examples: ["diazo hub list", `diazo hub get ${HUB_ID}`],
  commands: [
    {
      name: "list",
      aliases: ["ls"],
      description:
        "list hubs: ACC/BIM 360 accounts (b.<guid>) and, with a 3-legged login, personal hubs (a.<id>)",
      tool: "hub_list",
      options: [limitOption(), asOption()],
      examples: ["diazo hub list", "diazo hub list --as app -o json --query '[].id'"],
      run: async (ctx, _args, opts: ListOpts) => {
        const hubs = await runHubList(opts, ctx);
        await ctx.emit(hubs.items.map((h) => withHelpers(h)), { columns: HUB_COLUMNS });
      },
    },
    {
      name: "get",
      aliases: ["info"],
      description: "show one hub",
      args: [{
        spec: "<hub>",
        description: "hub: b.<account guid> (a bare account GUID gets the b.), a.<id>, or its name",
        parse: dmHubId,
        names: "hub",
      }],
      options: [asOption()],
      examples: [
        `diazo hub get ${HUB_ID}`,
        `diazo hub get ${HUB_ID.slice(2)}   # an ACC account id works too`,
      ],
      run: async (ctx, [hub], opts: { as?: Who }) => {
        await ctx.emit(withHelpers(await runHubGet({ ...opts, hub }, ctx)), { columns: HUB_COLUMNS });
      },
    },
  ],
};

/** The family `project`. */
export const PROJECT: CommandDecl = {
  name: "project",
  description: "list and inspect projects of a hub",
  examples: [`diazo project list ${HUB_ID}`, `diazo project get ${HUB_ID} ${PROJECT_ID}`],
  commands: [
    {
      name: "list",
      aliases: ["ls"],
      description: "list a hub's projects, following every page",
      tool: "project_list",
      args: [{
        spec: "<hub>",
        description: "hub: b.<guid>, a.<id> or its name (see `diazo hub list`)",
        parse: dmHubId,
        names: "hub",
        toolName: "hub_id",
        toolDescription: HUB_ID_TEXT,
      }],
      options: [limitOption(), asOption()],
      examples: [`diazo project list ${HUB_ID}`, `diazo project list ${HUB_ID} --limit 5 -o json`],
      run: async (ctx, [hub], opts: ListOpts) => {
        const projects = await runProjectList({ ...opts, hub }, ctx);
        await ctx.emit(projects.items.map((p) => withHelpers(p)), { columns: PROJECT_COLUMNS });
      },
    },
    {
      name: "get",
      aliases: ["info"],
      description: "show one project (its root folder and top-folder links are in the JSON)",
      args: [
        { spec: "<hub>", description: "hub id or name", parse: dmHubId, names: "hub" },
        {
          spec: "<project>",
          description: "project: b.<guid> (an ACC/BIM 360 project GUID gets the b. prefix) or its name",
          parse: dmProjectId,
          complete: "project",
          names: "project",
        },
      ],
      options: [asOption()],
      examples: [
        `diazo project get ${HUB_ID} ${PROJECT_ID}`,
        `diazo project get ${HUB_ID} ${PROJECT_ID.slice(2)}`,
      ],
      run: async (ctx, [hub, project], opts: { as?: Who }) => {
        const p = await runProjectGet({ ...opts, hub, project }, ctx);
        await ctx.emit(withHelpers(p), { columns: PROJECT_COLUMNS });
      },
    },
  ],
};

/** Rows of a folder's contents, items with their tip version's number and size. */
function contentRows(page: DmPage) {
  const tips = new Map(page.included.map((v) => [v.id, v]));
  return page.items.map((r) => {
    const tip = (r.relationships?.tip as { data?: { id?: string } } | undefined)?.data?.id;
    return withHelpers(r, tip ? tips.get(tip) : undefined);
  });
}

/** `folder list`: a project's top folders (with --hub), or a folder's contents. */
const FOLDER_LIST: CommandDecl = {
  name: "list",
  aliases: ["ls"],
  description:
    "list a project's top folders (with --hub), or a folder's folders and items, following every page",
  tool: "folder_list",
  args: [
    {
      spec: "<project>",
      description: "project: b.<guid> or its name (see `diazo project list <hub>`)",
      parse: dmProjectId,
      complete: "project",
      names: "project",
      toolName: "project_id",
      toolDescription: PROJECT_ID_TEXT,
    },
    {
      spec: "[folder]",
      description: "folder id (urn:adsk.wipprod:fs.folder:co....); omit for the top folders",
      parse: dmFolderId,
      toolName: "folder_id",
      toolDescription: "Folder id; omit it for the project's top folders.",
    },
  ],
  options: [
    {
      flags: "--hub <hub>",
      description:
        "hub of the project (id or name; default DIAZO_HUB or `diazo config set hub`); needed for the top folders",
      parse: dmHubId,
      names: "hub",
      toolName: "hub_id",
      toolDescription: "Hub id; needed for the top folders (without folder_id).",
    },
    {
      flags: "--type <type>",
      description: "only folders or only items",
      choices: ["folders", "items"],
      toolDescription: "Only folders or only items (with folder_id).",
    },
    limitOption(),
    asOption(),
  ],
  examples: [
    `diazo folder list ${PROJECT_ID} --hub ${HUB_ID}`,
    `diazo folder list ${PROJECT_ID} ${FOLDER_ID}`,
    `diazo folder list ${PROJECT_ID} ${FOLDER_ID} --type items --limit 20 -o json`,
  ],
  run: async (
    ctx,
    [project, folder],
    opts: ListOpts & { hub?: ReturnType<typeof dmHubId>; type?: "folders" | "items" },
  ) => {
    const target = folder !== undefined
      ? { folder, hub: opts.hub }
      : opts.hub !== undefined
      ? { hub: opts.hub }
      : undefined;
    if (target === undefined) {
      throw usageError(
        "`folder list` without a folder lists the project's top folders, which needs --hub <hub>",
        `Add the hub (see \`diazo hub list\`), e.g. diazo folder list ${project} --hub ${HUB_ID}; or name a folder.`,
      );
    }
    const page = await runFolderList({ ...opts, ...target, project }, ctx);
    await ctx.emit(contentRows(page), { columns: CONTENT_COLUMNS });
  },
};

/** `folder create` (and `dm create-folder`, write_commands.ts). */
export function folderCreate(verb: string, spelling: string): CommandDecl {
  return {
    name: verb,
    description: "create a folder in a folder (a project's top folders hold the others)",
    args: [PROJECT_ARG, {
      spec: "<parent-folder>",
      description: "the folder to create it in (urn:adsk.wipprod:fs.folder:co....)",
      parse: dmFolderId,
    }],
    options: [
      { flags: "--name <name>", description: "the new folder's name (1-255 characters)", required: true },
      asOption(),
    ],
    examples: [`diazo ${spelling} ${PROJECT_ID} ${FOLDER_ID} --name Drawings`],
    run: async (ctx, [project, parentFolder], opts: { name: string; as?: Who }) => {
      const { runFolderCreate } = await writes();
      const folder = await runFolderCreate({ ...opts, project, parent: parentFolder }, ctx);
      ctx.info(`Created folder ${opts.name} (${folder.id})`);
      await ctx.emit(withHelpers(folder), { columns: ["name", "id", "lastModified"] });
    },
  };
}

/** `create` and `rename` of the `folder` family. */
const FOLDER_WRITES: readonly CommandDecl[] = [
  folderCreate("create", "folder create"),
  {
    name: "rename",
    description: "rename a folder",
    args: [PROJECT_ARG, FOLDER_ARG],
    options: [NEW_NAME, asOption()],
    examples: [`diazo folder rename ${PROJECT_ID} ${FOLDER_ID} --name "Issued drawings"`],
    run: async (ctx, [project, id], opts: { name: string; as?: Who }) => {
      const { runFolderRename } = await writes();
      const renamed = await runFolderRename({ ...opts, project, folder: id }, ctx);
      ctx.info(`Renamed folder ${id} to ${opts.name}`);
      await ctx.emit(withHelpers(renamed), { columns: ["name", "id", "lastModified"] });
    },
  },
];

/** The family `folder`. */
export const FOLDER: CommandDecl = {
  name: "folder",
  description: "list, create and rename folders",
  examples: [
    `diazo folder list ${PROJECT_ID} --hub ${HUB_ID}`,
    `diazo folder list ${PROJECT_ID} ${FOLDER_ID}`,
  ],
  commands: [
    FOLDER_LIST,
    {
      name: "get",
      aliases: ["info"],
      description: "show one folder",
      args: [
        PROJECT_ID_OR_NAME,
        { spec: "<folder>", description: "folder id (urn:adsk.wipprod:fs.folder:co....)", parse: dmFolderId },
      ],
      options: [asOption()],
      examples: [`diazo folder get ${PROJECT_ID} ${FOLDER_ID}`],
      run: async (ctx, [project, folder], opts: { as?: Who }) => {
        const f = await runFolderGet({ ...opts, project, folder }, ctx);
        await ctx.emit(withHelpers(f), { columns: ["name", "id", "lastModified"] });
      },
    },
    ...FOLDER_WRITES,
  ],
};
