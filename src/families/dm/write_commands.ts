/**
 * The `item` family (`item get|versions|formats`, `item upload|bind|download|rename`, `item version
 * describe|rename`, the latter also under their old spelling `version`, families/version/commands.ts)
 * and the `dm` family of short spellings (`dm projects`, `dm upload`, `dm download`, `dm update-item`,
 * `dm create-folder`), each declared once and listed under both names, as data (command/decl.ts).
 * The writes are thin adapters over families/dm/write.ts; `hub`, `project` and `folder` are in
 * commands.ts.
 */
import { dmHubId, dmItemId, dmProjectId, dmVersionId } from "../../aps/dm_ids.ts";
import { parseBucketKey, parseObjectKey } from "../../aps/ids.ts";
import { parseUrn } from "../../aps/urn.ts";
import { usageError } from "../../core/errors.ts";
import { type DmResource, runHubList, runItemGet, runItemVersions, runProjectList } from "./verbs.ts";
import type { DmFiled } from "./write.ts";
import { positiveNumber } from "../../command/command.ts";
import type { Ctx } from "../../command/context.ts";
import type { CommandDecl } from "../../command/decl.ts";
import {
  asOption,
  FOLDER_ARG,
  FOLDER_ID as FOLDER,
  HUB_ID as HUB,
  ITEM_ID,
  limitOption,
  NEW_NAME,
  PROJECT_ARG,
  PROJECT_ID as PROJECT,
  PROJECT_ID_OR_NAME,
  PROJECT_ID_TEXT,
  type Who,
  withHelpers,
  writes,
} from "./shared.ts";
import { folderCreate } from "./commands.ts";
import { byteBar } from "../../command/progress.ts";

const VERSION = `urn:adsk.wipprod:fs.file:vf.w3t4bvtQzhwf41oMYi4F_A?version=2`;
const ITEM_COLUMNS = ["name", "id", "versionNumber", "size", "lastModified"];
const VERSION_COLUMNS = ["versionNumber", "name", "lastModified", "size", "id"];

/** An item id or a version id (`...?version=N`). */
export function itemOrVersion(text: string): { item: ReturnType<typeof dmItemId> } | {
  version: ReturnType<typeof dmVersionId>;
} {
  if (/(\?|%3F)version(=|%3D)/i.test(text)) return { version: dmVersionId(text) };
  if (!text.includes(":fs.file:")) {
    try {
      return { item: dmItemId(text) };
    } catch { /* neither: one message naming both forms */ }
  }
  throw usageError(
    `invalid item or version id '${text}'`,
    "An item id looks like urn:adsk.wipprod:dm.lineage:w3t4bvtQzhwf41oMYi4F_A (its tip is downloaded), " +
      "a version id like urn:adsk.wipprod:fs.file:vf.w3t4bvtQzhwf41oMYi4F_A?version=2; list them with " +
      "`diazo folder list <project> <folder>` and `diazo item versions <project> <item>`.",
  );
}

/** An OSS object as `bucket/key`, a raw `urn:adsk.objects:os.object:<bucket>/<key>` or its base64 URN. */
function ossObject(
  text: string,
): { bucketKey: ReturnType<typeof parseBucketKey>; objectKey: ReturnType<typeof parseObjectKey> } {
  const slash = text.indexOf("/");
  if (!text.startsWith("urn:") && slash > 0 && /^[-_.a-z0-9]{3,128}$/.test(text.slice(0, slash))) {
    return {
      bucketKey: parseBucketKey(text.slice(0, slash)),
      objectKey: parseObjectKey(text.slice(slash + 1)),
    };
  }
  const parsed = parseUrn(text);
  if (parsed.bucketKey === undefined || parsed.objectKey === undefined) {
    throw usageError(
      `'${text}' names no OSS object`,
      "Name the object as <bucket>/<key> (see `diazo object list <bucket>`) or by the URN `diazo object upload` printed.",
    );
  }
  return { bucketKey: parseBucketKey(parsed.bucketKey), objectKey: parseObjectKey(parsed.objectKey) };
}

/** The row of an item made or changed, with its (new) version beside it. */
function filedRow(f: DmFiled) {
  return { ...withHelpers(f.item, f.version), newVersion: f.newVersion, tip: f.version };
}

