/**
 * Data management families `hub`, `project`, `folder`, `item`: browse hubs, projects, folders,
 * items and versions. Commands act as the logged-in user when the profile has a 3-legged login,
 * else as the app (2-legged); `--as user|app` chooses.
 */
import { Option } from "@commander-js/extra-typings";
import { dmFolderId, dmHubId, dmItemId, dmProjectId } from "../../aps/dm_ids.ts";
import { usageError } from "../../core/errors.ts";
import {
  type DmPage,
  runFolderGet,
  runFolderList,
  runHubGet,
  runHubList,
  runItemGet,
  runItemVersions,
  runProjectGet,
  runProjectList,
} from "./verbs.ts";
import { type AnyCommand, type ContextFactory, examples } from "../../command/command.ts";
import { asOption, FOLDER, HUB, ITEM, limitOption, PROJECT, withHelpers } from "./shared.ts";
import { registerFolderWrites, registerItemWrites } from "./write_commands.ts";

export { withHelpers };

const HUB_COLUMNS = ["name", "id", "hubType", "region"];
const PROJECT_COLUMNS = ["name", "id", "projectType"];
const CONTENT_COLUMNS = ["type", "name", "id", "lastModified", "versionNumber", "size"];
const VERSION_COLUMNS = ["versionNumber", "name", "lastModified", "size", "id"];

/** Registers `hub`. */
export function registerHub(program: AnyCommand, makeCtx: ContextFactory): void {
  const hub = program.command("hub").description("list the hubs (accounts) your login can see");
  examples(hub, ["diazo hub list", `diazo hub get ${HUB}`]);

  const list = hub.command("list").alias("ls")
    .description(
      "list hubs: ACC/BIM 360 accounts (b.<guid>) and, with a 3-legged login, personal hubs (a.<id>)",
    )
    .addOption(limitOption())
    .addOption(asOption())
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const hubs = await runHubList(opts, ctx);
      await ctx.emit(hubs.items.map((h) => withHelpers(h)), { columns: HUB_COLUMNS });
    });
  examples(list, ["diazo hub list", "diazo hub list --as app -o json --query '[].id'"]);

  const get = hub.command("get").alias("info")
    .description("show one hub")
    .argument("<hub>", "hub id: b.<account guid> (a bare account GUID gets the b.) or a.<id>", dmHubId)
    .addOption(asOption())
    .action(async (hub, opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(withHelpers(await runHubGet({ ...opts, hub }, ctx)), { columns: HUB_COLUMNS });
    });
  examples(get, [`diazo hub get ${HUB}`, `diazo hub get ${HUB.slice(2)}   # an ACC account id works too`]);
}

/** Registers `project`. */
export function registerProject(program: AnyCommand, makeCtx: ContextFactory): void {
  const project = program.command("project").description("list and inspect projects of a hub");
  examples(project, [`diazo project list ${HUB}`, `diazo project get ${HUB} ${PROJECT}`]);

  const list = project.command("list").alias("ls")
    .description("list a hub's projects, following every page")
    .argument("<hub>", "hub id (b.<guid> or a.<id>; see `diazo hub list`)", dmHubId)
    .addOption(limitOption())
    .addOption(asOption())
    .action(async (hub, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const projects = await runProjectList({ ...opts, hub }, ctx);
      await ctx.emit(projects.items.map((p) => withHelpers(p)), { columns: PROJECT_COLUMNS });
    });
  examples(list, [`diazo project list ${HUB}`, `diazo project list ${HUB} --limit 5 -o json`]);

  const get = project.command("get").alias("info")
    .description("show one project (its root folder and top-folder links are in the JSON)")
    .argument("<hub>", "hub id", dmHubId)
    .argument(
      "<project>",
      "project id: b.<guid>; an ACC/BIM 360 project GUID gets the b. prefix",
      dmProjectId,
    )
    .addOption(asOption())
    .action(async (hub, project, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const p = await runProjectGet({ ...opts, hub, project }, ctx);
      await ctx.emit(withHelpers(p), { columns: PROJECT_COLUMNS });
    });
  examples(get, [`diazo project get ${HUB} ${PROJECT}`, `diazo project get ${HUB} ${PROJECT.slice(2)}`]);
}

/** Rows of a folder's contents, items with their tip version's number and size. */
function contentRows(page: DmPage) {
  const tips = new Map(page.included.map((v) => [v.id, v]));
  return page.items.map((r) => {
    const tip = (r.relationships?.tip as { data?: { id?: string } } | undefined)?.data?.id;
    return withHelpers(r, tip ? tips.get(tip) : undefined);
  });
}

