/**
 * Data management writes as commands: `folder create|rename`, `item upload|bind|download|rename`,
 * the `version` family (`describe`, `rename`) and the `dm` family of short spellings (`dm
 * projects`, `dm upload`, `dm download`, `dm update-item`, `dm create-folder`), each declared once
 * and attached under both names. Thin adapters over families/dm/write.ts.
 */
import { dmFolderId, dmHubId, dmItemId, dmProjectId, dmVersionId } from "../../aps/dm_ids.ts";
import { parseBucketKey, parseObjectKey } from "../../aps/ids.ts";
import { parseUrn } from "../../aps/urn.ts";
import { usageError } from "../../core/errors.ts";
import { type DmResource, runHubList, runProjectList } from "./verbs.ts";
import {
  type DmFiled,
  runFolderCreate,
  runFolderRename,
  runItemBind,
  runItemDownload,
  runItemRename,
  runItemUpload,
  runVersionDescribe,
  runVersionRename,
} from "./write.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "../../command/command.ts";
import type { Ctx } from "../../command/context.ts";
import { asOption, FOLDER, HUB, ITEM, limitOption, PROJECT, withHelpers } from "./shared.ts";
import { byteBar } from "../../command/progress.ts";

const VERSION = `urn:adsk.wipprod:fs.file:vf.w3t4bvtQzhwf41oMYi4F_A?version=2`;
const ITEM_COLUMNS = ["name", "id", "versionNumber", "size", "lastModified"];