/** `item upload` (and `dm upload`). */
function itemUpload(verb: string, spelling: string): CommandDecl {
  return {
    name: verb,
    description:
      "upload a file into a folder: a new item, or a new version of the item of the same name (multipart, resumable)",
    args: [PROJECT_ARG, FOLDER_ARG, { spec: "<file>", description: "the file to upload" }],
    options: [
      { flags: "--name <name>", description: "the item's name (default: the file's name)" },
      {
        flags: "--resume",
        description: "continue an interrupted upload of the same file, skipping stored parts",
      },
      {
        flags: "--part-size <MiB>",
        description: "part size in MiB (5-512; default 8)",
        parse: positiveNumber("--part-size", false),
      },
      asOption(),
    ],
    examples: [
      `diazo ${spelling} ${PROJECT} ${FOLDER} tower.rvt`,
      `diazo ${spelling} ${PROJECT} ${FOLDER} big.ifc --resume --part-size 16`,
    ],
    run: async (
      ctx,
      [project, folder, file],
      opts: { name?: string; resume?: boolean; partSize?: number; as?: Who },
    ) => {
      const { runItemUpload } = await writes();
      const filed = await runItemUpload(
        { ...opts, project, folder, file, partSizeMiB: opts.partSize },
        ctx,
        byteBar(ctx),
      );
      ctx.info(filed.summary);
      await ctx.emit(filedRow(filed), { columns: ITEM_COLUMNS });
    },
  };
}

/** `item download` (and `dm download`). */
function itemDownload(verb: string, spelling: string): CommandDecl {
  return {
    name: verb,
    description: "download an item's tip version, or a given version (atomic, resumable, SHA-1 checked)",
    args: [PROJECT_ARG, {
      spec: "<item|version>",
      description: "an item id (its tip) or a version id (...?version=N)",
      parse: itemOrVersion,
    }],
    options: [
      {
        flags: "--out <path>",
        description: "file, or directory to write into; default the current directory",
      },
      {
        flags: "--format <type>",
        description:
          "another format the platform converts the version to first (see `diazo item formats`), e.g. pdf",
      },
      { flags: "--force", description: "overwrite an existing file" },
      {
        flags: "--resume",
        description: "keep the part file when interrupted or failing, to go on from it next time",
      },
      asOption(),
    ],
    examples: [
      `diazo ${spelling} ${PROJECT} ${ITEM_ID} --out ./out/`,
      `diazo ${spelling} ${PROJECT} '${VERSION}' --out tower-v2.rvt`,
      `diazo ${spelling} ${PROJECT} ${ITEM_ID} --format pdf --timeout 600`,
    ],
    run: async (
      ctx,
      [project, target],
      opts: { out?: string; format?: string; force?: boolean; resume?: boolean; as?: Who },
    ) => {
      if (opts.format !== undefined) {
        const { runFormatDownload } = await import("./formats.ts");
        const timeoutMs = ctx.flags.timeout === undefined ? undefined : ctx.flags.timeout * 1000;
        const { summary, ...got } = await runFormatDownload(
          { ...opts, format: opts.format, project, target, timeoutMs, signal: ctx.interruptSignal() },
          ctx,
          byteBar(ctx),
        );
        ctx.info(summary);
        await ctx.emit(got, { columns: ["file", "size", "format", "versionNumber", "sha1"] });
        return;
      }
      const { runItemDownload } = await writes();
      const { summary, ...got } = await runItemDownload(
        { ...opts, project, target, signal: ctx.interruptSignal() },
        ctx,
        byteBar(ctx),
      );
      ctx.info(summary);
      await ctx.emit(got, { columns: ["file", "size", "versionNumber", "sha1"] });
    },
  };
}

/** `item rename` (and `dm update-item`). */
function itemRename(verb: string, spelling: string): CommandDecl {
  return {
    name: verb,
    description: "rename an item (its display name)",
    args: [PROJECT_ARG, {
      spec: "<item>",
      description: "item id (urn:adsk.wipprod:dm.lineage:...)",
      parse: dmItemId,
    }],
    options: [NEW_NAME, asOption()],
    examples: [`diazo ${spelling} ${PROJECT} ${ITEM_ID} --name "Tower (issued).rvt"`],
    run: async (ctx, [project, item], opts: { name: string; as?: Who }) => {
      const { runItemRename } = await writes();
      const renamed = await runItemRename({ ...opts, project, item }, ctx);
      const tip = renamed.included.find((r) => r.type === "versions");
      ctx.info(`Renamed item ${item} to ${opts.name}`);
      await ctx.emit(withHelpers(renamed.data, tip), { columns: ITEM_COLUMNS });
    },
  };
}

