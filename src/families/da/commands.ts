/**
 * `diazo da ...`: Design Automation — the app's nickname, engines, app bundles, activities, work
 * items (./workitem_commands.ts) and the service's health, declared as data (command/decl.ts). The
 * short spellings (`da engines`, `da appbundles`, `da appbundle-create`, `da activities`, `da activity
 * create`, `da workitem ...`, `da status`) and the grouped ones (`da engine list`, `da appbundle
 * create`, ...) share one implementation each.
 */
import {
  checkDaName,
  checkEngineId,
  type DaName,
  type EngineId,
  type ParamSpec,
  parseParamSpec,
} from "../../aps/da_ids.ts";
import {
  type DaListKind,
  runDaAppBundleCreate,
  runDaEngineGet,
  runDaList,
  runDaNickname,
  runDaStatus,
} from "./verbs.ts";
import { runDaActivityCreate } from "./activity.ts";
import { bodySource, collect, positiveNumber } from "../../command/command.ts";
import type { CommandDecl } from "../../command/decl.ts";
import { WORKITEM } from "./workitem_commands.ts";

const ID_COLUMNS = ["id", "owner", "name", "alias"] as const;

/** The tool each list of ids is (mcp/derive.ts). */
const LIST_TOOL: Record<DaListKind, string> = {
  engines: "da_engine_list",
  appbundles: "da_appbundle_list",
  activities: "da_activity_list",
};

/** `name`: every id of `kind` (every page unless --limit). */
function idList(
  name: string,
  what: string,
  kind: DaListKind,
  lines: string[],
  aliases?: readonly string[],
): CommandDecl {
  return {
    name,
    aliases,
    description: `list ${what}, following every page`,
    tool: LIST_TOOL[kind],
    options: [{
      flags: "--limit <n>",
      description: "stop after n ids",
      parse: positiveNumber("--limit", true),
    }],
    examples: lines,
    run: async (ctx, _args, opts: { limit?: number }) => {
      await ctx.emit(await runDaList({ kind, limit: opts.limit }, ctx), { columns: ID_COLUMNS });
    },
  };
}

/**
 * `appbundle-create` / `appbundle create`; `parent` is the word of the command it is declared under
 * (`da` or `appbundle`), which its examples spell.
 */
export function appBundleCreate(parent: string, name: string): CommandDecl {
  const spelled = parent === "da" ? `da ${name}` : `da ${parent} ${name}`;
  return {
    name,
    description:
      "create an app bundle (or its next version), upload its package through the platform's form, point an alias at it",
    options: [
      {
        flags: "--id <name>",
        description: "unqualified name: letters, digits and underscores",
        parse: (v: string) => checkDaName("app bundle name", v),
        required: true,
      },
      {
        flags: "--engine <id>",
        description: "engine it runs on, e.g. Autodesk.AutoCAD+24",
        parse: checkEngineId,
        required: true,
      },
      { flags: "--package <zip>", description: "the bundle's package (a .zip, at most 100 MB) to upload" },
      {
        flags: "--alias <name>",
        description: "alias to point at the new version, e.g. prod",
        parse: (v: string) => checkDaName("alias", v),
      },
      { flags: "--description <text>", description: "what it does" },
    ],
    examples: [
      `diazo ${spelled} --id CountLines --engine Autodesk.AutoCAD+24 --package CountLines.zip --alias prod`,
      `SVC_DA_NICKNAME=MyCompany diazo ${spelled} --id ExtractBlocks --engine Autodesk.AutoCAD+24 --package blocks.zip`,
    ],
    run: async (
      ctx,
      _args,
      opts: { id: DaName; engine: EngineId; package?: string; alias?: DaName; description?: string },
    ) => {
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
    },
  };
}

/** The options `activity create` is given. */
interface ActivityCreateOpts {
  id?: string;
  engine?: string;
  appbundle?: string[];
  command?: string[];
  param?: ParamSpec[];
  alias?: string;
  description?: string;
  fromFile?: string;
}

/** `activity create`. */
const ACTIVITY_CREATE: CommandDecl = {
  name: "create",
  description: "create an activity (or its next version) from flags or --from-file, and point an alias at it",
  options: [
    { flags: "--id <name>", description: "unqualified name: letters, digits and underscores" },
    { flags: "--engine <id>", description: "engine, e.g. Autodesk.AutoCAD+24" },
    {
      flags: "--appbundle <id>",
      description: "app bundle it loads: Name, Name+alias or Owner.Name+alias (repeatable)",
      parse: collect(String),
    },
    {
      flags: "--command <line>",
      description: "command line the engine runs (repeatable)",
      parse: collect(String),
    },
    {
      flags: "--param <name:verb[:localName]>",
      description: "a parameter: verb get|head|put|post|patch|read (repeatable)",
      parse: collect(parseParamSpec),
    },
    { flags: "--alias <name>", description: "alias to point at the new version, e.g. prod" },
    { flags: "--description <text>", description: "what it does" },
    {
      flags: "--from-file <body>",
      description: "the activity as JSON or YAML (- for stdin); flags override its fields",
    },
  ],
  examples: [
    "diazo da activity create --id CountLines --engine Autodesk.AutoCAD+24 --appbundle CountLines+prod --command '$(engine.path)\\accoreconsole.exe /i \"$(args[input].path)\"' --param input:get:input.dwg --param result:put:result.txt --alias prod",
    "diazo da activity create --from-file activity.yaml --alias prod",
  ],
  run: async (ctx, _args, opts: ActivityCreateOpts) => {
    const created = await runDaActivityCreate({
      id: opts.id,
      engine: opts.engine,
      appbundles: opts.appbundle,
      commandLine: opts.command,
      params: opts.param,
      alias: opts.alias,
      description: opts.description,
      fromFile: bodySource(ctx, opts.fromFile),
    }, ctx);
    const { summary, ...record } = created;
    await ctx.emit(record, { action: summary });
  },
};