/** An item id or a version id (`...?version=N`). */
function itemOrVersion(text: string): { item: ReturnType<typeof dmItemId> } | {
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

/** `folder create` (and `dm create-folder`). */
function folderCreate(parent: AnyCommand, verb: string, makeCtx: ContextFactory, spelling: string): void {
  const cmd = parent.command(verb);
  cmd.description("create a folder in a folder (a project's top folders hold the others)")
    .argument("<project>", "project id (b.<guid>)", dmProjectId)
    .argument(
      "<parent-folder>",
      "the folder to create it in (urn:adsk.wipprod:fs.folder:co....)",
      dmFolderId,
    )
    .requiredOption("--name <name>", "the new folder's name (1-255 characters)")
    .addOption(asOption())
    .action(
      async (project, parentFolder, opts, c) => {
        const ctx = makeCtx(c);
        const folder = await runFolderCreate({ ...opts, project, parent: parentFolder }, ctx);
        ctx.info(`Created folder ${opts.name} (${folder.id})`);
        await ctx.emit(withHelpers(folder), { columns: ["name", "id", "lastModified"] });
      },
    );
  examples(cmd, [`diazo ${spelling} ${PROJECT} ${FOLDER} --name Drawings`]);
}

/** `item upload` (and `dm upload`). */
function itemUpload(parent: AnyCommand, verb: string, makeCtx: ContextFactory, spelling: string): void {
  const cmd = parent.command(verb);
  cmd.description(
    "upload a file into a folder: a new item, or a new version of the item of the same name (multipart, resumable)",
  )
    .argument("<project>", "project id (b.<guid>)", dmProjectId)
    .argument("<folder>", "the folder (urn:adsk.wipprod:fs.folder:co....)", dmFolderId)
    .argument("<file>", "the file to upload")
    .option("--name <name>", "the item's name (default: the file's name)")
    .option("--resume", "continue an interrupted upload of the same file, skipping stored parts")
    .option("--part-size <MiB>", "part size in MiB (5-512; default 8)", positiveNumber("--part-size", false))
    .addOption(asOption())
    .action(async (project, folder, file, opts, c) => {
      const ctx = makeCtx(c);
      const filed = await runItemUpload(
        { ...opts, project, folder, file, partSizeMiB: opts.partSize },
        ctx,
        byteBar(ctx),
      );
      ctx.info(filed.summary);
      await ctx.emit(filedRow(filed), { columns: ITEM_COLUMNS });
    });
  examples(cmd, [
    `diazo ${spelling} ${PROJECT} ${FOLDER} tower.rvt`,
    `diazo ${spelling} ${PROJECT} ${FOLDER} big.ifc --resume --part-size 16`,
  ]);
}

/** `item download` (and `dm download`). */
function itemDownload(parent: AnyCommand, verb: string, makeCtx: ContextFactory, spelling: string): void {
  const cmd = parent.command(verb);
  cmd.description("download an item's tip version, or a given version (atomic, resumable, SHA-1 checked)")
    .argument("<project>", "project id (b.<guid>)", dmProjectId)
    .argument("<item|version>", "an item id (its tip) or a version id (...?version=N)", itemOrVersion)
    .option("--out <path>", "file, or directory to write into; default the current directory")
    .option("--force", "overwrite an existing file")
    .option("--resume", "keep the part file when interrupted or failing, to go on from it next time")
    .addOption(asOption())
    .action(async (project, target, opts, c) => {
      const ctx = makeCtx(c);
      const { summary, ...got } = await runItemDownload(
        { ...opts, project, target, signal: ctx.interruptSignal() },
        ctx,
        byteBar(ctx),
      );
      ctx.info(summary);
      await ctx.emit(got, { columns: ["file", "size", "versionNumber", "sha1"] });
    });
  examples(cmd, [
    `diazo ${spelling} ${PROJECT} ${ITEM} --out ./out/`,
    `diazo ${spelling} ${PROJECT} '${VERSION}' --out tower-v2.rvt`,
  ]);
}

/** `item rename` (and `dm update-item`). */
function itemRename(parent: AnyCommand, verb: string, makeCtx: ContextFactory, spelling: string): void {
  const cmd = parent.command(verb);
  cmd.description("rename an item (its display name)")
    .argument("<project>", "project id (b.<guid>)", dmProjectId)
    .argument("<item>", "item id (urn:adsk.wipprod:dm.lineage:...)", dmItemId)
    .requiredOption("--name <name>", "the new name")
    .addOption(asOption())
    .action(async (project, item, opts, c) => {
      const ctx = makeCtx(c);
      const renamed = await runItemRename({ ...opts, project, item }, ctx);
      const tip = renamed.included.find((r) => r.type === "versions");
      ctx.info(`Renamed item ${item} to ${opts.name}`);
      await ctx.emit(withHelpers(renamed.data, tip), { columns: ITEM_COLUMNS });
    });
  examples(cmd, [`diazo ${spelling} ${PROJECT} ${ITEM} --name "Tower (issued).rvt"`]);
}

/** Adds `create` and `rename` to the `folder` family. */
export function registerFolderWrites(folder: AnyCommand, makeCtx: ContextFactory): void {
  folderCreate(folder, "create", makeCtx, "folder create");
  const rename = folder.command("rename")
    .description("rename a folder")
    .argument("<project>", "project id (b.<guid>)", dmProjectId)
    .argument("<folder>", "the folder (urn:adsk.wipprod:fs.folder:co....)", dmFolderId)
    .requiredOption("--name <name>", "the new name")
    .addOption(asOption())
    .action(async (project, id, opts, c) => {
      const ctx = makeCtx(c);
      const renamed = await runFolderRename({ ...opts, project, folder: id }, ctx);
      ctx.info(`Renamed folder ${id} to ${opts.name}`);
      await ctx.emit(withHelpers(renamed), { columns: ["name", "id", "lastModified"] });
    });
  examples(rename, [`diazo folder rename ${PROJECT} ${FOLDER} --name "Issued drawings"`]);
}

/** Adds `upload`, `bind`, `download` and `rename` to the `item` family. */
export function registerItemWrites(item: AnyCommand, makeCtx: ContextFactory): void {
  itemUpload(item, "upload", makeCtx, "item upload");
  const bind = item.command("bind")
    .description(
      "bind an existing OSS object to a new item in a folder, or as a new version of the item of the same name",
    )
    .argument("<project>", "project id (b.<guid>)", dmProjectId)
    .argument("<folder>", "the folder (urn:adsk.wipprod:fs.folder:co....)", dmFolderId)
    .argument("<bucket/key|urn>", "the object: <bucket>/<key>, or its URN", ossObject)
    .option("--name <name>", "the item's name (default: the object key's last segment)")
    .addOption(asOption())
    .action(async (project, folder, object, opts, c) => {
      const ctx = makeCtx(c);
      const filed = await runItemBind({ ...opts, ...object, project, folder }, ctx);
      ctx.info(filed.summary);
      await ctx.emit(filedRow(filed), { columns: ITEM_COLUMNS });
    });
  examples(bind, [
    `diazo item bind ${PROJECT} ${FOLDER} myco-models/tower.rvt`,
    `diazo item bind ${PROJECT} ${FOLDER} dXJuOmFkc2sub2JqZWN0czpvcy5vYmplY3Q6bXljby1tb2RlbHMvdG93ZXIucnZ0 --name Tower.rvt`,
  ]);
  itemDownload(item, "download", makeCtx, "item download");
  itemRename(item, "rename", makeCtx, "item rename");
}

/**
 * Adds `describe` and `rename` of an item's versions under `diazo version` (whose own action
 * prints diazo's version when no verb follows).
 */
export function registerVersionVerbs(version: AnyCommand, makeCtx: ContextFactory): void {
  const describe = version.command("describe").alias("get")
    .description("show one version, with the download jobs (derivative formats) the platform offers for it")
    .argument("<project>", "project id (b.<guid>)", dmProjectId)
    .argument("<version>", "version id (urn:adsk.wipprod:fs.file:vf....?version=N)", dmVersionId)
    .addOption(asOption())
    .action(async (project, id, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const { version: v, downloads } = await runVersionDescribe({ ...opts, project, version: id }, ctx);
      // formats: the file types of the download jobs, for the table (the jobs themselves in downloads).
      const formats = downloads.map((d) => (d.attributes?.format as { fileType?: string })?.fileType).filter(
        Boolean,
      );
      await ctx.emit({ ...withHelpers(v), formats: formats.join(", "), downloads }, {
        columns: ["versionNumber", "name", "size", "formats", "id"],
      });
    });
  examples(describe, [
    `diazo version describe ${PROJECT} '${VERSION}'`,
    `diazo version describe ${PROJECT} '${VERSION}' -o json --query relationships.storage.data.id`,
  ]);
  const rename = version.command("rename")
    .description("rename a version (the file name it syncs to)")
    .argument("<project>", "project id (b.<guid>)", dmProjectId)
    .argument("<version>", "version id", dmVersionId)
    .requiredOption("--name <name>", "the new name")
    .addOption(asOption())
    .action(
      async (project, id, opts, cmd) => {
        const ctx = makeCtx(cmd);
        const v = await runVersionRename({ ...opts, project, version: id }, ctx);
        ctx.info(`Renamed version ${id} to ${opts.name}`);
        await ctx.emit(withHelpers(v), { columns: ["versionNumber", "name", "size", "id"] });
      },
    );
  examples(rename, [`diazo version rename ${PROJECT} '${VERSION}' --name tower.rvt`]);
}

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

/** Registers `dm`: the short spellings of the data management commands. */
export function registerDm(program: AnyCommand, makeCtx: ContextFactory): void {
  const dm = program.command("dm").description(
    "data management shortcuts (the same commands as hub, project, folder and item)",
  );
  examples(dm, [`diazo dm projects`, `diazo dm upload ${PROJECT} ${FOLDER} tower.rvt`]);
  const projects = dm.command("projects")
    .description("list the projects of a hub, or of every hub your login sees (`project list`)")
    .argument("[hub]", "hub id (b.<guid> or a.<id>); default every hub", dmHubId)
    .addOption(limitOption())
    .addOption(asOption())
    .action(async (hub, opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await dmProjects(hub, opts, ctx), { columns: ["name", "id", "projectType"] });
    });
  examples(projects, ["diazo dm projects", `diazo dm projects ${HUB} -o json`]);
  itemUpload(dm, "upload", makeCtx, "dm upload");
  itemDownload(dm, "download", makeCtx, "dm download");
  itemRename(dm, "update-item", makeCtx, "dm update-item");
  folderCreate(dm, "create-folder", makeCtx, "dm create-folder");
}