/** `item bind`: an OSS object filed as an item. */
const ITEM_BIND: CommandDecl = {
  name: "bind",
  description:
    "bind an existing OSS object to a new item in a folder, or as a new version of the item of the same name",
  args: [PROJECT_ARG, FOLDER_ARG, {
    spec: "<bucket/key|urn>",
    description: "the object: <bucket>/<key>, or its URN",
    parse: ossObject,
  }],
  options: [
    { flags: "--name <name>", description: "the item's name (default: the object key's last segment)" },
    asOption(),
  ],
  examples: [
    `diazo item bind ${PROJECT} ${FOLDER} myco-models/tower.rvt`,
    `diazo item bind ${PROJECT} ${FOLDER} dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6bXljby1tb2RlbHMvdG93ZXIucnZ0 --name Tower.rvt`,
  ],
  run: async (ctx, [project, folder, object], opts: { name?: string; as?: Who }) => {
    const { runItemBind } = await writes();
    const filed = await runItemBind({ ...opts, ...object, project, folder }, ctx);
    ctx.info(filed.summary);
    await ctx.emit(filedRow(filed), { columns: ITEM_COLUMNS });
  },
};

/** `item version describe` (alias `get`) and `item version rename`: the verbs on one version of an item. */
export const VERSION_VERBS: readonly CommandDecl[] = [
  {
    name: "describe",
    aliases: ["get"],
    description: "show one version, with the download jobs (derivative formats) the platform offers for it",
    args: [PROJECT_ARG, {
      spec: "<version>",
      description: "version id (urn:adsk.wipprod:fs.file:vf....?version=N)",
      parse: dmVersionId,
    }],
    options: [asOption()],
    examples: [
      `diazo item version describe ${PROJECT} '${VERSION}'`,
      `diazo item version describe ${PROJECT} '${VERSION}' -o json --query relationships.storage.data.id`,
    ],
    run: async (ctx, [project, id], opts: { as?: Who }) => {
      const { runVersionDescribe } = await writes();
      const { version: v, downloads } = await runVersionDescribe({ as: opts.as, project, version: id }, ctx);
      // formats: the file types of the download jobs, for the table (the jobs themselves in downloads).
      const formats = downloads.map((d) => (d.attributes?.format as { fileType?: string })?.fileType).filter(
        Boolean,
      );
      await ctx.emit({ ...withHelpers(v), formats: formats.join(", "), downloads }, {
        columns: ["versionNumber", "name", "size", "formats", "id"],
      });
    },
  },
  {
    name: "rename",
    description: "rename a version (the file name it syncs to)",
    args: [PROJECT_ARG, { spec: "<version>", description: "version id", parse: dmVersionId }],
    options: [NEW_NAME, asOption()],
    examples: [`diazo item version rename ${PROJECT} '${VERSION}' --name tower.rvt`],
    run: async (ctx, [project, id], opts: { name: string; as?: Who }) => {
      const { runVersionRename } = await writes();
      const v = await runVersionRename({ as: opts.as, name: opts.name, project, version: id }, ctx);
      ctx.info(`Renamed version ${id} to ${opts.name}`);
      await ctx.emit(withHelpers(v), { columns: ["versionNumber", "name", "size", "id"] });
    },
  },
];

/** `item version`: one version of an item (a file), beside `item versions`, which lists them. */
const ITEM_VERSION: CommandDecl = {
  name: "version",
  description: "describe or rename one version of an item (`item versions` lists them)",
  examples: [`diazo item version describe ${PROJECT} '${VERSION}'`],
  commands: VERSION_VERBS,
};

/** `upload`, `bind`, `download`, `rename` and `version` of the `item` family. */
export const ITEM_WRITES: readonly CommandDecl[] = [
  itemUpload("upload", "item upload"),
  ITEM_BIND,
  itemDownload("download", "item download"),
  itemRename("rename", "item rename"),
  ITEM_VERSION,
];

/** The options of a listing: `--limit` and `--as`. */
interface ListOpts {
  limit?: number;
  as?: Who;
}

