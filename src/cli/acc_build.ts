/**
 * `diazo acc asset|submittal|checklist ...`: the build records of a construction-cloud
 * project — list, get, create, update — and `acc checklist templates`, as the logged-in user.
 */
import { CHECKLIST_STATUSES, CHECKLIST_TEMPLATE_TYPES, SUBMITTAL_STATES } from "../aps/acc_build.ts";
import {
  type Asset,
  ASSET_KIND,
  type AssetFilters,
  CHECKLIST_KIND,
  type ChecklistFilters,
  type ChecklistResource,
  runChecklistTemplates,
  SUBMITTAL_KIND,
  type SubmittalFilters,
  type SubmittalItem,
  TEMPLATE_COLUMNS,
  templateRow,
} from "../ops/acc_kinds.ts";
import {
  commaList,
  dateValue,
  oneOf,
  PROJECT_HELP,
  projectOf,
  type RecordCli,
  registerRecordCommands,
} from "./acc_records.ts";
import { type AnyCommand, type ContextFactory, examples, positiveNumber } from "./command.ts";

const P = "1c7d2a10-8f3e-4c55-a1b2-3c4d5e6f7081";
const PRIORITIES = ["Low", "Normal", "High"];

const ASSET_CLI: RecordCli<Asset, AssetFilters> = {
  kind: ASSET_KIND,
  plural: "assets",
  article: "an",
  filters: [
    { flags: "--category <ids>", key: "categoryId", help: "only these category ids", parse: commaList },
    { flags: "--status <ids>", key: "statusId", help: "only these status ids", parse: commaList },
    { flags: "--search <text>", key: "search", help: "only assets whose text fields hold this text" },
  ],
  fields: [
    { flags: "--name <text>", field: "clientAssetId", help: "the asset's name (Asset ID in the web app)" },
    { flags: "--category <id>", field: "categoryId", help: "category id" },
    { flags: "--status <id>", field: "statusId", help: "status id (one of the category's status set)" },
    { flags: "--description <text>", field: "description", help: "description" },
    { flags: "--barcode <text>", field: "barcode", help: "barcode" },
    { flags: "--location <id>", field: "locationId", help: "location id" },
  ],
  examples: {
    list: [
      `diazo acc asset list --project ${P}`,
      `diazo acc asset list --project b.${P} --category 3 -o json`,
    ],
    get: [`diazo acc asset get <asset-id> --project ${P}`],
    create: [`diazo acc asset create --project ${P} --name AHU-07 --category 3 --status <status-id>`],
    update: [`diazo acc asset update <asset-id> --project ${P} --status <status-id> --barcode 0042`],
  },
};

const SUBMITTAL_CLI: RecordCli<SubmittalItem, SubmittalFilters> = {
  kind: SUBMITTAL_KIND,
  plural: "submittals",
  article: "a",
  filters: [
    {
      flags: "--status <ids>",
      key: "statusId",
      help: "only these status ids (1 required, 2 open, 3 closed, 4 void, 6 draft)",
      parse: commaList,
    },
    { flags: "--package <ids>", key: "packageId", help: "only items of these packages", parse: commaList },
    {
      flags: "--search <text>",
      key: "search",
      help: "only items whose identifier, title or spec holds this text",
    },
  ],
  fields: [
    { flags: "--title <text>", field: "title", help: "title" },
    { flags: "--type <id>", field: "typeId", help: "item type id" },
    { flags: "--spec <id>", field: "specId", help: "spec section id" },
    {
      flags: "--state <state>",
      field: "stateId",
      help: `workflow state (${SUBMITTAL_STATES.join(", ")}); create default: mgr-1`,
      parse: oneOf("--state", SUBMITTAL_STATES, true),
    },
    { flags: "--package <id>", field: "packageId", help: "package id" },
    { flags: "--description <text>", field: "description", help: "description" },
    {
      flags: "--priority <p>",
      field: "priority",
      help: PRIORITIES.join(", "),
      parse: oneOf("--priority", PRIORITIES, true),
    },
    {
      flags: "--due-date <date>",
      field: "dueDate",
      help: "due date (YYYY-MM-DD)",
      parse: dateValue("--due-date"),
    },
  ],
  createDefaults: { stateId: "mgr-1" },
  examples: {
    list: [
      `diazo acc submittal list --project ${P}`,
      `diazo acc submittal list --project ${P} --status 2 -o json`,
    ],
    get: [`diazo acc submittal get <item-id> --project ${P}`],
    create: [
      `diazo acc submittal create --project ${P} --title 'Curtain wall shop drawings' --type <type-id> --spec <spec-id>`,
    ],
    update: [`diazo acc submittal update <item-id> --project ${P} --state rev`],
  },
};