/** Registers `folder`. */
export function registerFolder(program: AnyCommand, makeCtx: ContextFactory): void {
  const folder = program.command("folder").description("list, create and rename folders");
  examples(folder, [`diazo folder list ${PROJECT} --hub ${HUB}`, `diazo folder list ${PROJECT} ${FOLDER}`]);

  const list = folder.command("list").alias("ls")
    .description(
      "list a project's top folders (with --hub), or a folder's folders and items, following every page",
    )
    .argument("<project>", "project id (b.<guid>; see `diazo project list <hub>`)", dmProjectId)
    .argument(
      "[folder]",
      "folder id (urn:adsk.wipprod:fs.folder:co....); omit for the top folders",
      dmFolderId,
    )
    .option("--hub <hub>", "hub of the project; needed for the top folders", dmHubId)
    .addOption(
      new Option("--type <type>", "only folders or only items").choices(["folders", "items"] as const),
    )
    .addOption(limitOption())
    .addOption(asOption())
    .action(async (project, folder, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const target = folder !== undefined
        ? { folder, hub: opts.hub }
        : opts.hub !== undefined
        ? { hub: opts.hub }
        : undefined;
      if (target === undefined) {
        throw usageError(
          "`folder list` without a folder lists the project's top folders, which needs --hub <hub>",
          `Add the hub (see \`diazo hub list\`), e.g. diazo folder list ${project} --hub ${HUB}; or name a folder.`,
        );
      }
      const page = await runFolderList({ ...opts, ...target, project }, ctx);
      await ctx.emit(contentRows(page), { columns: CONTENT_COLUMNS });
    });
  examples(list, [
    `diazo folder list ${PROJECT} --hub ${HUB}`,
    `diazo folder list ${PROJECT} ${FOLDER}`,
    `diazo folder list ${PROJECT} ${FOLDER} --type items --limit 20 -o json`,
  ]);

  const get = folder.command("get").alias("info")
    .description("show one folder")
    .argument("<project>", "project id", dmProjectId)
    .argument("<folder>", "folder id (urn:adsk.wipprod:fs.folder:co....)", dmFolderId)
    .addOption(asOption())
    .action(async (project, folder, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const f = await runFolderGet({ ...opts, project, folder }, ctx);
      await ctx.emit(withHelpers(f), { columns: ["name", "id", "lastModified"] });
    });
  examples(get, [`diazo folder get ${PROJECT} ${FOLDER}`]);
  registerFolderWrites(folder, makeCtx);
}

/** Registers `item`. */
export function registerItem(program: AnyCommand, makeCtx: ContextFactory): void {
  const item = program.command("item").description(
    "upload, download, bind, rename and inspect items (files)",
  );
  examples(item, [`diazo item get ${PROJECT} ${ITEM}`, `diazo item versions ${PROJECT} ${ITEM}`]);

  const get = item.command("get").alias("info")
    .description("show one item with its tip (latest) version")
    .argument("<project>", "project id", dmProjectId)
    .argument("<item>", "item id (urn:adsk.wipprod:dm.lineage:...)", dmItemId)
    .addOption(asOption())
    .action(async (project, itemId, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const { item: found, tip } = await runItemGet({ ...opts, project, item: itemId }, ctx);
      await ctx.emit({ ...withHelpers(found, tip), ...(tip ? { tip } : {}) }, {
        columns: ["name", "id", "lastModified", "versionNumber", "size"],
      });
    });
  examples(get, [
    `diazo item get ${PROJECT} ${ITEM}`,
    `diazo item get ${PROJECT} ${ITEM} -o json --query tip.id`,
  ]);

  const versions = item.command("versions")
    .description("list an item's versions, newest first, following every page")
    .argument("<project>", "project id", dmProjectId)
    .argument("<item>", "item id (urn:adsk.wipprod:dm.lineage:...)", dmItemId)
    .addOption(limitOption())
    .addOption(asOption())
    .action(async (project, itemId, opts, cmd) => {
      const ctx = makeCtx(cmd);
      const all = await runItemVersions({ ...opts, project, item: itemId }, ctx);
      await ctx.emit(all.items.map((v) => withHelpers(v)), { columns: VERSION_COLUMNS });
    });
  examples(versions, [
    `diazo item versions ${PROJECT} ${ITEM}`,
    `diazo item versions ${PROJECT} ${ITEM} --limit 1 -o json --query '[0].id'`,
  ]);
  registerItemWrites(item, makeCtx);
}
