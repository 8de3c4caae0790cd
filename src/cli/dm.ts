/**
 * Data management families `hub`, `project`, `folder`, `item`: browse hubs, projects, folders,
 * items and versions. Commands act as the logged-in user when the profile has a 3-legged login,
 * else as the app (2-legged); `--as user|app` chooses.
 */
import { Option } from "@commander-js/extra-typings";
import { dmFolderId, dmHubId, dmItemId, dmProjectId } from "../aps/dm_ids.ts";
import { usageError } from "../core/errors.ts";
import {
  type DmPage,
  type DmResource,
  runFolderGet,
  runFolderList,
  runHubGet,
  runHubList,
  runItemGet,
  runItemVersions,
  runProjectGet,
  runProjectList,
} from "../ops/dm.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "./command.ts";

const WHO = ["user", "app"] as const;

const HUB = "b.c8b0c73d-3ae9-4a3c-9b5e-1f2d3c4b5a69";
const PROJECT = "b.1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081";
const FOLDER = "urn:adsk.wipprod:fs.folder:co.mgS-lb-BThaTdHnhiN_mbA";
const ITEM = "urn:adsk.wipprod:dm.lineage:AeYgDtcTSuqYoyMweWFhhQ";

function asOption() {
  return new Option(
    "--as <who>",
    "act as the logged-in user (3-legged) or the app (2-legged); default: the user when the profile has a 3-legged login, else the app",
  ).choices(WHO);
}

function limitOption() {
  return new Option("--limit <n>", "stop after n results").argParser(positiveNumber("--limit", true));
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
  const folder = program.command("folder").description("list folders and their contents");
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
}

/** Registers `item`. */
export function registerItem(program: AnyCommand, makeCtx: ContextFactory): void {
  const item = program.command("item").description("inspect items (files) and their versions");
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
}