const CHECKLIST_CLI: RecordCli<ChecklistResource, ChecklistFilters> = {
  kind: CHECKLIST_KIND,
  plural: "checklists",
  article: "a",
  filters: [
    {
      flags: "--template-type <ids>",
      key: "templateTypeId",
      help: `only these template types (${
        Object.entries(CHECKLIST_TEMPLATE_TYPES).map(([k, v]) => `${k} ${v}`).join(", ")
      })`,
      parse: oneOf("--template-type", Object.keys(CHECKLIST_TEMPLATE_TYPES)),
    },
    {
      flags: "--status <list>",
      key: "statusId",
      help: `only these statuses (${CHECKLIST_STATUSES.join(", ")})`,
      // The platform filters by status number: the statuses' order, from 1.
      parse: (v) =>
        [oneOf("--status", CHECKLIST_STATUSES)(v)].flat().map((s) =>
          String(CHECKLIST_STATUSES.indexOf(s) + 1)
        ),
    },
  ],
  fields: [
    {
      flags: "--template <id>",
      field: "templateId",
      help: "the template to create it from (`acc checklist templates`)",
      createOnly: true,
    },
    { flags: "--title <text>", field: "title", help: "title" },
    {
      flags: "--status <status>",
      field: "status",
      help: CHECKLIST_STATUSES.join(", "),
      parse: oneOf("--status", CHECKLIST_STATUSES, true),
    },
    { flags: "--assigned-to, --assignee <id>", field: "assigneeId", help: "assignee (Autodesk user id)" },
    {
      flags: "--due-date <date>",
      field: "dueDate",
      help: "due date (YYYY-MM-DD)",
      parse: dateValue("--due-date"),
    },
    { flags: "--location <text>", field: "location", help: "where on site" },
  ],
  examples: {
    list: [
      `diazo acc checklist list --project ${P}`,
      `diazo acc checklist list --project ${P} --template-type 11 -o json`,
    ],
    get: [`diazo acc checklist get <checklist-id> --project ${P}`],
    create: [`diazo acc checklist create --project ${P} --template <template-id> --title 'Level 3 pre-pour'`],
    update: [`diazo acc checklist update <checklist-id> --project ${P} --status in_progress`],
  },
};

function registerTemplates(checklist: AnyCommand, makeCtx: ContextFactory): void {
  const templates = checklist.command("templates")
    .description("list the project's checklist templates, following every page")
    .requiredOption("--project <id>", PROJECT_HELP, projectOf)
    .option("--limit <n>", "stop after n templates", positiveNumber("--limit", true))
    .action(async (opts, cmd) => {
      const ctx = makeCtx(cmd);
      const list = await runChecklistTemplates(opts, ctx);
      const format = await ctx.format();
      const scan = (format === "table" || format === "csv") && !ctx.flags.query;
      await ctx.emit(scan ? list.map(templateRow) : list, { columns: TEMPLATE_COLUMNS });
    });
  examples(templates, [
    `diazo acc checklist templates --project ${P}`,
    `diazo acc checklist templates --project b.${P} -o json`,
  ]);
}

/** Registers `acc asset`, `acc submittal` and `acc checklist`. */
export function registerAccBuild(acc: AnyCommand, makeCtx: ContextFactory): void {
  const asset = acc.command("asset").description("assets of a project: equipment and their statuses");
  examples(asset, [`diazo acc asset list --project ${P}`]);
  registerRecordCommands(asset, ASSET_CLI, makeCtx);
  const submittal = acc.command("submittal").description("submittal items of an ACC project");
  examples(submittal, [`diazo acc submittal list --project ${P}`]);
  registerRecordCommands(submittal, SUBMITTAL_CLI, makeCtx);
  const checklist = acc.command("checklist").description("checklists of a project and their templates");
  examples(checklist, [
    `diazo acc checklist templates --project ${P}`,
    `diazo acc checklist list --project ${P}`,
  ]);
  registerRecordCommands(checklist, CHECKLIST_CLI, makeCtx);
  registerTemplates(checklist, makeCtx);
}
