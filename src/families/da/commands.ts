/**
 * `diazo da ...`: Design Automation — the app's nickname, engines, app bundles, activities, work
 * items (da_workitem.ts) and the service's health. The short spellings (`da engines`, `da
 * appbundles`, `da appbundle-create`, `da activities`, `da activity create`, `da workitem ...`, `da
 * status`) and the grouped ones (`da engine list`, `da appbundle create`, ...) share one
 * implementation each.
 */
import { checkDaName, checkEngineId, type ParamSpec, parseParamSpec } from "../../aps/da_ids.ts";
import {
  type DaListKind,
  runDaAppBundleCreate,
  runDaEngineGet,
  runDaList,
  runDaNickname,
  runDaStatus,
} from "./verbs.ts";
import { runDaActivityCreate } from "./activity.ts";
import {
  type AnyCommand,
  bodySource,
  collect,
  type ContextFactory,
  examples,
  positiveNumber,
} from "../../command/command.ts";
import { registerWorkItems } from "./workitem_commands.ts";

const ID_COLUMNS = ["id", "owner", "name", "alias"] as const;

/** Adds `name` under `parent`: every id of `kind` (every page unless --limit). */
function addIdList(
  parent: AnyCommand,
  name: string,
  makeCtx: ContextFactory,
  what: string,
  kind: DaListKind,
  lines: string[],
): AnyCommand {
  const cmd = parent.command(name)
    .description(`list ${what}, following every page`)
    .option("--limit <n>", "stop after n ids", positiveNumber("--limit", true))
    .action(async (opts, c) => {
      const ctx = makeCtx(c);
      await ctx.emit(await runDaList({ kind, limit: opts.limit }, ctx), { columns: ID_COLUMNS });
    });
  return examples(cmd, lines);
}

/** Collects a repeated option's values. */

/** Adds `name` under `parent`: `appbundle-create` / `appbundle create`. */
function addAppBundleCreate(parent: AnyCommand, name: string, makeCtx: ContextFactory): void {
  const cmd = parent.command(name)
    .description(
      "create an app bundle (or its next version), upload its package through the platform's form, point an alias at it",
    )
    .requiredOption(
      "--id <name>",
      "unqualified name: letters, digits and underscores",
      (v) => checkDaName("app bundle name", v),
    )
    .requiredOption("--engine <id>", "engine it runs on, e.g. Autodesk.AutoCAD+24", checkEngineId)
    .option("--package <zip>", "the bundle's package (a .zip, at most 100 MB) to upload")
    .option("--alias <name>", "alias to point at the new version, e.g. prod", (v) => checkDaName("alias", v))
    .option("--description <text>", "what it does")
    .action(async (opts, c) => {
      const ctx = makeCtx(c);
      const created = await runDaAppBundleCreate({
        id: opts.id,
        engine: opts.engine,
        description: opts.description,
        packageFile: opts.package,
        alias: opts.alias,
      }, ctx);
      const { summary, ...record } = created;
      if (!created.package) {
        ctx.info(
          `Upload its package (a zip) as a form to ${created.uploadParameters?.endpointURL}, or run again with --package`,
        );
      }
      await ctx.emit(record, { action: summary });
    });
  const spelled = parent.name() === "da" ? `da ${name}` : `da ${parent.name()} ${name}`;
  examples(cmd, [
    `diazo ${spelled} --id CountLines --engine Autodesk.AutoCAD+24 --package CountLines.zip --alias prod`,
    `SVC_DA_NICKNAME=MyCompany diazo ${spelled} --id ExtractBlocks --engine Autodesk.AutoCAD+24 --package blocks.zip`,
  ]);
}

/** Adds `create` under `activity`. */
function addActivityCreate(activity: AnyCommand, makeCtx: ContextFactory): void {
  const cmd = activity.command("create")
    .description(
      "create an activity (or its next version) from flags or --from-file, and point an alias at it",
    )
    .option("--id <name>", "unqualified name: letters, digits and underscores")
    .option("--engine <id>", "engine, e.g. Autodesk.AutoCAD+24")
    .option(
      "--appbundle <id>",
      "app bundle it loads: Name, Name+alias or Owner.Name+alias (repeatable)",
      collect(String),
    )
    .option("--command <line>", "command line the engine runs (repeatable)", collect(String))
    .option(
      "--param <name:verb[:localName]>",
      "a parameter: verb get|head|put|post|patch|read (repeatable)",
      collect(parseParamSpec),
    )
    .option("--alias <name>", "alias to point at the new version, e.g. prod")
    .option("--description <text>", "what it does")
    .option("--from-file <body>", "the activity as JSON or YAML (- for stdin); flags override its fields")
    .action(async (opts, c) => {
      const ctx = makeCtx(c);
      const created = await runDaActivityCreate({
        id: opts.id,
        engine: opts.engine,
        appbundles: opts.appbundle,
        commandLine: opts.command,
        params: opts.param as ParamSpec[] | undefined,
        alias: opts.alias,
        description: opts.description,
        fromFile: bodySource(ctx, opts.fromFile),
      }, ctx);
      const { summary, ...record } = created;
      await ctx.emit(record, { action: summary });
    });
  examples(cmd, [
    "diazo da activity create --id CountLines --engine Autodesk.AutoCAD+24 --appbundle CountLines+prod --command '$(engine.path)\\accoreconsole.exe /i \"$(args[input].path)\"' --param input:get:input.dwg --param result:put:result.txt --alias prod",
    "diazo da activity create --from-file activity.yaml --alias prod",
  ]);
}

