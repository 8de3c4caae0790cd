/** `diazo da ...`: Design Automation — the app's nickname, engines, app bundles and activities. */
import { checkDaName, checkEngineId } from "../aps/da_ids.ts";
import {
  type DaListKind,
  runDaAppBundleCreate,
  runDaEngineGet,
  runDaList,
  runDaNickname,
} from "../ops/da.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "./command.ts";

const ID_COLUMNS = ["id", "owner", "name", "alias"] as const;

/** Adds a `list` command under `parent` that shows every id of `list` (every page unless --limit). */
function addIdList(
  parent: AnyCommand,
  makeCtx: ContextFactory,
  what: string,
  kind: DaListKind,
  lines: string[],
): void {
  const cmd = parent.command("list").alias("ls")
    .description(`list ${what}, following every page`)
    .option("--limit <n>", "stop after n ids", positiveNumber("--limit", true))
    .action(async (opts, c) => {
      const ctx = makeCtx(c);
      await ctx.emit(await runDaList({ kind, limit: opts.limit }, ctx), { columns: ID_COLUMNS });
    });
  examples(cmd, lines);
}

/** Registers the family's commands. */
export function register(program: AnyCommand, makeCtx: ContextFactory): void {
  const da = program.command("da")
    .description(
      "Design Automation: the app's nickname, engines, app bundles and activities (scope code:all)",
    );
  examples(da, ["diazo da engine list", "diazo da nickname", "diazo da appbundle list -o json"]);

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

  const engine = da.command("engine").description(
    "list and inspect engines (AutoCAD, Revit, Inventor, 3ds Max)",
  );
  examples(engine, ["diazo da engine list", "diazo da engine get Autodesk.Revit+2024"]);
  addIdList(engine, makeCtx, "the engines", "engines", [
    "diazo da engine list",
    "diazo da engine list -o json --query \"[?name=='Revit'].id\"",
  ]);
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
    "diazo da appbundle create --id MyApp --engine Autodesk.AutoCAD+24",
  ]);
  addIdList(bundle, makeCtx, "the app's app bundles (one id per alias)", "appbundles", [
    "diazo da appbundle list",
  ]);
  const create = bundle.command("create")
    .description("create an app bundle (version 1) and print where to upload its package")
    .requiredOption(
      "--id <name>",
      "unqualified name: letters, digits and underscores",
      (v) => checkDaName("app bundle name", v),
    )
    .requiredOption("--engine <id>", "engine it runs on, e.g. Autodesk.AutoCAD+24", checkEngineId)
    .option("--description <text>", "what it does")
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const created = await runDaAppBundleCreate({
        id: opts.id,
        engine: opts.engine,
        description: opts.description,
      }, ctx);
      ctx.info(
        `Created app bundle ${created.id} version ${created.version}; upload its package (a zip) as a form to ${created.uploadParameters?.endpointURL}`,
      );
      await ctx.emit(created);
    });
  examples(create, [
    "diazo da appbundle create --id ExtractBlocks --engine Autodesk.AutoCAD+24 --description 'lists block names'",
  ]);

  const activity = da.command("activity").description("list activities (your own and shared ones)");
  examples(activity, ["diazo da activity list"]);
  addIdList(activity, makeCtx, "the activities the app can use", "activities", [
    "diazo da activity list",
    "diazo da activity list -o json --limit 5",
  ]);
}