/** `status`: every engine's health, exit 1 when one is not fully operational. */
const STATUS: CommandDecl = {
  name: "status",
  description: "the service's health per engine, as the platform reports it (exit 1 when one is degraded)",
  options: [{ flags: "--engine <name>", description: "one engine: autocad, revit, inventor or 3dsmax" }],
  examples: ["diazo da status", "diazo da status --engine revit -o json"],
  run: async (ctx, _args, opts: { engine?: string }) => {
    const rows = await runDaStatus({ engine: opts.engine }, ctx);
    const degraded = rows.filter((r) => !r.ok);
    await ctx.emit(rows, { columns: ["engine", "status", "ok"] });
    if (degraded.length) {
      ctx.warn(`Degraded: ${degraded.map((r) => `${r.engine} (${r.status})`).join(", ")}`);
      ctx.setExitCode(1);
    }
  },
};

/** `da engine list|get`. */
const ENGINE: CommandDecl = {
  name: "engine",
  description: "list and inspect engines (AutoCAD, Revit, Inventor, 3ds Max)",
  examples: ["diazo da engine list", "diazo da engine get Autodesk.Revit+2024"],
  commands: [
    idList("list", "the engines", "engines", [
      "diazo da engine list",
      "diazo da engine list -o json --query \"[?name=='Revit'].id\"",
    ], ["ls"]),
    {
      name: "get",
      aliases: ["info"],
      description: "show an engine's details",
      args: [{
        spec: "<id>",
        description: "qualified engine id, e.g. Autodesk.AutoCAD+24",
        parse: checkEngineId,
      }],
      examples: ["diazo da engine get Autodesk.AutoCAD+24"],
      run: async (ctx, [id]: EngineId[]) => {
        await ctx.emit(await runDaEngineGet({ id }, ctx));
      },
    },
  ],
};

/** `da appbundle list|create`. */
const APPBUNDLE: CommandDecl = {
  name: "appbundle",
  description: "list and create app bundles (the code an activity runs)",
  examples: [
    "diazo da appbundle list",
    "diazo da appbundle create --id MyApp --engine Autodesk.AutoCAD+24 --package MyApp.zip",
  ],
  commands: [
    idList("list", "the app's app bundles (one id per alias)", "appbundles", ["diazo da appbundle list"], [
      "ls",
    ]),
    appBundleCreate("appbundle", "create"),
  ],
};

/** `da activity list|create`. */
const ACTIVITY: CommandDecl = {
  name: "activity",
  description: "list and create activities",
  examples: ["diazo da activity list", "diazo da activity create --from-file activity.yaml"],
  commands: [
    idList("list", "the activities the app can use (its own and shared ones)", "activities", [
      "diazo da activity list",
    ], ["ls"]),
    ACTIVITY_CREATE,
  ],
};

/** The da family. */
export const DA: CommandDecl = {
  name: "da",
  description: "Design Automation: engines, app bundles, activities, work items, health (scope code:all)",
  examples: [
    "diazo da engines",
    "diazo da workitem run CountLines+prod --input input=drawing.dwg --out result=result.txt --wait",
    "diazo da status",
  ],
  commands: [
    {
      name: "nickname",
      description: "show the app's nickname (the owner part of its ids), or set it",
      args: [{
        spec: "[name]",
        description: "new nickname: letters, digits and underscores",
        parse: (v: string) => checkDaName("nickname", v),
      }],
      examples: ["diazo da nickname", "diazo da nickname MyCompany"],
      run: async (ctx, [name]: (DaName | undefined)[]) => {
        const answer = await runDaNickname({ name }, ctx);
        if (name !== undefined) ctx.info(`Nickname set to ${name}`);
        await ctx.emit(answer);
      },
    },
    idList("engines", "the engines", "engines", ["diazo da engines", "diazo da engines -o json"]),
    idList("appbundles", "the app's app bundles (one id per alias)", "appbundles", ["diazo da appbundles"]),
    idList("activities", "the activities the app can use (its own and shared ones)", "activities", [
      "diazo da activities",
      "diazo da activities -o json --limit 5",
    ]),
    appBundleCreate("da", "appbundle-create"),
    ENGINE,
    APPBUNDLE,
    ACTIVITY,
    WORKITEM,
    STATUS,
  ],
};