/** Adds `status`: every engine's health, exit 1 when one is not fully operational. */
function addStatus(da: AnyCommand, makeCtx: ContextFactory): void {
  const cmd = da.command("status")
    .description("the service's health per engine, as the platform reports it (exit 1 when one is degraded)")
    .option("--engine <name>", "one engine: autocad, revit, inventor or 3dsmax")
    .action(async (opts, c) => {
      const ctx = makeCtx(c);
      const rows = await runDaStatus({ engine: opts.engine }, ctx);
      const degraded = rows.filter((r) => !r.ok);
      await ctx.emit(rows, { columns: ["engine", "status", "ok"] });
      if (degraded.length) {
        ctx.warn(`Degraded: ${degraded.map((r) => `${r.engine} (${r.status})`).join(", ")}`);
        ctx.setExitCode(1);
      }
    });
  examples(cmd, ["diazo da status", "diazo da status --engine revit -o json"]);
}

/** The grouped spellings: `da engine list|get`, `da appbundle list|create`, `da activity list|create`. */
function addGrouped(da: AnyCommand, makeCtx: ContextFactory): void {
  const engine = da.command("engine").description(
    "list and inspect engines (AutoCAD, Revit, Inventor, 3ds Max)",
  );
  examples(engine, ["diazo da engine list", "diazo da engine get Autodesk.Revit+2024"]);
  addIdList(engine, "list", makeCtx, "the engines", "engines", [
    "diazo da engine list",
    "diazo da engine list -o json --query \"[?name=='Revit'].id\"",
  ]).alias("ls");
  const engineGet = engine.command("get").alias("info")
    .description("show an engine's details")
    .argument("<id>", "qualified engine id, e.g. Autodesk.AutoCAD+24", checkEngineId)
    .action(async (id, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      await ctx.emit(await runDaEngineGet({ id }, ctx));
    });
  examples(engineGet, ["diazo da engine get Autodesk.AutoCAD+24"]);

  const bundle = da.command("appbundle").description(
    "list and create app bundles (the code an activity runs)",
  );
  examples(bundle, [
    "diazo da appbundle list",
    "diazo da appbundle create --id MyApp --engine Autodesk.AutoCAD+24 --package MyApp.zip",
  ]);
  addIdList(bundle, "list", makeCtx, "the app's app bundles (one id per alias)", "appbundles", [
    "diazo da appbundle list",
  ])
    .alias("ls");
  addAppBundleCreate(bundle, "create", makeCtx);

  const activity = da.command("activity").description("list and create activities");
  examples(activity, ["diazo da activity list", "diazo da activity create --from-file activity.yaml"]);
  addIdList(
    activity,
    "list",
    makeCtx,
    "the activities the app can use (its own and shared ones)",
    "activities",
    [
      "diazo da activity list",
    ],
  ).alias("ls");
  addActivityCreate(activity, makeCtx);
}

/** Registers the family's commands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const da = program.command("da")
    .description("Design Automation: engines, app bundles, activities, work items, health (scope code:all)");
  examples(da, [
    "diazo da engines",
    "diazo da workitem run CountLines+prod --input input=drawing.dwg --out result=result.txt --wait",
    "diazo da status",
  ]);

  const nickname = da.command("nickname")
    .description("show the app's nickname (the owner part of its ids), or set it")
    .argument("[name]", "new nickname: letters, digits and underscores", (v) => checkDaName("nickname", v))
    .action(async (name, _opts, cmd) => {
      const ctx = makeCtx(cmd);
      const answer = await runDaNickname({ name }, ctx);
      if (name !== undefined) ctx.info(`Nickname set to ${name}`);
      await ctx.emit(answer);
    });
  examples(nickname, ["diazo da nickname", "diazo da nickname MyCompany"]);

  addIdList(da, "engines", makeCtx, "the engines", "engines", [
    "diazo da engines",
    "diazo da engines -o json",
  ]);
  addIdList(da, "appbundles", makeCtx, "the app's app bundles (one id per alias)", "appbundles", [
    "diazo da appbundles",
  ]);
  addIdList(
    da,
    "activities",
    makeCtx,
    "the activities the app can use (its own and shared ones)",
    "activities",
    [
      "diazo da activities",
      "diazo da activities -o json --limit 5",
    ],
  );
  addAppBundleCreate(da, "appbundle-create", makeCtx);

  addGrouped(da, makeCtx);
  registerWorkItems(da, makeCtx);
  addStatus(da, makeCtx);
}