/** The family `item`. */
export const ITEM: CommandDecl = {
  name: "item",
  description: "upload, download, bind, rename and inspect items (files)",
  examples: [`diazo item get ${PROJECT} ${ITEM_ID}`, `diazo item versions ${PROJECT} ${ITEM_ID}`],
  commands: [
    {
      name: "get",
      aliases: ["info"],
      description: "show one item with its tip (latest) version",
      args: [
        PROJECT_ID_OR_NAME,
        { spec: "<item>", description: "item id (urn:adsk.wipprod:dm.lineage:...)", parse: dmItemId },
      ],
      options: [asOption()],
      examples: [
        `diazo item get ${PROJECT} ${ITEM_ID}`,
        `diazo item get ${PROJECT} ${ITEM_ID} -o json --query tip.id`,
      ],
      run: async (ctx, [project, itemId], opts: { as?: Who }) => {
        const { item: found, tip } = await runItemGet({ ...opts, project, item: itemId }, ctx);
        await ctx.emit({ ...withHelpers(found, tip), ...(tip ? { tip } : {}) }, {
          columns: ["name", "id", "lastModified", "versionNumber", "size"],
        });
      },
    },
    {
      name: "versions",
      description: "list an item's versions, newest first, following every page",
      tool: "item_versions",
      args: [
        { ...PROJECT_ID_OR_NAME, toolName: "project_id", toolDescription: PROJECT_ID_TEXT },
        {
          spec: "<item>",
          description: "item id (urn:adsk.wipprod:dm.lineage:...)",
          parse: dmItemId,
          toolName: "item_id",
          toolDescription: "Item id, e.g. urn:adsk.wipprod:dm.lineage:AeYgDtcTSuqYoyMweWFhhQ.",
        },
      ],
      options: [limitOption(), asOption()],
      examples: [
        `diazo item versions ${PROJECT} ${ITEM_ID}`,
        `diazo item versions ${PROJECT} ${ITEM_ID} --limit 1 -o json --query '[0].id'`,
      ],
      run: async (ctx, [project, itemId], opts: ListOpts) => {
        const all = await runItemVersions({ ...opts, project, item: itemId }, ctx);
        // At 80 columns the number, name, date and size before the long version URN (--wide, -o json keep it).
        await ctx.emit(all.items.map((v) => withHelpers(v)), {
          columns: VERSION_COLUMNS,
          lowPriority: ["id"],
        });
      },
    },
    {
      name: "formats",
      description:
        "list the other formats an item's tip or a version can be downloaded as (`item download --format`)",
      args: [
        { spec: "<project>", description: "project id or name", parse: dmProjectId, names: "project" },
        {
          spec: "<item|version>",
          description: "an item id (its tip) or a version id (...?version=N)",
          parse: itemOrVersion,
        },
      ],
      options: [asOption()],
      examples: [
        `diazo item formats ${PROJECT} ${ITEM_ID}`,
        `diazo item formats ${PROJECT} ${ITEM_ID} -o json --query '[].format'`,
      ],
      run: async (ctx, [project, target], opts: { as?: Who }) => {
        const { runItemFormats } = await import("./formats.ts");
        await ctx.emit(await runItemFormats({ ...opts, project, target }, ctx), {
          columns: ["format", "name", "version"],
          lowPriority: ["version"],
        });
      },
    },
    ...ITEM_WRITES,
  ],
};

/** `dm projects [hub]`: a hub's projects, or those of every hub the login sees. */
async function dmProjects(
  hub: ReturnType<typeof dmHubId> | undefined,
  opts: { limit?: number; as?: "user" | "app" },
  ctx: Ctx,
) {
  const hubs = hub !== undefined
    ? [hub]
    : (await runHubList({ as: opts.as }, ctx)).items.map((h) => dmHubId(h.id));
  const rows: DmResource[] = [];
  for (const h of hubs) {
    if (opts.limit !== undefined && rows.length >= opts.limit) break;
    const limit = opts.limit === undefined ? undefined : opts.limit - rows.length;
    rows.push(...(await runProjectList({ ...opts, limit, hub: h }, ctx)).items);
  }
  return rows.map((p) => withHelpers(p));
}

/** The `dm` family: the short spellings of the data management commands. */
export const DM: CommandDecl = {
  name: "dm",
  description: "data management shortcuts (the same commands as hub, project, folder and item)",
  examples: [`diazo dm projects`, `diazo dm upload ${PROJECT} ${FOLDER} tower.rvt`],
  commands: [
    {
      name: "projects",
      description: "list the projects of a hub, or of every hub your login sees (`project list`)",
      args: [{
        spec: "[hub]",
        description: "hub: b.<guid>, a.<id> or its name; default every hub",
        parse: dmHubId,
        names: "hub",
      }],
      options: [limitOption(), asOption()],
      examples: ["diazo dm projects", `diazo dm projects ${HUB} -o json`],
      run: async (ctx, [hub], opts: { limit?: number; as?: Who }) => {
        await ctx.emit(await dmProjects(hub, opts, ctx), { columns: ["name", "id", "projectType"] });
      },
    },
    itemUpload("upload", "dm upload"),
    itemDownload("download", "dm download"),
    itemRename("update-item", "dm update-item"),
    folderCreate("create-folder", "dm create-folder"),
  ],
};
